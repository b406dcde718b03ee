/**
 * HTTP for the whole process: one undici Agent (a keep-alive pool per API host). A Transport
 * sends ONE request and reads its answer, within the limits it is given; it never repeats
 * anything (provider/retryPolicy.ts decides that, in the client's send loop). A failure is a
 * SendFailure that says whether anything may have reached the service.
 *
 * Limits of one send: the headers must arrive within `headersTimeoutMs`; the body may pause at
 * most `bodyIdleTimeoutMs` between chunks (an idle timeout, as undici's bodyTimeout); the whole
 * send ends at `deadlineMs` (the call's deadline) or when `signal` aborts; an answer larger than `maxBodyBytes` is
 * refused, its connection dropped.
 */
// Types only: undici is loaded by createTransport, when the first API client is built. Loading it
// costs a program ~65 ms (110 files), about half of what `require("platform-pulumi")` took, and
// most programs import the package long before (or without) calling the API.
import type { Dispatcher } from "undici";

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

export function createTransport(options: { connections?: number } = {}): Transport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  const { Agent } = require("undici") as typeof import("undici");
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: options.connections ?? 64 });
  return {
    send: (req, limits) =>
      new Promise<HttpAnswer>((resolve, reject) => {
        // undici's dispatch with a handler of our own, not `request`: no AbortController, no
        // async resource, no body stream and one timer per send. Those were a measurable part of a
        // refresh (bench/README.md, figure 3), where every answer is one small chunk.
        // Our own timer, not undici's headersTimeout/bodyTimeout: those tick about once a second,
        // so a 20 ms limit would take a second, and tests could not state exact limits.
        const started = performance.now();
        const deadlineAt = limits.deadlineMs === undefined ? Infinity : started + Math.max(1, limits.deadlineMs);
        let abortRequest: ((reason: Error) => void) | undefined;
        let why: string | undefined;
        let settled = false;
        let reading = false;
        let lastActivity = started;
        let answer: { status: number; contentType: string; retryAfter?: string } | undefined;
        const chunks: Buffer[] = [];
        let size = 0;
        let timer: NodeJS.Timeout | undefined;
        // The limit the timer was armed for and the activity it was armed from (body phase).
        let armedCode = "";
        let armedFrom = 0;

        const failure = (error: unknown) => {
          const code = why ?? causeOf(error);
          const text = TIMEOUT_TEXT[code] ?? code;
          return new SendFailure(
            code,
            reading || !NOTHING_SENT.has(code),
            reading ? `${text} while reading the answer` : text,
          );
        };
        const finish = (error: Error | undefined, value?: HttpAnswer) => {
          if (settled) return;
          settled = true;
          if (timer) clearTimeout(timer);
          limits.signal?.removeEventListener("abort", onSignal);
          if (error) reject(error);
          else resolve(value!);
        };
        // Ends the send: the request is aborted (now, or as soon as undici hands it the socket).
        const stop = (code: string, error?: Error) => {
          if (settled) return;
          why ??= code;
          const reason = error ?? failure(undefined);
          finish(reason);
          abortRequest?.(reason);
        };
        const onSignal = () => stop("ABORTED");
        const arm = () => {
          const limitAt = reading ? lastActivity + limits.bodyIdleTimeoutMs : started + limits.headersTimeoutMs;
          armedCode = limitAt < deadlineAt ? (reading ? "UND_ERR_BODY_TIMEOUT" : "UND_ERR_HEADERS_TIMEOUT") : "ABORTED";
          armedFrom = lastActivity;
          if (timer) clearTimeout(timer);
          timer = setTimeout(onTimer, Math.max(1, Math.min(limitAt, deadlineAt) - performance.now()));
          timer.unref();
        };
        function onTimer() {
          // A chunk came since the timer was armed: the idle limit moves with it.
          if (armedCode === "UND_ERR_BODY_TIMEOUT" && armedFrom !== lastActivity) arm();
          else stop(armedCode);
        }

        if (limits.signal?.aborted) return stop("ABORTED");
        limits.signal?.addEventListener("abort", onSignal, { once: true });
        arm();
        try {
          // The origin ends at the first slash after the scheme: no URL parse per send.
          const slash = req.url.indexOf("/", req.url.indexOf("//") + 2);
          agent.dispatch(
            {
              origin: slash < 0 ? req.url : req.url.slice(0, slash),
              path: slash < 0 ? "/" : req.url.slice(slash),
              method: req.method,
              headers: req.headers,
              body: req.body,
            },
            {
              onConnect(abort) {
                abortRequest = abort;
                if (settled) abort(new Error(why ?? "aborted"));
              },
              onHeaders(statusCode, rawHeaders) {
                if (settled) return false;
                if (statusCode < 200) return true; // 1xx: the answer is still to come
                const headers = answerHeaders(rawHeaders);
                const declared = Number(headers.contentLength);
                if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
                  stop("TOO_LARGE", new AnswerTooLargeError(new URL(req.url).origin, limits.maxBodyBytes));
                  return false;
                }
                answer = { status: statusCode, contentType: headers.contentType, retryAfter: headers.retryAfter };
                reading = true;
                lastActivity = performance.now();
                // The body phase has its own limit: re-armed only if it is sooner than the one set.
                if (lastActivity + limits.bodyIdleTimeoutMs < started + limits.headersTimeoutMs) arm();
                else if (armedCode === "UND_ERR_HEADERS_TIMEOUT") armedCode = "UND_ERR_BODY_TIMEOUT";
                return true;
              },
              onData(chunk) {
                if (settled) return false;
                size += chunk.length;
                if (size > limits.maxBodyBytes) {
                  stop("TOO_LARGE", new AnswerTooLargeError(new URL(req.url).origin, limits.maxBodyBytes));
                  return false;
                }
                lastActivity = performance.now();
                chunks.push(chunk);
                return true;
              },
              onComplete() {
                const text = chunks.length === 1 ? chunks[0].toString("utf8") : Buffer.concat(chunks).toString("utf8");
                finish(undefined, {
                  status: answer!.status,
                  contentType: answer!.contentType,
                  text,
                  retryAfter: answer!.retryAfter,
                });
              },
              onError(error) {
                finish(failure(error));
              },
            },
          );
        } catch (error) {
          finish(failure(error));
        }
      }),
    close: () => agent.close(),
  };
}
