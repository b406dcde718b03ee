/**
 * Where the bearer token of every request comes from: a static token, or an assumed identity
 * whose OIDC token is exchanged at `{authUrl}/sts/exchange` for an API token.
 *
 * An exchanged token lives an hour and a long `pulumi up` outlives it, so the token is held
 * for the process, shared by every concurrent call (one exchange in flight at a time), renewed
 * two minutes before it expires, and renewed once more when the service says it was
 * rejected. The OIDC token file is read at each exchange because CI systems rotate it.
 */
import { open } from "node:fs/promises";
import type { Clock } from "../common/clock";
import { ApiError, SettingsError, decodeErrorAnswer } from "../common/errors";
import { lazily } from "../common/lazyZod";
import { registerSecret } from "../common/messages";
import type { LoopRequest } from "./sendLoop";
import type { Settings } from "./settings";
import type { HttpAnswer } from "./transport";
import { parseJsonOrUndefined } from "../common/values";

export interface TokenSource {
  /** The token to send now. */
  current(): Promise<string>;
  /** The service rejected `token`; returns whether a different one may now be tried. */
  rejected(token: string): boolean;
  /** Exchanges performed so far (benchmarks check one per hour of work). */
  readonly exchanges: number;
}

export function staticToken(token: string): TokenSource {
  registerSecret(token);
  return { current: async () => token, rejected: () => false, exchanges: 0 };
}

/** An OIDC token is a few KB; a file far larger is not a token, and is not read whole. */
export const MAX_TOKEN_FILE_BYTES = 64 * 1024;

/** The token in `file`, trimmed; a SettingsError naming the setting when unreadable, empty or too large. */
export async function readTokenFile(file: string): Promise<string> {
  const setting = "platform:identityTokenFile (PLATFORM_IDENTITY_TOKEN_FILE)";
  let text: string;
  try {
    const handle = await open(file, "r");
    try {
      const size = (await handle.stat()).size;
      if (size > MAX_TOKEN_FILE_BYTES) {
        throw new SettingsError(
          `${setting}: ${file} holds ${size} bytes, more than the ${MAX_TOKEN_FILE_BYTES / 1024} KB an OIDC token can be; is it the token file?`,
        );
      }
      const buffer = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_TOKEN_FILE_BYTES)
        throw new SettingsError(
          `${setting}: ${file} holds more than ${MAX_TOKEN_FILE_BYTES / 1024} KB; is it the token file?`,
        );
      text = buffer.subarray(0, bytesRead).toString("utf8").trim();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof SettingsError) throw error;
    const code = (error as { code?: string }).code ?? "error";
    throw new SettingsError(`${setting}: cannot read ${file} (${code})`);
  }
  if (!text) throw new SettingsError(`${setting}: ${file} is empty`);
  registerSecret(text);
  return text;
}

const exchangeAnswer = lazily((z) =>
  z.looseObject({
    token: z.string().min(1),
    expiry: z.string().optional(),
    refreshToken: z.string().optional(),
  }),
);

const ASSUMED_LIFETIME_MS = 60 * 60 * 1000;
// Renewed shortly before expiry, so each exchanged token serves (almost) its whole hour: renewing
// at 80% made 1.25 exchanges per hour of work (bench/requests.ts). Two minutes cover requests in
// flight and modest clock skew; a larger skew still ends in one 401, one exchange, one retry.
const RENEW_MARGIN_MS = 2 * 60 * 1000;
const MAX_RENEW_MARGIN_FRACTION = 0.1;

export function exchangedToken(
  settings: Required<Pick<Settings, "apiUrl" | "authUrl" | "identity">>,
  oidcToken: () => Promise<string>,
  send: (req: LoopRequest) => Promise<HttpAnswer>,
  clock: Pick<Clock, "now">,
): TokenSource {
  const now = () => clock.now();
  let held: { token: string; renewAt: number } | undefined;
  let inFlight: Promise<string> | undefined;
  let exchanges = 0;

  async function exchange(): Promise<string> {
    const oidc = await oidcToken();
    const query = new URLSearchParams({ aud: settings.apiUrl, identity: settings.identity });
    const path = "/sts/exchange";
    const url = `${settings.authUrl}${path}?${query.toString()}`;
    const started = now();
    exchanges += 1;
    let answer: HttpAnswer;
    try {
      answer = await send({
        method: "GET",
        url,
        path,
        headers: async () => ({ authorization: `Bearer ${oidc}`, accept: "application/json" }),
        errorOf: (failed) =>
          decodeErrorAnswer({
            httpStatus: failed.status,
            contentType: failed.contentType,
            text: failed.text,
            method: "GET",
            path,
            url,
          }),
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new ApiError({
        code: error.code,
        httpStatus: error.httpStatus,
        method: "GET",
        path,
        url,
        reason: error.reason,
        serviceMessage: `exchanging the OIDC token for identity "${settings.identity}" failed: ${error.serviceMessage}`,
      });
    }
    const parsed = parseJsonOrUndefined(answer.text);
    const body = exchangeAnswer().safeParse(parsed);
    if (!body.success) {
      throw new SettingsError(
        `platform:authUrl: ${settings.authUrl}${path} did not answer with {token}; is it the service's auth URL?`,
      );
    }
    // Trust the service's expiry only as a lifetime measured on our clock, so skew cannot
    // make a fresh token look expired (that would exchange on every call).
    const expiresAt = body.data.expiry ? Date.parse(body.data.expiry) : NaN;
    const lifetime =
      Number.isFinite(expiresAt) && expiresAt > started
        ? Math.min(expiresAt - started, ASSUMED_LIFETIME_MS)
        : ASSUMED_LIFETIME_MS;
    registerSecret(body.data.token);
    registerSecret(body.data.refreshToken);
    held = {
      token: body.data.token,
      renewAt: started + lifetime - Math.min(RENEW_MARGIN_MS, lifetime * MAX_RENEW_MARGIN_FRACTION),
    };
    return body.data.token;
  }

  return {
    get exchanges() {
      return exchanges;
    },
    current() {
      if (held && now() < held.renewAt) return Promise.resolve(held.token);
      inFlight ??= exchange().finally(() => (inFlight = undefined));
      return inFlight;
    },
    rejected(token) {
      // Only the first caller holding the rejected token forces a renewal; the others see the new one.
      if (held?.token === token) held = undefined;
      return true;
    },
  };
}
