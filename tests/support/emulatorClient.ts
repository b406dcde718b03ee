/** A tiny HTTP client for the emulator's own tests: one call, status + parsed body + headers. */
import { RunningEmulator } from "../../emulator/types";

export interface Reply<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  query?: Record<string, string | number | string[]>;
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON tests). */
  rawBody?: string;
  /** Bearer token; defaults to the emulator's dev token; null sends no Authorization. */
  token?: string | null;
  headers?: Record<string, string>;
}

export async function call<T = any>(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply<T>> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  const qs = search.toString();
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const token = options.token === undefined ? emulator.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (options.rawBody !== undefined) payload = options.rawBody;
  else if (options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${emulator.url}${path}${qs ? `?${qs}` : ""}`, { method, headers, body: payload });
  const text = await response.text();
  let body: any = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** The @type-keyed details of a Status body. */
export function detail(
  body: { details?: Array<Record<string, any>> },
  type: "ErrorInfo" | "BadRequest" | "PreconditionFailure" | "ResourceInfo" | "RetryInfo",
): Record<string, any> | undefined {
  return body.details?.find((d) => d["@type"] === `type.googleapis.com/google.rpc.${type}`);
}

export const G = "/iam/v2beta1/groups";

/** One record made directly (out of band) with a POST, failing on an error answer: the record answered. */
export async function createdRecord<T = { uid: string }>(
  emulator: RunningEmulator,
  path: string,
  body: unknown,
): Promise<T & { uid: string }> {
  const answer = await call<T & { uid: string }>(emulator, "POST", path, { body });
  if (answer.status !== 200) throw new Error(`POST ${path}: ${answer.status} ${answer.text}`);
  return answer.body;
}
