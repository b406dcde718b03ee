/**
 * The API client every resource and look-up uses: builds v2 URLs (core/common/uid.ts decides what
 * may go into a path), attaches the bearer token, decodes answers and errors. Every repeat is
 * decided by core/transport/retryPolicy.ts inside one send loop (core/transport/sendLoop.ts), within the
 * deadline of the call the request belongs to; the client tells the policy the two things only
 * it knows: whether the token can be renewed, and whether a create goes under a group this
 * process created moments ago (access to it is still propagating).
 */
import { oidcTokenSource } from "./ambientToken";
import { TokenSource, exchangedToken, staticToken } from "./auth";
import { Clock, Random, systemClock } from "../common/clock";
import { callBudgetMs, currentCall, withCallDeadline } from "./deadline";
import { ApiError, Code, UnknownOutcomeError, decodeErrorAnswer } from "../common/errors";
import { PROPAGATION_WINDOW_MS } from "./retryPolicy";
import { LoopRequest, SendLoopOptions, sendWithPolicy } from "./sendLoop";
import { DEFAULT_MAX_CONCURRENCY, ProviderSettings, Settings, providerSettings, settingsInEffect } from "./settings";
import { requestSlots } from "./requestSlots";
import { HttpAnswer, Transport, createTransport } from "./transport";
import { InvalidUidError, uidIssue } from "../common/uid";

/**
 * The API domain, the first path segment: "iam", "registry", "vulnerabilities", "events",
 * "ecosystems", ... Any lowercase word is accepted, so a new kind needs no change here.
 */
export type Domain = string;
export type Query = Record<string, string | number | boolean | string[] | undefined>;

export interface ApiRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  domain: Domain;
  /**
   * What follows the version segment: a collection ("groups") or a collection and a uid
   * (`groups/${uid}`). The uid part must be well formed (core/common/uid.ts): it is checked and
   * each segment encoded, so no value can make the request reach another collection.
   */
  path: string;
  /**
   * A custom method on the record the path names (`identityProviders/{uid}:generateScimToken`):
   * appended after the uid as `:verb`. A plain word, so it can never change which record is meant.
   */
  verb?: string;
  query?: Query;
  body?: unknown;
}

export interface ApiClient {
  request<T = unknown>(req: ApiRequest): Promise<T>;
  /**
   * Whether reads of one kind that overlap may be answered together by one List
   * (platform:batchReads, core/runtime/readBatches.ts); a client without it says yes.
   */
  batchReads?(): boolean;
}

export interface ClientOptions {
  /** Time for every wait and measurement: Retry-After, backoff, renewal, propagation, deadlines. */
  clock?: Clock;
  /** Chance for the backoff's jitter. */
  random?: Random;
  /** How long after creating a record a PERMISSION_DENIED under it is taken for propagation. */
  propagationWindowMs?: number;
  /** Per-send limits (defaults in core/transport/sendLoop.ts). */
  headersTimeoutMs?: number;
  bodyIdleTimeoutMs?: number;
  maxAnswerBytes?: number;
  transport?: Transport;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json sits outside the compiled tree
const { version } = require("../../../package.json") as { version: string };
const USER_AGENT = `platform-pulumi/${version}`;

/** Spaces as %20 (the spec's order_by rule) and list values as repeated keys. */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString().replace(/\+/g, "%20");
  return text ? `?${text}` : "";
}

const DOMAIN = /^[a-z][a-z0-9-]{0,62}$/;
const COLLECTION = /^[A-Za-z][A-Za-z0-9]{0,62}$/;
const VERB = /^[a-z][A-Za-z0-9]{0,62}$/;

/** Where a request goes, from its domain and path: the encoded path and the uid it names, if any. */
export interface RequestTarget {
  /** `/{domain}/{version}/{collection}[/{uid}]`, each uid segment percent-encoded. */
  path: string;
  collection: string;
  /** The record the request names (for a POST, the parent it creates under). */
  uid?: string;
}

/**
 * The one place a request path is built. Refuses (InvalidUidError, before any request) a
 * domain or collection that is not a plain word and a uid that is not well formed.
 */
export function requestTarget(
  req: Pick<ApiRequest, "method" | "domain" | "path" | "verb">,
  apiVersion: string,
): RequestTarget {
  const slash = req.path.indexOf("/");
  const collection = slash < 0 ? req.path : req.path.slice(0, slash);
  const uid = slash < 0 ? undefined : req.path.slice(slash + 1);
  const where = `${req.method} ${req.domain}/${collection}`;
  if (!DOMAIN.test(req.domain)) throw new Error(`${where}: "${req.domain}" is not an API domain (a lowercase word)`);
  if (!COLLECTION.test(collection))
    throw new Error(`${req.method} ${req.domain}: ${JSON.stringify(collection.slice(0, 80))} is not a collection name`);
  let path = `/${req.domain}/${apiVersion}/${collection}`;
  if (uid !== undefined) {
    const issue = uidIssue(uid, "path");
    if (issue) throw new InvalidUidError(uid, issue, where);
    // Well-formed segments need no escaping; encoding anyway keeps this safe if the grammar ever widens.
    path += `/${uid.split("/").map(encodeURIComponent).join("/")}`;
  }
  if (req.verb !== undefined) {
    if (uid === undefined || !VERB.test(req.verb))
      throw new Error(`${where}: ${JSON.stringify(req.verb.slice(0, 80))} is not a custom method of a record`);
    path += `:${req.verb}`;
  }
  return { path, collection, uid };
}

/** The body of a 2xx answer: JSON, or undefined when empty (a DELETE). */
function parseAnswer<T>(req: ApiRequest, path: string, answer: HttpAnswer): T {
  // A create answers the record it made: anything else leaves its outcome unknown, and the
  // create loop must look the record up (and adopt it) rather than send again blindly.
  const unknownOutcome = (what: string) =>
    new UnknownOutcomeError(req.method, path, `HTTP ${answer.status} with ${what}`);
  if (!answer.text.trim()) {
    if (req.method === "POST") throw unknownOutcome("an empty body");
    return undefined as T;
  }
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    if (req.method === "POST")
      throw unknownOutcome(`a body that is not JSON (${answer.contentType || "no content type"})`);
    throw new ApiError({
      code: Code.UNKNOWN,
      httpStatus: answer.status,
      method: req.method,
      path,
      serviceMessage: `the answer is not JSON (${answer.contentType || "no content type"}): is platform:apiUrl the API's base URL, and is a proxy in the way?`,
    });
  }
}

export function createClient(
  settings: Settings,
  options: ClientOptions = {},
): ApiClient & { tokens: TokenSource; close(): Promise<void> } {
  const clock = options.clock ?? systemClock;
  const maxConcurrency = settings.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  const loop: SendLoopOptions = {
    // No more connections than requests in flight.
    transport: options.transport ?? createTransport({ clock, connections: maxConcurrency }),
    clock,
    random: options.random ?? Math.random,
    headersTimeoutMs: options.headersTimeoutMs,
    bodyIdleTimeoutMs: options.bodyIdleTimeoutMs,
    maxAnswerBytes: options.maxAnswerBytes,
    slots: requestSlots(maxConcurrency, clock),
  };
  const send = (req: LoopRequest) => sendWithPolicy(loop, req);
  const tokens = settings.identity
    ? exchangedToken(
        { apiUrl: settings.apiUrl, authUrl: settings.authUrl, identity: settings.identity },
        oidcTokenSource(settings, send),
        send,
        clock,
      )
    : staticToken(settings.token ?? "");
  const propagationWindowMs = options.propagationWindowMs ?? PROPAGATION_WINDOW_MS;
  // Records this process created, by uid, with when: a create under one of them may meet
  // PERMISSION_DENIED while access to the new record propagates.
  const created = new Map<string, number>();

  const recentlyCreatedAncestor = (uid: string): boolean => {
    const segments = uid.split("/");
    for (let i = segments.length; i > 0; i--) {
      const at = created.get(segments.slice(0, i).join("/"));
      if (at !== undefined && clock.now() - at < propagationWindowMs) return true;
    }
    return false;
  };
  const remember = (uid: string) => {
    const now = clock.now();
    for (const [known, at] of created) if (now - at >= propagationWindowMs) created.delete(known);
    created.set(uid, now);
  };

  async function once<T>(req: ApiRequest): Promise<T> {
    const { path, uid, collection } = requestTarget(req, settings.apiVersion);
    const url = `${settings.apiUrl}${path}${encodeQuery(req.query)}`;
    let token = "";
    let renewed = false;
    const answer = await send({
      method: req.method,
      url,
      path,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      async headers() {
        token = await tokens.current();
        return {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          "user-agent": USER_AGENT,
          ...(req.body === undefined ? {} : { "content-type": "application/json" }),
        };
      },
      errorOf: (failed) =>
        decodeErrorAnswer({
          httpStatus: failed.status,
          contentType: failed.contentType,
          text: failed.text,
          method: req.method,
          path,
          url,
          askedUid: uid,
          collection,
        }),
      situation(error) {
        if (error.code === Code.UNAUTHENTICATED) {
          const canRenewToken = !renewed && tokens.rejected(token);
          renewed ||= canRenewToken;
          return { canRenewToken };
        }
        if (error.code === Code.PERMISSION_DENIED && req.method === "POST" && uid !== undefined)
          return { parentJustCreated: recentlyCreatedAncestor(uid) };
        return {};
      },
    });
    const result = parseAnswer<T>(req, path, answer);
    if (req.method === "POST") {
      const createdUid = (result as { uid?: unknown } | undefined)?.uid;
      if (typeof createdUid === "string") remember(createdUid);
    }
    return result;
  }

  function request<T>(req: ApiRequest): Promise<T> {
    // A request outside any provider call or look-up still gets one overall deadline.
    if (currentCall()) return once<T>(req);
    return withCallDeadline(
      `${req.method} ${req.domain}/${req.path.split("/")[0]}`,
      callBudgetMs(),
      () => once<T>(req),
      () => clock.now(),
    );
  }

  return {
    request,
    batchReads: () => settings.batchReads !== false,
    tokens,
    close: () => loop.transport.close(),
  };
}

// One client per distinct settings, for the whole process: the provider host serves every
// resource of a deployment from one process, so they share the pool and the exchanged token.
const clients = new Map<string, ReturnType<typeof createClient>>();
// A provider's settings resolve to the same object while nothing changed: the common case skips the key.
let last: { settings: Settings; client: ReturnType<typeof createClient> } | undefined;

/** The process-wide client for the settings in effect now (configure > program config > env). */
function clientFor(settings: Settings): ReturnType<typeof createClient> {
  if (last?.settings !== settings) {
    const key = JSON.stringify(settings);
    let client = clients.get(key);
    if (!client) {
      client = createClient(settings);
      clients.set(key, client);
    }
    last = { settings, client };
  }
  return last.client;
}

/**
 * The client of the provider whose call is running, on its settings; outside any (a look-up in the
 * program, a CLI command), on `settings`: by default the program's stack config and the environment.
 */
export function sharedClient(settings: ProviderSettings = providerSettings()): ApiClient {
  const resolveSettings = () => settingsInEffect(settings).resolve();
  return {
    // Not async: one promise fewer per request (a refresh sends one request per resource).
    request<T>(req: ApiRequest): Promise<T> {
      try {
        return clientFor(resolveSettings()).request<T>(req);
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown
        return Promise.reject(error);
      }
    },
    batchReads() {
      try {
        return resolveSettings().batchReads !== false;
      } catch {
        // Settings that cannot be resolved fail the read's own GET, which says why.
        return false;
      }
    },
  };
}
