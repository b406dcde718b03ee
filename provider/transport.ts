/**
 * HTTP for the whole process: one undici Agent (a keep-alive pool per API host) behind
 * undici's RetryAgent, with our own policy deciding what may be sent again.
 *
 * The policy follows what a request may have done before it failed:
 * - An answer of 429 / 503 means the service did nothing: any method is sent again
 *   (Retry-After honoured). 500 / 502 / 504 may hide an applied write: only methods that are
 *   safe to repeat (GET, PATCH with its fixed values, DELETE) are sent again.
 * - A connection that was refused or never resolved sent nothing: retried a little for every
 *   method, since it is usually a wrong URL and the user should hear so quickly.
 * - A connection lost after sending: repeated for GET / PATCH / DELETE; a POST is NOT
 *   repeated here — the caller gets UnknownOutcomeError and looks for the record first.
 */
// Types only: undici is loaded by createTransport, when the first API client is built. Loading it
// costs a program ~65 ms (110 files), about half of what `require("platform-pulumi")` took, and
// most programs import the package long before (or without) calling the API.
import type { Dispatcher, RetryHandler } from "undici";
import { UnknownOutcomeError, UnreachableError } from "./errors";

export interface TransportOptions {
  /**
   * Retries after the first attempt; default 8, so a request through a network failing one time in
   * five gives up once in two million (at most ~14 s of backoff).
   */
  maxRetries?: number;
  /** First backoff; doubles each retry, with jitter, up to maxDelayMs. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** How long to wait for an answer's headers (and between body chunks). */
  timeoutMs?: number;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
}

const ANSWERED_NOTHING_DONE = new Set([429, 503]);
const ANSWERED_MAYBE_DONE = new Set([500, 502, 504]);
const NOTHING_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
  "EHOSTDOWN",
]);
const LOST_AFTER_SENDING = new Set([
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
]);
const REPEATABLE = new Set(["GET", "HEAD", "PATCH", "DELETE", "PUT"]);
const MAX_UNREACHABLE_RETRIES = 2;
const MAX_SEND_ROUNDS = 3;
// The service's own Retry-After is obeyed, up to a minute, whatever the backoff settings.
const MAX_RETRY_AFTER_MS = 60_000;

function retryPolicy(options: Required<Omit<TransportOptions, "timeoutMs">>): RetryHandler.RetryCallback {
  return (error, { state, opts }, next) => {
    const failure = error as Error & {
      statusCode?: number;
      code?: string;
      headers?: Record<string, string | string[] | undefined>;
    };
    const method = String(opts.method).toUpperCase();
    const attempt = state.counter;
    let allowed: boolean;
    let limit = options.maxRetries;
    if (failure.statusCode !== undefined && failure.code === "UND_ERR_REQ_RETRY") {
      allowed =
        ANSWERED_NOTHING_DONE.has(failure.statusCode) ||
        (ANSWERED_MAYBE_DONE.has(failure.statusCode) && REPEATABLE.has(method));
    } else if (failure.code && NOTHING_SENT.has(failure.code)) {
      allowed = true;
      limit = Math.min(limit, MAX_UNREACHABLE_RETRIES);
    } else if (failure.code && LOST_AFTER_SENDING.has(failure.code)) {
      allowed = REPEATABLE.has(method);
    } else {
      allowed = false;
    }
    if (!allowed || attempt > limit) return next(error);
    const retryAfter = retryAfterMs(failure.headers?.["retry-after"]);
    const backoff = Math.min(options.maxDelayMs, options.minDelayMs * 2 ** (attempt - 1));
    // Full jitter spreads the retries of many parallel creates instead of stampeding together.
    const delay =
      retryAfter !== undefined ? Math.min(retryAfter, MAX_RETRY_AFTER_MS) : backoff / 2 + Math.random() * (backoff / 2);
    setTimeout(() => next(null), delay);
  };
}

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export interface Transport {
  send(req: {
    method: Dispatcher.HttpMethod;
    url: string;
    headers: Record<string, string>;
    body?: string;
  }): Promise<HttpAnswer>;
  close(): Promise<void>;
}

export function createTransport(options: TransportOptions = {}): Transport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  const { Agent, RetryAgent, request } = require("undici") as typeof import("undici");
  const timeoutMs = options.timeoutMs ?? 30_000;
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    connections: 64,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const dispatcher = new RetryAgent(agent, {
    throwOnError: false,
    retry: retryPolicy({
      maxRetries: options.maxRetries ?? 8,
      minDelayMs: options.minDelayMs ?? 100,
      maxDelayMs: options.maxDelayMs ?? 4_000,
    }),
    // The policy decides; these lists only let every candidate reach it.
    methods: ["GET", "HEAD", "POST", "PATCH", "DELETE", "PUT"],
    statusCodes: [...ANSWERED_NOTHING_DONE, ...ANSWERED_MAYBE_DONE],
    errorCodes: [...NOTHING_SENT, ...LOST_AFTER_SENDING],
  });
  return {
    async send({ method, url, headers, body }) {
      for (let round = 1; ; round++) {
        try {
          const answer = await request(url, { method, headers, body, dispatcher });
          const text = await answer.body.text();
          const contentType = answer.headers["content-type"];
          return {
            status: answer.statusCode,
            contentType: Array.isArray(contentType) ? contentType[0] : (contentType ?? ""),
            text,
          };
        } catch (error) {
          const code = (error as { code?: string }).code ?? "";
          const target = new URL(url);
          if (NOTHING_SENT.has(code)) throw new UnreachableError(target.origin, code);
          if (!LOST_AFTER_SENDING.has(code)) throw error;
          if (method === "POST") throw new UnknownOutcomeError(method, target.pathname, code);
          // RetryHandler hands some socket errors straight through without asking the policy
          // (a connection it already counts as aborted, a body cut after its headers), so a
          // repeatable request gets a few more rounds here, each with the policy's full budget.
          if (round >= MAX_SEND_ROUNDS) {
            throw new Error(
              `${method} ${target.pathname}: the connection kept failing (${code}) through every retry; run again later`,
            );
          }
        }
      }
    },
    close: () => dispatcher.close(),
  };
}
