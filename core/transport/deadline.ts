/**
 * One overall deadline per provider call or look-up, across every request and retry it makes.
 * The lifecycle and the look-ups open a call scope; the client asks how much time the scope has
 * left before each send and each wait, bounds each send by it, and fails with
 * DeadlineExceededError once it is spent. A request made outside any scope gets a scope of its
 * own with the same budget. AsyncLocalStorage carries the scope, so nothing in between passes it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { timeoutSetting } from "./settings";

export interface CallScope {
  /** What the call is doing, for the timeout message: "creating group \"team\"". */
  what: string;
  /** Milliseconds since the epoch on the scope's clock. */
  deadline: number;
  /** The budget the deadline came from, for messages. */
  budgetMs: number;
  now(): number;
  /** Sends of each request at most, when fewer than the retry policy allows (a List for several reads). */
  maxSends?: number;
  /** A Retry-After answered to this call pauses only this call, not every send of the client. */
  pausesOnlyItself?: boolean;
}

/** How a call made for several others sends its requests: fewer repeats, and a pause of its own. */
export type SendLimits = Pick<CallScope, "maxSends" | "pausesOnlyItself">;

const scopes = new AsyncLocalStorage<CallScope>();

/** The scope of the provider call or look-up running now, if any. */
export function currentCall(): CallScope | undefined {
  return scopes.getStore();
}

/** Runs `fn` as one call that must end within `budgetMs` on `now`'s clock; inner scopes never extend outer ones. */
export function withCallDeadline<T>(
  what: string,
  budgetMs: number,
  fn: () => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  const outer = scopes.getStore();
  if (outer && outer.deadline <= now() + budgetMs) return scopes.run({ ...outer, what }, fn);
  return scopes.run({ what, deadline: now() + budgetMs, budgetMs, now }, fn);
}

/**
 * Runs `fn` as a call of its own that ends at `deadline` (on `now`'s clock), whatever scope the
 * caller is in: a request made for several calls at once (one List answering several reads)
 * ends when the first of theirs does.
 */
export function withCallDeadlineAt<T>(
  what: string,
  deadline: number,
  budgetMs: number,
  fn: () => Promise<T>,
  now: () => number = Date.now,
  limits: SendLimits = {},
): Promise<T> {
  return scopes.run({ what, deadline, budgetMs, now, ...limits }, fn);
}

/** The default overall budget of one provider call or look-up. */
export const DEFAULT_CALL_BUDGET_MS = 2 * 60 * 1000;

/**
 * The budget in effect for a call starting now: platform:timeout / PLATFORM_TIMEOUT (seconds).
 * A malformed value falls back to the default here; the client's settings check reports it,
 * naming the setting, before the first request.
 */
export function callBudgetMs(): number {
  try {
    return timeoutSetting() ?? DEFAULT_CALL_BUDGET_MS;
  } catch {
    return DEFAULT_CALL_BUDGET_MS;
  }
}

/**
 * The call's overall deadline passed: says how long, which setting sets it, and which request
 * was under way. The call itself ("reading group …") is named by whoever reports the error
 * (the lifecycle, a look-up); `what` keeps it for callers that report it bare.
 */
export class DeadlineExceededError extends Error {
  constructor(
    readonly what: string,
    readonly budgetMs: number,
    detail: string,
  ) {
    const seconds = Number((budgetMs / 1000).toFixed(3));
    super(`no answer within ${seconds} s (platform:timeout)${detail ? `; ${detail}` : ""}`);
    this.name = "DeadlineExceededError";
  }
}
