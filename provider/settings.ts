/**
 * Where the provider learns the API's address and its credentials. Three sources, first wins
 * per key: what the engine delivered to the provider through `configure` (the stack's
 * `platform:*` config), the program's own stack config (look-ups run in the program), and
 * the environment. Nothing here is ever captured into a serialized provider: values are
 * read at call time, so no token or machine-specific path reaches the state file.
 */
import * as pulumi from "@pulumi/pulumi";
import { SettingsError } from "./errors";
import { registerSecret } from "./messages";
import { uidIssue } from "./uid";

export type ApiVersion = "v2beta1" | "v2";

export interface Settings {
  apiUrl: string;
  authUrl: string;
  apiVersion: ApiVersion;
  token?: string;
  identity?: string;
  /** Where the OIDC token exchanged for `identity` comes from: exactly one of the three below. */
  identityTokenFile?: string;
  /** A literal OIDC token (GitLab's and other CI systems' job tokens). */
  identityToken?: string;
  /** GitHub Actions' OIDC token endpoint, from the job's environment (`id-token: write`). */
  githubActions?: { requestUrl: string; requestToken: string };
  /** Requests in flight from this process at most (provider/requestSlots.ts); its default when unset. */
  maxConcurrency?: number;
  /** false: every read is its own GET, never answered with others of its kind by one List (provider/readBatches.ts). */
  batchReads?: boolean;
}

/** The environment GitHub Actions gives a job with `permissions: id-token: write`. */
export const GITHUB_ACTIONS_ENV = {
  requestUrl: "ACTIONS_ID_TOKEN_REQUEST_URL",
  requestToken: "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
} as const;

export const SETTING_SOURCES = {
  apiUrl: { config: "platform:apiUrl", env: "PLATFORM_API_URL" },
  authUrl: { config: "platform:authUrl", env: "PLATFORM_AUTH_URL" },
  apiVersion: { config: "platform:apiVersion", env: "PLATFORM_API_VERSION" },
  token: { config: "platform:token", env: "PLATFORM_TOKEN" },
  identity: { config: "platform:identity", env: "PLATFORM_IDENTITY" },
  identityTokenFile: { config: "platform:identityTokenFile", env: "PLATFORM_IDENTITY_TOKEN_FILE" },
  identityToken: { config: "platform:identityToken", env: "PLATFORM_IDENTITY_TOKEN" },
  timeout: { config: "platform:timeout", env: "PLATFORM_TIMEOUT" },
  adopt: { config: "platform:adopt", env: "PLATFORM_ADOPT" },
  maxConcurrency: { config: "platform:maxConcurrency", env: "PLATFORM_MAX_CONCURRENCY" },
  batchReads: { config: "platform:batchReads", env: "PLATFORM_BATCH_READS" },
} as const;

type Key = keyof typeof SETTING_SOURCES;
const KEYS = Object.keys(SETTING_SOURCES) as Key[];

let configured: Partial<Record<Key, string>> = {};

/** What every provider module's `configure(req)` calls with `req.config`. */
export function configureFromPulumi(config: { get(key: string): string | undefined }): void {
  const next: Partial<Record<Key, string>> = {};
  for (const key of KEYS) {
    let value: string | undefined;
    try {
      value = config.get(SETTING_SOURCES[key].config);
    } catch {
      // The host's config throws when the engine never sent Configure; env still applies.
      value = undefined;
    }
    if (value !== undefined && value !== "") next[key] = value;
  }
  configured = next;
}

/** Forgets configured values (tests run several configurations in one process). */
export function resetConfigured(): void {
  configured = {};
}

/**
 * The program's own stack config, read once per question. runtime.allConfig, not Config.get: it
 * reads secrets without the SDK's "use getSecret" warning and never wraps them, since the value
 * only goes into an Authorization header. One parse of the stack config, where a getConfig per
 * key parsed it once per key, on every request.
 */
function programConfig(): Record<string, string> {
  try {
    return pulumi.runtime.allConfig();
  } catch {
    return {};
  }
}

function rawFrom(key: Key, program: Record<string, string>): { value: string; from: string } | undefined {
  const { config, env } = SETTING_SOURCES[key];
  const fromConfigure = configured[key];
  if (fromConfigure) return { value: fromConfigure, from: config };
  const fromProgram = program[config];
  if (fromProgram) return { value: fromProgram, from: config };
  const fromEnv = process.env[env];
  if (fromEnv) return { value: fromEnv, from: env };
  return undefined;
}

export function raw(key: Key): { value: string; from: string } | undefined {
  return rawFrom(key, programConfig());
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * A base URL setting, checked. A malformed value is never echoed (it may be a token pasted in
 * the wrong place): the message says what is wrong with it.
 */
function baseUrl(value: string, from: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new SettingsError(`${from}: is not a URL; expected for example https://api.example.com`);
  }
  if (url.username || url.password) {
    throw new SettingsError(
      `${from}: must not carry credentials (user:password@ in the URL); give the token with platform:token instead`,
    );
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) {
    const scheme = /^[a-z][a-z0-9+.-]{0,15}:$/.test(url.protocol) ? `${url.protocol}// is` : "this scheme is";
    throw new SettingsError(`${from}: ${scheme} refused; use https:// (plain http is only allowed for localhost)`);
  }
  if (url.search || url.hash) {
    throw new SettingsError(`${from}: the base URL must not carry a query or fragment`);
  }
  return url.toString().replace(/\/+$/, "");
}

/** The longest overall budget a call may be given: an hour; the shortest, a tenth of a second. */
export const MAX_TIMEOUT_SECONDS = 3600;
export const MIN_TIMEOUT_SECONDS = 0.1;

/**
 * platform:timeout / PLATFORM_TIMEOUT in milliseconds (the overall budget of one provider call
 * or look-up), undefined when not set; a SettingsError naming the setting when malformed.
 */
export function timeoutSetting(): number | undefined {
  const timeout = raw("timeout");
  if (!timeout) return undefined;
  const text = timeout.value.trim();
  const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(seconds >= MIN_TIMEOUT_SECONDS && seconds <= MAX_TIMEOUT_SECONDS)) {
    throw new SettingsError(
      `${timeout.from}: must be a number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS} (the overall time one provider call or look-up may take; default 120)`,
    );
  }
  return seconds * 1000;
}

/** What a resolution was made from: each key's source and value, then the Actions variables. */
type Sources = Array<string | undefined>;

let resolved: { sources: Sources; settings: Settings } | undefined;
const GITHUB_ACTIONS_ENV_NAMES = Object.values(GITHUB_ACTIONS_ENV);

function sourcesNow(program: Record<string, string>): Sources {
  const sources: Sources = [];
  for (const key of KEYS) {
    const value = rawFrom(key, program);
    sources.push(value?.from, value?.value);
  }
  for (const name of GITHUB_ACTIONS_ENV_NAMES) sources.push(process.env[name]);
  return sources;
}

/** Whether every source is as it was; compares in place (no text built: every request asks). */
function unchangedSince(sources: Sources, program: Record<string, string>): boolean {
  let at = 0;
  for (const key of KEYS) {
    const value = rawFrom(key, program);
    if (sources[at++] !== value?.from || sources[at++] !== value?.value) return false;
  }
  for (const name of GITHUB_ACTIONS_ENV_NAMES) if (sources[at++] !== process.env[name]) return false;
  return true;
}

/**
 * Resolves every setting now; throws a SettingsError naming the config key and environment variable.
 * Every API request asks, so the answer is reused (the same object) while the raw values are
 * unchanged: parsing and checking the URLs on each request was a measurable part of a refresh.
 */
export function resolveSettings(): Settings {
  const program = programConfig();
  if (resolved && unchangedSince(resolved.sources, program)) return resolved.settings;
  const sources = sourcesNow(program);
  const settings = resolveFresh();
  resolved = { sources, settings };
  return settings;
}

/**
 * Requests one process sends at once when platform:maxConcurrency is not set. The engine's
 * parallelism is four per CPU (64 on a 16-core runner); 16 requests in flight are 320 a second at
 * 50 ms each, more than the engine's own work per resource lets it use and more than a service
 * that limits its callers grants, while a drift check loses nothing to the bound: reads that wait
 * for it are answered together (provider/readBatches.ts). Each process also opens no more than 16
 * connections to the API.
 */
export const DEFAULT_MAX_CONCURRENCY = 16;
export const MAX_MAX_CONCURRENCY = 1024;

/** platform:maxConcurrency: a whole number of requests from 1 to MAX_MAX_CONCURRENCY, undefined when not set. */
function maxConcurrencySetting(): number | undefined {
  const given = raw("maxConcurrency");
  if (!given) return undefined;
  const text = given.value.trim();
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= MAX_MAX_CONCURRENCY))
    throw new SettingsError(
      `${given.from}: must be a whole number of requests from 1 to ${MAX_MAX_CONCURRENCY} (how many this process sends ` +
        `at once at most; default ${DEFAULT_MAX_CONCURRENCY})`,
    );
  return value;
}

/** platform:batchReads: true (the default) or false. */
function batchReadsSetting(): boolean | undefined {
  const given = raw("batchReads");
  if (!given) return undefined;
  const text = given.value.trim().toLowerCase();
  if (text !== "true" && text !== "false")
    throw new SettingsError(
      `${given.from}: must be true (the default: reads of one kind that overlap are answered together by one List) or false (one GET per read)`,
    );
  return text === "true";
}

function resolveFresh(): Settings {
  timeoutSetting();
  const maxConcurrency = maxConcurrencySetting();
  const batchReads = batchReadsSetting();
  const api = raw("apiUrl");
  if (!api) {
    const { config, env } = SETTING_SOURCES.apiUrl;
    throw new SettingsError(`${config} is not set: run \`pulumi config set ${config} https://…\` or set ${env}`);
  }
  const apiUrl = baseUrl(api.value, api.from);
  const auth = raw("authUrl");
  const authUrl = auth ? baseUrl(auth.value, auth.from) : apiUrl;

  const version = raw("apiVersion");
  if (version && version.value !== "v2beta1" && version.value !== "v2") {
    throw new SettingsError(`${version.from}: is not an API version; use v2beta1 (the default) or v2`);
  }
  const settings: Settings = { apiUrl, authUrl, apiVersion: (version?.value as ApiVersion | undefined) ?? "v2beta1" };
  if (maxConcurrency !== undefined) settings.maxConcurrency = maxConcurrency;
  if (batchReads !== undefined) settings.batchReads = batchReads;

  const identity = raw("identity");
  const tokenFile = raw("identityTokenFile");
  const literal = raw("identityToken");
  const token = raw("token");
  const actions = {
    requestUrl: process.env[GITHUB_ACTIONS_ENV.requestUrl],
    requestToken: process.env[GITHUB_ACTIONS_ENV.requestToken],
  };
  // Held by the process whether or not they are used: no message may show them.
  for (const secret of [token, literal]) if (secret) for (const part of secret.value.split(/\s+/)) registerSecret(part);
  registerSecret(actions.requestToken);
  // An assumed identity is the deliberate set-up of a pipeline, so it wins over a static token.
  if (identity) {
    const issue = uidIssue(identity.value, "path");
    if (issue) throw new SettingsError(`${identity.from}: is not an identity uid: it ${issue}`);
    settings.identity = identity.value;
    // The OIDC token to exchange, first found wins: a literal token, a token file, GitHub Actions.
    if (literal) {
      const value = literal.value.trim();
      if (/\s/.test(value) || value === "")
        throw new SettingsError(`${literal.from}: the OIDC token contains whitespace; paste the token alone`);
      settings.identityToken = value;
    } else if (tokenFile) {
      settings.identityTokenFile = tokenFile.value;
    } else if (actions.requestUrl && actions.requestToken) {
      settings.githubActions = { requestUrl: actions.requestUrl, requestToken: actions.requestToken };
    } else {
      throw new SettingsError(
        `${identity.from} is set but there is no OIDC token to exchange: set platform:identityToken (PLATFORM_IDENTITY_TOKEN, ` +
          "a secret) or platform:identityTokenFile (PLATFORM_IDENTITY_TOKEN_FILE), or run in GitHub Actions with " +
          "`permissions: id-token: write` (ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN)",
      );
    }
  } else if (token) {
    if (/\s/.test(token.value.trim()) || token.value.trim() === "") {
      throw new SettingsError(`${token.from}: the token contains whitespace; paste the token alone`);
    }
    settings.token = token.value.trim();
  } else if (tokenFile || literal) {
    throw new SettingsError(
      `${(tokenFile ?? literal)!.from} is set but platform:identity (PLATFORM_IDENTITY) is not: name the identity to assume`,
    );
  } else {
    throw new SettingsError(
      "no credentials: set platform:token (`pulumi config set --secret platform:token …`) or PLATFORM_TOKEN, " +
        "or assume an identity with platform:identity and platform:identityTokenFile (PLATFORM_IDENTITY, PLATFORM_IDENTITY_TOKEN_FILE)",
    );
  }
  return settings;
}
