/**
 * One overall deadline per provider call or look-up, across every request and retry it makes.
 * The lifecycle and the look-ups open a call scope; the client and the transport ask how much
 * time the scope has left before each attempt, and fail with DeadlineExceededError once it
 * is spent. AsyncLocalStorage carries the scope, so nothing in between passes it along.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface CallScope {
  /** What the call is doing, for the timeout message: "creating group \"team\"". */
  what: string;
  /** Milliseconds since the epoch on the scope's clock. */
  deadline: number;
  now(): number;
}

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
  const deadline = Math.min(now() + budgetMs, outer?.deadline ?? Number.POSITIVE_INFINITY);
  return scopes.run({ what, deadline, now }, fn);
}

/** The default overall budget of one provider call or look-up. */
export const DEFAULT_CALL_BUDGET_MS = 2 * 60 * 1000;

/** The budget in effect for a call starting now. */
export function callBudgetMs(): number {
  return DEFAULT_CALL_BUDGET_MS;
}
