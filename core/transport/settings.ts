/**
 * Where the provider learns the API's address and its credentials. Three sources, first wins
 * per key: what the engine delivered to the provider through `configure` (the stack's
 * `platform:*` config), the program's own stack config (look-ups run in the program), and
 * the environment. Each provider holds its settings as a value (ProviderSettings) and runs its
 * calls on them (withSettings); values are read when asked, never captured into a serialized
 * provider, so no token or machine-specific path reaches the state file.
 *
 * Every setting is one row of SETTINGS: its key, environment variable, default, the rule its
 * value keeps and a sentence of docs. The rules are checked when the engine configures the
 * provider (settingsIssues: CheckConfig and Configure refuse), and again whenever settings are
 * resolved for a request; the docs and the native provider's schema are written from the table.
 */
import { AsyncLocalStorage } from "node:async_hooks";
// The config module alone: the whole SDK costs a CLI command (drift, export) 80 MB and half a second.
import { allConfig } from "@pulumi/pulumi/runtime/config";
import { SettingsError } from "../common/errors";
import { registerSecret } from "../common/messages";
import { uidIssue } from "../common/uid";
import { UNKNOWN } from "../common/values";

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
  /** Requests in flight from this process at most (core/transport/requestSlots.ts); its default when unset. */
  maxConcurrency?: number;
  /** false: every read is its own GET, never answered with others of its kind by one List (runtime/readBatches.ts). */
  batchReads?: boolean;
}

/** The environment GitHub Actions gives a job with `permissions: id-token: write`. */
export const GITHUB_ACTIONS_ENV = {
  requestUrl: "ACTIONS_ID_TOKEN_REQUEST_URL",
  requestToken: "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
} as const;

/** The longest overall budget a call may be given: an hour; the shortest, a tenth of a second. */
export const MAX_TIMEOUT_SECONDS = 3600;
export const MIN_TIMEOUT_SECONDS = 0.1;

/**
 * Requests one process sends at once when platform:maxConcurrency is not set. The engine's
 * parallelism is four per CPU (64 on a 16-core runner); 16 requests in flight are 320 a second at
 * 50 ms each, more than a service that limits its callers grants, while a drift check loses
 * nothing to the bound: reads that wait for it are answered together (core/runtime/readBatches.ts).
 * Each process also opens no more than 16 connections to the API.
 */
export const DEFAULT_MAX_CONCURRENCY = 16;
export const MAX_MAX_CONCURRENCY = 1024;

/** The value the engine sends for an input not yet known (a preview): nothing to check yet. */
const UNKNOWN_INPUT: string = UNKNOWN;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Why a base URL breaks its rule, said without echoing it (it may be a token pasted in the wrong place). */
function urlIssue(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return "is not a URL; expected for example https://api.example.com";
  }
  if (url.username || url.password)
    return "must not carry credentials (user:password@ in the URL); give the token with platform:token instead";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) {
    const scheme = /^[a-z][a-z0-9+.-]{0,15}:$/.test(url.protocol) ? `${url.protocol}// is` : "this scheme is";
    return `${scheme} refused; use https:// (plain http is only allowed for localhost)`;
  }
  if (url.search || url.hash) return "the base URL must not carry a query or fragment";
  return undefined;
}

const tokenIssue = (what: string) => (value: string) =>
  /\s/.test(value.trim()) || value.trim() === "" ? `the ${what} contains whitespace; paste the token alone` : undefined;

/** The seconds a timeout setting holds, or NaN when it is not a plain decimal number. */
const secondsOf = (value: string) => {
  const text = value.trim();
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
};

/**
 * One setting of the provider: the config key and environment variable it is read from, its
 * default, the rule its value keeps (in words, and as the check that says why a value breaks
 * it, never echoing the value) and a sentence of docs. A setting added here is read, checked at
 * configure, listed in the native provider's schema and documented with the others.
 */
export interface SettingSpec {
  /** The stack config key: `platform:<name>`. */
  readonly config: string;
  /** The environment variable read when the config key is not set. */
  readonly env: string;
  /**
   * What holds when neither is set, in words; undefined when nothing does (the setting is off, or
   * required). Not named `default`: Pulumi's closure serializer (a dynamic provider serialized
   * from outside node_modules) takes an object whose `default` is a string for a module wrapper.
   */
  readonly defaultValue?: string;
  /** The rule a value keeps, in words (the reference and the schema say it). */
  readonly rule: string;
  /** Why `value` breaks the rule (no value echoed), or undefined when it keeps it. */
  readonly check: (value: string) => string | undefined;
  /** A Pulumi secret: set it with `pulumi config set --secret`. */
  readonly secret?: boolean;
  /** What the setting does, in a sentence. */
  readonly doc: string;
}

/** The settings table, in the order the docs list them. */
export const SETTINGS = {
  apiUrl: {
    config: "platform:apiUrl",
    env: "PLATFORM_API_URL",
    rule: "an https:// URL (plain http:// only for localhost), with no user or password, query or fragment",
    check: urlIssue,
    doc: "The base URL of the API; required.",
  },
  authUrl: {
    config: "platform:authUrl",
    env: "PLATFORM_AUTH_URL",
    defaultValue: "platform:apiUrl",
    rule: "an https:// URL (plain http:// only for localhost), with no user or password, query or fragment",
    check: urlIssue,
    doc: "Where `/sts/exchange` lives, for an assumed identity.",
  },
  apiVersion: {
    config: "platform:apiVersion",
    env: "PLATFORM_API_VERSION",
    defaultValue: "v2beta1",
    rule: "v2beta1 or v2",
    check: (value) =>
      value === "v2beta1" || value === "v2" ? undefined : "is not an API version; use v2beta1 (the default) or v2",
    doc: "The API version of the request paths: `v2beta1`, or `v2` for the GA paths.",
  },
  token: {
    config: "platform:token",
    env: "PLATFORM_TOKEN",
    rule: "the token alone, without whitespace",
    check: tokenIssue("token"),
    secret: true,
    doc: "A static API token.",
  },
  identity: {
    config: "platform:identity",
    env: "PLATFORM_IDENTITY",
    rule: "an identity's uid",
    check: (value) => {
      const issue = uidIssue(value, "path");
      return issue ? `is not an identity uid: it ${issue}` : undefined;
    },
    doc: "The uid of an identity to assume with an OIDC token; wins over `platform:token`.",
  },
  identityToken: {
    config: "platform:identityToken",
    env: "PLATFORM_IDENTITY_TOKEN",
    rule: "the OIDC token alone, without whitespace",
    check: tokenIssue("OIDC token"),
    secret: true,
    doc: "An OIDC token exchanged for `platform:identity` (GitLab's `id_tokens`, any CI's job token).",
  },
  identityTokenFile: {
    config: "platform:identityTokenFile",
    env: "PLATFORM_IDENTITY_TOKEN_FILE",
    rule: "the path of a file holding the OIDC token (at most 64 KB), read at each exchange",
    check: () => undefined,
    doc: "A file holding the OIDC token exchanged for `platform:identity`.",
  },
  timeout: {
    config: "platform:timeout",
    env: "PLATFORM_TIMEOUT",
    defaultValue: "120",
    rule: `a number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS}`,
    check: (value) => {
      const seconds = secondsOf(value);
      return seconds >= MIN_TIMEOUT_SECONDS && seconds <= MAX_TIMEOUT_SECONDS
        ? undefined
        : `must be a number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS} (the overall time one provider call or look-up may take; default 120)`;
    },
    doc: "Seconds one provider call or look-up may take in all, retries included.",
  },
  adopt: {
    config: "platform:adopt",
    env: "PLATFORM_ADOPT",
    defaultValue: "false",
    rule: "true or false",
    check: (value) => (/^(true|false)$/i.test(value.trim()) ? undefined : "must be true or false"),
    doc: "Take over existing records at create for the whole stack (a resource's `adopt` wins).",
  },
  maxConcurrency: {
    config: "platform:maxConcurrency",
    env: "PLATFORM_MAX_CONCURRENCY",
    defaultValue: String(DEFAULT_MAX_CONCURRENCY),
    rule: `a whole number of requests from 1 to ${MAX_MAX_CONCURRENCY}`,
    check: (value) =>
      /^\d+$/.test(value.trim()) && Number(value.trim()) >= 1 && Number(value.trim()) <= MAX_MAX_CONCURRENCY
        ? undefined
        : `must be a whole number of requests from 1 to ${MAX_MAX_CONCURRENCY} (how many this process sends at once at most; default ${DEFAULT_MAX_CONCURRENCY})`,
    doc: "Requests one provider process sends at once at most, shared by every operation, look-up and token exchange; a 429's Retry-After pauses them all.",
  },
  batchReads: {
    config: "platform:batchReads",
    env: "PLATFORM_BATCH_READS",
    defaultValue: "true",
    rule: "true or false",
    check: (value) =>
      /^(true|false)$/i.test(value.trim())
        ? undefined
        : "must be true (the default: reads of one kind that overlap are answered together by one List) or false (one GET per read)",
    doc: "Reads of one kind that overlap (a refresh) are answered together by one List of their uids; false: one GET per read.",
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingKey = keyof typeof SETTINGS;
type Key = SettingKey;
const KEYS = Object.keys(SETTINGS) as Key[];

/** Each setting's config key and environment variable. */
export const SETTING_SOURCES: { readonly [K in Key]: { readonly config: string; readonly env: string } } = SETTINGS;

/** What the engine configured a provider with (`platform:*`), by setting: the first of the three sources. */
export type Configured = Readonly<Partial<Record<Key, string>>>;

/** The settings in `config` (what a provider's `configure(req)` is given as `req.config`). */
export function configuredFrom(config: { get(key: string): string | undefined }): Configured {
  const configured: Partial<Record<Key, string>> = {};
  for (const key of KEYS) {
    let value: string | undefined;
    try {
      value = config.get(SETTING_SOURCES[key].config);
    } catch {
      // The host's config throws when the engine never sent Configure; env still applies.
      value = undefined;
    }
    if (value !== undefined && value !== "") configured[key] = value;
  }
  return configured;
}

/**
 * The program's own stack config, read once per question. runtime.allConfig, not Config.get: it
 * reads secrets without the SDK's "use getSecret" warning and never wraps them, since the value
 * only goes into an Authorization header. One parse of the stack config, where a getConfig per
 * key parsed it once per key, on every request.
 */
function programConfig(): Record<string, string> {
  try {
    return allConfig();
  } catch {
    return {};
  }
}

type Raw = { value: string; from: string } | undefined;

function rawFrom(key: Key, configured: Configured, program: Record<string, string>): Raw {
  const { config, env } = SETTING_SOURCES[key];
  const fromConfigure = configured[key];
  if (fromConfigure) return { value: fromConfigure, from: config };
  const fromProgram = program[config];
  if (fromProgram) return { value: fromProgram, from: config };
  const fromEnv = process.env[env];
  if (fromEnv) return { value: fromEnv, from: env };
  return undefined;
}

/** A setting's value checked against its rule: a SettingsError naming where it came from when it breaks it. */
function checked(key: Key, setting: { value: string; from: string }): string {
  const issue = SETTINGS[key].check(setting.value);
  if (issue) throw new SettingsError(`${setting.from}: ${issue}`);
  return setting.value;
}

/** A base URL setting, checked and without its trailing slashes. */
function baseUrl(key: "apiUrl" | "authUrl", setting: { value: string; from: string }): string {
  return new URL(checked(key, setting).trim()).toString().replace(/\/+$/, "");
}

/** What a resolution was made from: each key's source and value, then the Actions variables. */
type Sources = Array<string | undefined>;

const GITHUB_ACTIONS_ENV_NAMES = Object.values(GITHUB_ACTIONS_ENV);

function sourcesNow(configured: Configured, program: Record<string, string>): Sources {
  const sources: Sources = [];
  for (const key of KEYS) {
    const value = rawFrom(key, configured, program);
    sources.push(value?.from, value?.value);
  }
  for (const name of GITHUB_ACTIONS_ENV_NAMES) sources.push(process.env[name]);
  return sources;
}

/** Whether every source is as it was; compares in place (no text built: every request asks). */
function unchangedSince(sources: Sources, configured: Configured, program: Record<string, string>): boolean {
  let at = 0;
  for (const key of KEYS) {
    const value = rawFrom(key, configured, program);
    if (sources[at++] !== value?.from || sources[at++] !== value?.value) return false;
  }
  for (const name of GITHUB_ACTIONS_ENV_NAMES) if (sources[at++] !== process.env[name]) return false;
  return true;
}

/**
 * The settings one provider holds: what the engine configured it with, then the program's stack
 * config, then the environment. They are read when asked, never at construction, so a dynamic
 * provider serialized in the program captures none of them.
 */
export interface ProviderSettings {
  /** Takes what the engine configured the provider with (its `configure(req)`), in place of the last. */
  configure(config: { get(key: string): string | undefined }): void;
  /** A setting's value and where it came from (the config key or the environment variable). */
  raw(key: Key): Raw;
  /**
   * Every setting in effect that breaks its rule, each said as `<where it came from>: <why>`.
   * Presence is not checked here (a preview of creates needs no credentials); the first request
   * says what is missing.
   */
  issues(): string[];
  /**
   * Throws a SettingsError naming each setting in effect that breaks its rule (what configure
   * refuses); `configuredHint` follows when one of them came from the configuration rather than
   * the environment.
   */
  refuseBroken(configuredHint?: string): void;
  /** platform:timeout in milliseconds, undefined when not set; a SettingsError naming the setting when malformed. */
  timeoutMs(): number | undefined;
  /** platform:adopt, undefined when not set; a SettingsError naming the setting when malformed. */
  adopt(): boolean | undefined;
  /**
   * Every setting resolved; a SettingsError naming the config key and environment variable.
   * Every API request asks, so the answer is reused (the same object) while no source changed:
   * parsing and checking the URLs on each request was a measurable part of a refresh.
   */
  resolve(): Settings;
}

export function providerSettings(configured: Configured = {}): ProviderSettings {
  let current = configured;
  let resolved: { sources: Sources; settings: Settings } | undefined;
  const raw = (key: Key) => rawFrom(key, current, programConfig());
  const issues = () => {
    const program = programConfig();
    const found: string[] = [];
    for (const key of KEYS) {
      const setting = rawFrom(key, current, program);
      // A value not known yet (a preview of a provider whose inputs come from another resource).
      const issue = setting && setting.value !== UNKNOWN_INPUT && SETTINGS[key].check(setting.value);
      if (issue) found.push(`${setting.from}: ${issue}`);
    }
    return found;
  };
  const timeoutMs = () => {
    const timeout = raw("timeout");
    return timeout ? Number(checked("timeout", timeout).trim()) * 1000 : undefined;
  };
  return {
    configure(config) {
      current = configuredFrom(config);
      resolved = undefined;
    },
    raw,
    issues,
    refuseBroken(configuredHint) {
      const found = issues();
      if (!found.length) return;
      const fromConfig = found.some((issue) => KEYS.some((key) => issue.startsWith(`${SETTINGS[key].config}:`)));
      throw new SettingsError(found.join("; ") + (fromConfig && configuredHint ? `. ${configuredHint}` : ""));
    },
    timeoutMs,
    adopt() {
      const adopt = raw("adopt");
      return adopt ? checked("adopt", adopt).trim().toLowerCase() === "true" : undefined;
    },
    resolve() {
      const program = programConfig();
      if (resolved && unchangedSince(resolved.sources, current, program)) return resolved.settings;
      const sources = sourcesNow(current, program);
      timeoutMs();
      const settings = resolveFresh((key) => rawFrom(key, current, program));
      resolved = { sources, settings };
      return settings;
    },
  };
}

const running = new AsyncLocalStorage<ProviderSettings>();

/**
 * Runs `fn` on `settings`: every setting its requests, deadlines and checks read comes from them.
 * A provider called by another (the native provider calls each kind's lifecycle) keeps its caller's.
 */
export function withSettings<T>(settings: ProviderSettings, fn: () => T): T {
  return running.getStore() ? fn() : running.run(settings, fn);
}

/**
 * The settings of the provider whose call is running; outside any (a look-up in the program, a CLI
 * command), `fallback`: the program's stack config and the environment.
 */
export function settingsInEffect(fallback?: ProviderSettings): ProviderSettings {
  return running.getStore() ?? fallback ?? providerSettings();
}

/** The settings in effect, resolved (see ProviderSettings.resolve). */
export function resolveSettings(): Settings {
  return settingsInEffect().resolve();
}

/** platform:timeout / PLATFORM_TIMEOUT in effect, in milliseconds (see ProviderSettings.timeoutMs). */
export function timeoutSetting(): number | undefined {
  return settingsInEffect().timeoutMs();
}

/** platform:adopt / PLATFORM_ADOPT in effect (see ProviderSettings.adopt). */
export function adoptSetting(): boolean | undefined {
  return settingsInEffect().adopt();
}

function resolveFresh(raw: (key: Key) => Raw): Settings {
  const maxConcurrency = raw("maxConcurrency");
  const batchReads = raw("batchReads");
  const api = raw("apiUrl");
  if (!api) {
    const { config, env } = SETTING_SOURCES.apiUrl;
    throw new SettingsError(`${config} is not set: run \`pulumi config set ${config} https://…\` or set ${env}`);
  }
  const apiUrl = baseUrl("apiUrl", api);
  const auth = raw("authUrl");
  const authUrl = auth ? baseUrl("authUrl", auth) : apiUrl;

  const version = raw("apiVersion");
  const settings: Settings = {
    apiUrl,
    authUrl,
    apiVersion: ((version && checked("apiVersion", version)) as ApiVersion | undefined) ?? "v2beta1",
  };
  if (maxConcurrency) settings.maxConcurrency = Number(checked("maxConcurrency", maxConcurrency).trim());
  if (batchReads) settings.batchReads = checked("batchReads", batchReads).trim().toLowerCase() === "true";

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
    settings.identity = checked("identity", identity);
    // The OIDC token to exchange, first found wins: a literal token, a token file, GitHub Actions.
    if (literal) {
      settings.identityToken = checked("identityToken", literal).trim();
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
    settings.token = checked("token", token).trim();
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

/**
 * The failures of a provider resource's inputs (`apiUrl`, `timeout`, … as the native provider's
 * schema names them): each known setting given a value that breaks its rule, said as
 * `<config key>: <why>` without the value (the engine would print a failure's property value).
 */
export function providerInputIssues(inputs: Readonly<Record<string, unknown>>): string[] {
  const issues: string[] = [];
  for (const key of KEYS) {
    const { config } = SETTINGS[key];
    const value = inputs[config.slice(config.indexOf(":") + 1)];
    if (value === undefined || value === null || value === "" || value === UNKNOWN_INPUT) continue;
    const issue =
      typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? SETTINGS[key].check(String(value))
        : "must be a string";
    if (issue) issues.push(`${config}: ${issue}`);
  }
  return issues;
}
