/**
 * Where the OIDC token exchanged for an assumed identity comes from, asked afresh at every
 * exchange (CI tokens are short-lived), first configured wins:
 *
 * 1. a literal token: platform:identityToken / PLATFORM_IDENTITY_TOKEN (a secret), for GitLab
 *    (`id_tokens:`) and any CI that hands the job a token in a variable;
 * 2. a token file: platform:identityTokenFile / PLATFORM_IDENTITY_TOKEN_FILE, read at each
 *    exchange because CI systems rotate it;
 * 3. GitHub Actions: with `permissions: id-token: write` the job's environment holds
 *    ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN; the token is fetched from
 *    there, for the API's base URL as audience, at each exchange, so no workflow step writes it
 *    to a file and a run longer than the token's life gets a fresh one.
 */
import { readTokenFile } from "./auth";
import { ApiError, SettingsError, decodeErrorAnswer } from "../common/errors";
import { lazily } from "../common/lazyZod";
import { registerSecret } from "../common/messages";
import type { LoopRequest } from "./sendLoop";
import type { Settings } from "./settings";
import type { HttpAnswer } from "./transport";
import { parseJsonOrUndefined } from "../common/values";

/** Returns the OIDC token to exchange now. */
export type OidcTokenSource = () => Promise<string>;

const actionsAnswer = lazily((z) => z.looseObject({ value: z.string().min(1) }));

/** The job's OIDC token from GitHub Actions, with `audience`. */
export function githubActionsToken(
  endpoint: { requestUrl: string; requestToken: string },
  audience: string,
  send: (req: LoopRequest) => Promise<HttpAnswer>,
): OidcTokenSource {
  const where = "ACTIONS_ID_TOKEN_REQUEST_URL";
  return async () => {
    let url: URL;
    try {
      url = new URL(endpoint.requestUrl);
    } catch {
      throw new SettingsError(`${where}: is not a URL; is this a GitHub Actions job with \`id-token: write\`?`);
    }
    url.searchParams.set("audience", audience);
    let answer: HttpAnswer;
    try {
      answer = await send({
        method: "GET",
        url: url.toString(),
        path: url.pathname,
        headers: async () => ({ authorization: `bearer ${endpoint.requestToken}`, accept: "application/json" }),
        errorOf: (failed) =>
          decodeErrorAnswer({
            httpStatus: failed.status,
            contentType: failed.contentType,
            text: failed.text,
            method: "GET",
            path: url.pathname,
          }),
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new SettingsError(
        `fetching the GitHub Actions OIDC token failed (HTTP ${error.httpStatus}): does the job have \`permissions: id-token: write\`?`,
      );
    }
    const parsed = parseJsonOrUndefined(answer.text);
    const body = actionsAnswer().safeParse(parsed);
    if (!body.success) throw new SettingsError(`${where} did not answer with {value}: is it GitHub's token endpoint?`);
    registerSecret(body.data.value);
    return body.data.value;
  };
}

/** The OIDC token source the settings name (see the order above). */
export function oidcTokenSource(settings: Settings, send: (req: LoopRequest) => Promise<HttpAnswer>): OidcTokenSource {
  if (settings.identityToken !== undefined) {
    const token = settings.identityToken;
    registerSecret(token);
    return () => Promise.resolve(token);
  }
  if (settings.identityTokenFile !== undefined) {
    const file = settings.identityTokenFile;
    return () => readTokenFile(file);
  }
  if (settings.githubActions) return githubActionsToken(settings.githubActions, settings.apiUrl, send);
  throw new SettingsError("no OIDC token source for the assumed identity");
}
