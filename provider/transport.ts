/**
 * HTTP for the whole process: one undici Agent (a keep-alive pool per API host). A Transport
 * sends ONE request and reads its answer, within the limits it is given; it never repeats
 * anything (provider/retryPolicy.ts decides that, in the client's send loop). A failure is a
 * SendFailure that says whether anything may have reached the service.
 *
 * Limits of one send: the headers must arrive within `headersTimeoutMs`; the body may pause at
 * most `bodyIdleTimeoutMs` between chunks (an idle timeout, as undici's bodyTimeout); the whole
 * send ends when `signal` aborts (the call's deadline); an answer larger than `maxBodyBytes` is
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
  /** Aborts the send (the call's deadline). */
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

export function createTransport(options: { connections?: number } = {}): Transport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  const { Agent, request } = require("undici") as typeof import("undici");
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: options.connections ?? 64 });
  return {
    async send(req, limits) {
      // Our own timers, not undici's headersTimeout/bodyTimeout: those tick about once a
      // second, so a 20 ms limit would take a second, and tests could not state exact limits.
      const abort = new AbortController();
      let why: string | undefined;
      const stop = (code: string) => {
        why ??= code;
        abort.abort();
      };
      const onDeadline = () => stop("ABORTED");
      if (limits.signal?.aborted) onDeadline();
      limits.signal?.addEventListener("abort", onDeadline, { once: true });
      let timer = setTimeout(() => stop("UND_ERR_HEADERS_TIMEOUT"), limits.headersTimeoutMs);
      timer.unref?.();
      const failure = (error: unknown, reading: boolean) => {
        const code = why ?? causeOf(error);
        const text = TIMEOUT_TEXT[code] ?? code;
        return new SendFailure(
          code,
          reading || !NOTHING_SENT.has(code),
          reading ? `${text} while reading the answer` : text,
        );
      };
      try {
        let answer: Dispatcher.ResponseData;
        try {
          answer = await request(req.url, {
            method: req.method,
            headers: req.headers,
            body: req.body,
            dispatcher: agent,
            headersTimeout: 0,
            bodyTimeout: 0,
            signal: abort.signal,
          });
        } catch (error) {
          throw failure(error, false);
        }
        clearTimeout(timer);
        timer = setTimeout(() => stop("UND_ERR_BODY_TIMEOUT"), limits.bodyIdleTimeoutMs);
        timer.unref?.();
        const header = (name: string) => {
          const value = answer.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        const declared = Number(header("content-length"));
        if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
          answer.body.destroy();
          throw new AnswerTooLargeError(new URL(req.url).origin, limits.maxBodyBytes);
        }
        // Events rather than `for await`: an async iterator and a promise per chunk cost a
        // refresh of small answers more than the read itself (bench/README.md, figure 3).
        const body = answer.body;
        const text = await new Promise<string>((resolve, reject) => {
          const chunks: Buffer[] = [];
          let size = 0;
          body.on("data", (chunk: Buffer) => {
            timer.refresh();
            size += chunk.length;
            if (size > limits.maxBodyBytes) {
              body.destroy();
              reject(new AnswerTooLargeError(new URL(req.url).origin, limits.maxBodyBytes));
              return;
            }
            chunks.push(chunk);
          });
          body.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
          body.once("error", (error) => reject(failure(error, true)));
        });
        return {
          status: answer.statusCode,
          contentType: header("content-type") ?? "",
          text,
          retryAfter: header("retry-after"),
        };
      } finally {
        clearTimeout(timer);
        limits.signal?.removeEventListener("abort", onDeadline);
      }
    },
    close: () => agent.close(),
  };
}
