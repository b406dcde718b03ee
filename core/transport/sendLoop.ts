/**
 * The one loop that sends a request until it succeeds or the retry policy says stop, within the
 * deadline of the call it belongs to. Used by every API request and by the token exchange.
 *
 * Each send is bounded by the time the call has left (headers timeout, body idle timeout and an
 * abort at the deadline); a wait the policy asks for (backoff, Retry-After) that would end past
 * the deadline is not waited: the call fails at once with DeadlineExceededError saying why.
 */
import type { Clock, Random } from "../common/clock";
import { CallScope, DeadlineExceededError, currentCall } from "./deadline";
import { ApiError, ConnectionLostError, UnknownOutcomeError, UnreachableError } from "../common/errors";
import { MAX_RETRY_AFTER_MS, Outcome, Situation, asksToWait, decide, retryAfterMs } from "./retryPolicy";
import type { RequestSlots } from "./requestSlots";
import { HttpAnswer, HttpRequest, SendFailure, Transport } from "./transport";

/** How long one send may wait for the answer's headers. */
export const ATTEMPT_HEADERS_TIMEOUT_MS = 30_000;
/** How long an answer's body may pause between two chunks. */
export const BODY_IDLE_TIMEOUT_MS = 30_000;
/** The largest answer accepted: far beyond any page of 200 records. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface SendLoopOptions {
  transport: Transport;
  clock: Clock;
  random: Random;
  headersTimeoutMs?: number;
  bodyIdleTimeoutMs?: number;
  maxAnswerBytes?: number;
  /** The bound on sends in flight and the pause a Retry-After asks for (core/transport/requestSlots.ts). */
  slots?: RequestSlots;
}

export interface LoopRequest {
  method: HttpRequest["method"];
  url: string;
  /** Path for messages ("/iam/v2beta1/groups/…"); never the query, which may be long. */
  path: string;
  body?: string;
  /** Headers of the next send (the bearer token may change after a renewal). */
  headers(): Promise<Record<string, string>>;
  /** The error an answer of status >= 300 stands for. */
  errorOf(answer: HttpAnswer): ApiError;
  /** What the policy should also know about an error answer: can the token be renewed, did access just get created. */
  situation?(error: ApiError): Pick<Situation, "canRenewToken" | "parentJustCreated">;
  /** Called before the send that follows a renewal decision. */
  renewToken?(): void;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function expired(scope: CallScope, detail: string): DeadlineExceededError {
  return new DeadlineExceededError(scope.what, scope.budgetMs, detail);
}

/** The 2xx answer of `req`, or the error that ended the loop. Must run inside a call scope. */
export async function sendWithPolicy(options: SendLoopOptions, req: LoopRequest): Promise<HttpAnswer> {
  const scope = currentCall();
  if (!scope) throw new Error("sendWithPolicy runs inside a call scope (withCallDeadline)");
  const where = `${req.method} ${req.path}`;
  let lastFailure = "";
  let refusals = 0;
  for (let sends = 1; ; sends++) {
    const left = scope.deadline - scope.now();
    if (left <= 0) throw expired(scope, lastFailure ? `last: ${lastFailure}` : `before ${where} was sent`);
    const headers = await req.headers();
    // The time left is taken when the send starts: it may have waited for a slot.
    const sendOnce = () => {
      const remaining = scope.deadline - scope.now();
      return options.transport.send(
        { method: req.method, url: req.url, headers, body: req.body },
        {
          headersTimeoutMs: Math.max(1, Math.min(options.headersTimeoutMs ?? ATTEMPT_HEADERS_TIMEOUT_MS, remaining)),
          bodyIdleTimeoutMs: Math.max(1, Math.min(options.bodyIdleTimeoutMs ?? BODY_IDLE_TIMEOUT_MS, remaining)),
          maxBodyBytes: options.maxAnswerBytes ?? MAX_ANSWER_BYTES,
          // The transport's one timer ends the send at the deadline: no AbortController per send.
          deadlineMs: Math.max(1, remaining),
        },
      );
    };
    let outcome: Outcome;
    let failure: Error;
    try {
      const answer = await (options.slots ? options.slots.run(scope, where, sendOnce) : sendOnce());
      if (answer.status < 300) return answer;
      const error = req.errorOf(answer);
      failure = error;
      const retryAfter = retryAfterMs(answer.retryAfter, scope.now());
      outcome = { kind: "answered", httpStatus: answer.status, code: error.code, retryAfterMs: retryAfter };
      // The service limits the caller, not this request: every send of the client waits as long.
      if (retryAfter !== undefined && (answer.status === 429 || answer.status === 503) && !scope.pausesOnlyItself)
        options.slots?.pauseUntil(options.clock.now() + Math.min(retryAfter, MAX_RETRY_AFTER_MS));
    } catch (error) {
      if (!(error instanceof SendFailure)) throw error;
      if (error.code === "ABORTED") {
        const applied =
          req.method === "POST" ? "; the create was sent and may have been applied: check whether it exists" : "";
        throw expired(scope, `${where} was still waiting for its answer${applied}`);
      }
      if (!error.sent) {
        outcome = { kind: "unsent", cause: error.code };
        // Parsed only here: a URL parse on every send was a measurable part of a refresh.
        failure = new UnreachableError(new URL(req.url).origin, error.code);
      } else {
        outcome = { kind: "lost", cause: error.code };
        failure =
          req.method === "POST"
            ? new UnknownOutcomeError(req.method, req.path, error.code)
            : new ConnectionLostError(req.method, req.path, error.code, error.message, sends);
      }
    }
    if (asksToWait(outcome)) refusals++;
    const decision = decide(
      {
        method: req.method,
        sends,
        refusals,
        outcome,
        ...(failure instanceof ApiError ? req.situation?.(failure) : {}),
      },
      options.random,
    );
    if (!decision.retry || sends >= (scope.maxSends ?? Infinity)) throw failure;
    lastFailure = failure.message;
    if (decision.delayMs >= scope.deadline - scope.now()) {
      const asked =
        outcome.kind === "answered" && outcome.retryAfterMs !== undefined
          ? `the service asked to retry after ${seconds(outcome.retryAfterMs)} (Retry-After), past this call's deadline; last: `
          : "the next retry would start past this call's deadline; last: ";
      throw expired(scope, asked + failure.message);
    }
    if (decision.renewToken) req.renewToken?.();
    if (decision.delayMs > 0) await options.clock.sleep(decision.delayMs);
  }
}
