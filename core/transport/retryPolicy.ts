/**
 * The one policy that decides every repeat of a request, from its method, what may already
 * have happened, and the answer. The client's send loop asks it after each failed send; no
 * other layer repeats anything (the transport sends once, the token source exchanges once).
 *
 * What may be sent again:
 * - Nothing was sent (connection refused, name not resolved): any method, but only a few times,
 *   since it is usually a wrong URL and the user should hear so quickly.
 * - 429, or 503 with a Retry-After: the service refused before doing anything and said to come
 *   back later; any method (a POST too: nothing was applied), Retry-After honoured up to a cap
 *   (backoff without one). These waits are bounded by the call's deadline, not by a count: under
 *   a rate limit a request may be refused many times while its turn comes, and giving up after
 *   a few refusals fails a deployment the service would have finished.
 * - 503 without Retry-After: the service did nothing; any method, counted like any failure.
 * - 500 / 502 / 504 may hide an applied write: only methods safe to repeat (GET, PATCH with its
 *   fixed values, DELETE).
 * - The answer was lost after sending (reset, headers or body timed out): GET / PATCH / DELETE
 *   again; a POST is never repeated here, the client reports an UnknownOutcomeError and the
 *   create loop looks for the record before sending again (MAX_CREATE_SENDS).
 * - UNAUTHENTICATED with a token that can be renewed: once, at once, with a fresh token.
 * - PERMISSION_DENIED on a create under a group this process created moments ago: access to
 *   a new group takes a few seconds to propagate, so the create is repeated within the window.
 *
 * Worst case, stated: one API request is sent at most MAX_SENDS_PER_REQUEST (8) times, at most
 * MAX_UNREACHABLE_SENDS (3) when the host cannot be reached, not counting the sends the service
 * refused with a wait (429, 503 with Retry-After), which only the deadline bounds; a token exchange is a request of
 * its own (at most 8 sends), and one API request causes at most 2 exchanges (the token in hand,
 * one renewal). A create sends at most MAX_CREATE_SENDS (6) POSTs whose answers were lost, each
 * followed by one search. Whatever the count, nothing is sent or awaited past the call's
 * deadline (platform:timeout, default 120 s): the client stops there with DeadlineExceededError.
 */
import type { Random } from "../common/clock";

export const MAX_SENDS_PER_REQUEST = 8;
export const MAX_UNREACHABLE_SENDS = 3;
/** How many POSTs one create sends at most when their answers keep getting lost. */
export const MAX_CREATE_SENDS = 6;
/** First backoff; doubles with each send, with jitter, up to MAX_DELAY_MS. */
export const BASE_DELAY_MS = 100;
export const MAX_DELAY_MS = 4_000;
/** Retry-After is obeyed up to this (a longer one is repeated after this); past the deadline the call fails. */
export const MAX_RETRY_AFTER_MS = 30_000;
/** How long after creating a group a PERMISSION_DENIED under it is taken for propagation. */
export const PROPAGATION_WINDOW_MS = 30_000;

const REPEATABLE = new Set(["GET", "HEAD", "PATCH", "DELETE", "PUT"]);
/** Refused before anything was done; a 429 always asks to wait (asksToWait), a 503 when it says how long. */
const NOTHING_DONE = new Set([429, 503]);
const MAYBE_DONE = new Set([500, 502, 504]);
const UNAUTHENTICATED = 16;
const PERMISSION_DENIED = 7;

/** What became of one send. */
export type Outcome =
  /** An HTTP answer: its status, the API code it carries, the Retry-After it asked for. */
  | { kind: "answered"; httpStatus: number; code: number; retryAfterMs?: number }
  /** No connection was made: nothing reached the service. */
  | { kind: "unsent"; cause: string }
  /** Sent, and the answer was lost (connection reset, headers or body timed out). */
  | { kind: "lost"; cause: string };

export interface Situation {
  method: string;
  /** Sends of this request so far, the failed one included (1-based). */
  sends: number;
  /** How many of those sends the service refused with a wait (asksToWait), the failed one included. */
  refusals?: number;
  outcome: Outcome;
  /** UNAUTHENTICATED: the token source can offer a different token, and no renewal was tried yet. */
  canRenewToken?: boolean;
  /** PERMISSION_DENIED on a create under a group this process created within PROPAGATION_WINDOW_MS. */
  parentJustCreated?: boolean;
}

export type Decision = { retry: false } | { retry: true; delayMs: number; renewToken?: boolean };

const STOP: Decision = { retry: false };

/** Full-jitter exponential backoff: half the step fixed, half random, so parallel callers spread out. */
export function backoffMs(sends: number, random: Random): number {
  const step = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (sends - 1));
  return step / 2 + random() * (step / 2);
}

/**
 * The service refused the request before doing anything and asked the caller to come back: a 429
 * (rate limited), or a 503 that says when (Retry-After). Only the call's deadline bounds these.
 */
export function asksToWait(outcome: Outcome): boolean {
  return (
    outcome.kind === "answered" &&
    (outcome.httpStatus === 429 || (outcome.httpStatus === 503 && outcome.retryAfterMs !== undefined))
  );
}

/** The wait before the next send, as the service asked: never under the first backoff step, never over the cap. */
function waitAsked(retryAfter: number | undefined, refusals: number, random: Random): number {
  if (retryAfter === undefined) return backoffMs(refusals, random);
  // A Retry-After of 0 repeated would send as fast as the answers come, until the deadline.
  return Math.max(BASE_DELAY_MS, Math.min(retryAfter, MAX_RETRY_AFTER_MS));
}

export function decide(situation: Situation, random: Random = Math.random): Decision {
  const { method, sends, outcome } = situation;
  const refusals = Math.max(situation.refusals ?? 0, asksToWait(outcome) ? 1 : 0);
  if (outcome.kind === "answered" && asksToWait(outcome))
    return { retry: true, delayMs: waitAsked(outcome.retryAfterMs, refusals, random) };
  const repeatable = REPEATABLE.has(method.toUpperCase());
  // The sends the policy counts: refusals with a wait are bounded by the deadline instead.
  const counted = sends - refusals;
  if (counted >= MAX_SENDS_PER_REQUEST) return STOP;
  switch (outcome.kind) {
    case "unsent":
      return counted < MAX_UNREACHABLE_SENDS ? { retry: true, delayMs: backoffMs(sends, random) } : STOP;
    case "lost":
      return repeatable ? { retry: true, delayMs: backoffMs(sends, random) } : STOP;
    case "answered": {
      if (outcome.code === UNAUTHENTICATED) {
        return situation.canRenewToken ? { retry: true, delayMs: 0, renewToken: true } : STOP;
      }
      if (outcome.code === PERMISSION_DENIED) {
        return situation.parentJustCreated ? { retry: true, delayMs: backoffMs(sends, random) } : STOP;
      }
      // A 503 without Retry-After (a 429, or a 503 with one, was answered above).
      if (NOTHING_DONE.has(outcome.httpStatus)) return { retry: true, delayMs: backoffMs(sends, random) };
      if (MAYBE_DONE.has(outcome.httpStatus) && repeatable) return { retry: true, delayMs: backoffMs(sends, random) };
      return STOP;
    }
  }
}

/** Whether the create loop may send its POST again after `postsSent` answers were lost. */
export function mayResendCreate(postsSent: number): boolean {
  return postsSent < MAX_CREATE_SENDS;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date (measured against `now`). */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
