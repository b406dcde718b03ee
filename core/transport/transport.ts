/**
 * HTTP for the whole process: one undici Agent (a keep-alive pool per API host). A Transport
 * sends ONE request and reads its answer, within the limits it is given; it never repeats
 * anything (core/transport/retryPolicy.ts decides that, in the client's send loop). A failure is a
 * SendFailure that says whether anything may have reached the service.
 *
 * Limits of one send: the headers must arrive within `headersTimeoutMs`; the body may pause at
 * most `bodyIdleTimeoutMs` between chunks (an idle timeout, as undici's bodyTimeout); the whole
 * send ends at `deadlineMs` (the call's deadline) or when `signal` aborts; an answer larger than `maxBodyBytes` is
 * refused, its connection dropped.
 */
// Types only: undici (110 files) loads with the first API client (createTransport), so a program
// that imports the package pays for it only when it calls the API.
import type { Dispatcher } from "undici";
import { Clock, Timer, systemClock } from "../common/clock";

export interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The Retry-After header, if any. */
  retryAfter?: string;
}

export interface SendLimits {
  headersTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  maxBodyBytes: number;
  /** Milliseconds from now at which the send ends, whatever it is doing (the call's deadline). */
  deadlineMs?: number;
  /** Aborts the send. */
  signal?: AbortSignal;
}

export interface HttpRequest {
  method: Dispatcher.HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Transport {
  send(req: HttpRequest, limits: SendLimits): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** Connection never made: nothing reached the service. */
const NOTHING_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
  "EHOSTDOWN",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** One send failed without an answer. `sent`: the request may have reached the service. */
export class SendFailure extends Error {
  constructor(
    readonly code: string,
    readonly sent: boolean,
    message: string,
  ) {
    super(message);
    this.name = "SendFailure";
  }
}

/** The answer is larger than the client accepts; the connection was dropped. */
export class AnswerTooLargeError extends Error {
  constructor(
    readonly url: string,
    readonly limitBytes: number,
  ) {
    super(
      `the answer from ${url} is larger than ${Math.round(limitBytes / (1024 * 1024))} MB, more than any API answer; ` +
        "it was refused: check platform:apiUrl and what sits between here and the API",
    );
    this.name = "AnswerTooLargeError";
  }
}

function causeOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
    if ((current as { name?: unknown }).name === "AbortError") return "ABORTED";
    current = (current as { cause?: unknown }).cause;
  }
  return (error as { name?: string })?.name ?? "ERROR";
}

const TIMEOUT_TEXT: Record<string, string> = {
  UND_ERR_HEADERS_TIMEOUT: "no answer headers in time",
  UND_ERR_BODY_TIMEOUT: "the answer's body stalled",
  ABORTED: "the call's deadline passed",
};

/** The three answer headers the client reads, from undici's raw [name, value, ...] list. */
function answerHeaders(raw: Buffer[] | string[] | null): {
  contentType: string;
  contentLength?: string;
  retryAfter?: string;
} {
  const found: { contentType: string; contentLength?: string; retryAfter?: string } = { contentType: "" };
  if (!raw) return found;
  let contentType: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    // Only names of the right length are decoded: most headers are skipped without a string.
    if (name.length !== 12 && name.length !== 14 && name.length !== 11) continue;
    const lower = name.toString("latin1").toLowerCase();
    if (lower === "content-type") contentType ??= raw[i + 1].toString("latin1");
    else if (lower === "content-length") found.contentLength ??= raw[i + 1].toString("latin1");
    else if (lower === "retry-after") found.retryAfter ??= raw[i + 1].toString("latin1");
  }
  found.contentType = contentType ?? "";
  return found;
}

/**
 * One send, and undici's handler for it: undici's `dispatch` with a handler of our own, not
 * `request`: no AbortController, no async resource, no body stream, and one timer per send for
 * the header timeout, the body's idle timeout and the deadline together. Those were a measurable
 * part of a refresh (bench/README.md, figure 3), where every answer is one small chunk. Our own
 * timer, not undici's headersTimeout/bodyTimeout: those tick about once a second, so a 20 ms
 * limit would take a second, and tests could not state exact limits. A class, not closures: the
 * SDK's closure serializer walks this module when a provider is serialized from outside
 * node_modules, and it could not follow closures that call each other.
 */
class OneSend implements Dispatcher.DispatchHandler {
  private readonly started: number;
  private readonly deadlineAt: number;
  private abortRequest: ((reason: Error) => void) | undefined;
  private why: string | undefined;
  private settled = false;
  private reading = false;
  private lastActivity: number;
  private status = 0;
  private contentType = "";
  private retryAfter: string | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private timer: Timer | undefined;
  /** The limit the timer was armed for, and the activity it was armed from (body phase). */
  private armedCode = "";
  private armedFrom = 0;
  private readonly onSignal = () => this.stop("ABORTED");

  constructor(
    private readonly url: string,
    private readonly limits: SendLimits,
    private readonly resolve: (answer: HttpAnswer) => void,
    private readonly reject: (error: Error) => void,
    private readonly clock: Clock,
  ) {
    this.started = this.lastActivity = clock.now();
    this.deadlineAt = limits.deadlineMs === undefined ? Infinity : this.started + Math.max(1, limits.deadlineMs);
  }

  begin(): boolean {
    if (this.limits.signal?.aborted) {
      this.stop("ABORTED");
      return false;
    }
    this.limits.signal?.addEventListener("abort", this.onSignal, { once: true });
    this.arm();
    return true;
  }

  failure(error: unknown): SendFailure {
    const code = this.why ?? causeOf(error);
    const text = TIMEOUT_TEXT[code] ?? code;
    return new SendFailure(
      code,
      this.reading || !NOTHING_SENT.has(code),
      this.reading ? `${text} while reading the answer` : text,
    );
  }

  private finish(error: Error | undefined, value?: HttpAnswer): void {
    if (this.settled) return;
    this.settled = true;
    this.timer?.cancel();
    this.limits.signal?.removeEventListener("abort", this.onSignal);
    if (error) this.reject(error);
    else this.resolve(value!);
  }

  /** Ends the send: the request is aborted now, or as soon as undici hands it a socket. */
  private stop(code: string, error?: Error): void {
    if (this.settled) return;
    this.why ??= code;
    const reason = error ?? this.failure(undefined);
    this.finish(reason);
    this.abortRequest?.(reason);
  }

  private arm(): void {
    const { limits } = this;
    const limitAt = this.reading
      ? this.lastActivity + limits.bodyIdleTimeoutMs
      : this.started + limits.headersTimeoutMs;
    this.armedCode =
      limitAt < this.deadlineAt ? (this.reading ? "UND_ERR_BODY_TIMEOUT" : "UND_ERR_HEADERS_TIMEOUT") : "ABORTED";
    this.armedFrom = this.lastActivity;
    this.timer?.cancel();
    this.timer = this.clock.timer(Math.max(1, Math.min(limitAt, this.deadlineAt) - this.clock.now()), () =>
      this.onTimer(),
    );
  }

  private onTimer(): void {
    // A chunk came since the timer was armed: the idle limit moves with it.
    if (this.armedCode === "UND_ERR_BODY_TIMEOUT" && this.armedFrom !== this.lastActivity) this.arm();
    else this.stop(this.armedCode);
  }

  private tooLarge(): boolean {
    this.stop("TOO_LARGE", new AnswerTooLargeError(new URL(this.url).origin, this.limits.maxBodyBytes));
    return false;
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abortRequest = abort;
    if (this.settled) abort(new Error(this.why ?? "aborted"));
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[] | string[] | null): boolean {
    if (this.settled) return false;
    if (statusCode < 200) return true; // 1xx: the answer is still to come
    const headers = answerHeaders(rawHeaders);
    const declared = Number(headers.contentLength);
    if (Number.isFinite(declared) && declared > this.limits.maxBodyBytes) return this.tooLarge();
    this.status = statusCode;
    this.contentType = headers.contentType;
    this.retryAfter = headers.retryAfter;
    this.reading = true;
    this.lastActivity = this.clock.now();
    // The body phase has its own limit: re-armed only if it is sooner than the one set.
    if (this.lastActivity + this.limits.bodyIdleTimeoutMs < this.started + this.limits.headersTimeoutMs) this.arm();
    else if (this.armedCode === "UND_ERR_HEADERS_TIMEOUT") this.armedCode = "UND_ERR_BODY_TIMEOUT";
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    this.size += chunk.length;
    if (this.size > this.limits.maxBodyBytes) return this.tooLarge();
    this.lastActivity = this.clock.now();
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    const { chunks } = this;
    const text = chunks.length === 1 ? chunks[0].toString("utf8") : Buffer.concat(chunks).toString("utf8");
    this.finish(undefined, { status: this.status, contentType: this.contentType, text, retryAfter: this.retryAfter });
  }

  onError(error: Error): void {
    this.finish(this.failure(error));
  }
}

/** `clock` keeps each send's limits: the system's, or a test's that it moves on itself. */
export function createTransport(options: { connections?: number; clock?: Clock } = {}): Transport {
  const clock = options.clock ?? systemClock;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  const { Agent } = require("undici") as typeof import("undici");
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: options.connections ?? 64 });
  return {
    send: (req, limits) =>
      new Promise<HttpAnswer>((resolve, reject) => {
        const send = new OneSend(req.url, limits, resolve, reject, clock);
        if (!send.begin()) return;
        // The origin ends at the first slash after the scheme: no URL parse per send.
        const slash = req.url.indexOf("/", req.url.indexOf("//") + 2);
        try {
          agent.dispatch(
            {
              origin: slash < 0 ? req.url : req.url.slice(0, slash),
              path: slash < 0 ? "/" : req.url.slice(slash),
              method: req.method,
              headers: req.headers,
              body: req.body,
            },
            send,
          );
        } catch (error) {
          send.onError(error as Error);
        }
      }),
    close: () => agent.close(),
  };
}
