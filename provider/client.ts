/**
 * The API client every resource and look-up uses: builds v2 URLs, attaches the bearer token,
 * decodes answers and errors. Retries of transient failures live in the transport; the two
 * retries that need to know about the API live here:
 * - UNAUTHENTICATED with an exchanged token: one fresh exchange, one more attempt.
 * - PERMISSION_DENIED when creating under a group this process created moments ago: access
 *   to a new group propagates for a few seconds, so the create is retried for a while.
 */
import { TokenSource, exchangedToken, staticToken } from "./auth";
import { ApiError, Code, decodeErrorAnswer } from "./errors";
import { Settings, resolveSettings } from "./settings";
import { Transport, TransportOptions, createTransport } from "./transport";
import { InvalidUidError, uidIssue } from "./uid";

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
   * (`groups/${uid}`). The uid part must be well formed (provider/uid.ts): it is checked and
   * each segment encoded, so no value can make the request reach another collection.
   */
  path: string;
  query?: Query;
  body?: unknown;
}

export interface ApiClient {
  request<T = unknown>(req: ApiRequest): Promise<T>;
}

export interface ClientOptions extends TransportOptions {
  /** How long after creating a group a PERMISSION_DENIED under it is taken for propagation. */
  propagationWindowMs?: number;
  transport?: Transport;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json sits outside the compiled tree
const { version } = require("../../package.json") as { version: string };
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
export function requestTarget(req: Pick<ApiRequest, "method" | "domain" | "path">, apiVersion: string): RequestTarget {
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
  return { path, collection, uid };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createClient(
  settings: Settings,
  options: ClientOptions = {},
): ApiClient & { tokens: TokenSource; close(): Promise<void> } {
  const transport = options.transport ?? createTransport(options);
  const tokens =
    settings.identity && settings.identityTokenFile
      ? exchangedToken(
          {
            apiUrl: settings.apiUrl,
            authUrl: settings.authUrl,
            identity: settings.identity,
            identityTokenFile: settings.identityTokenFile,
          },
          transport,
        )
      : staticToken(settings.token ?? "");
  const propagationWindowMs = options.propagationWindowMs ?? 30_000;
  const createdGroups = new Map<string, number>();

  const recentlyCreatedAncestor = (parentUid: string): boolean => {
    const segments = parentUid.split("/");
    for (let i = segments.length; i > 0; i--) {
      const at = createdGroups.get(segments.slice(0, i).join("/"));
      if (at !== undefined && Date.now() - at < propagationWindowMs) return true;
    }
    return false;
  };

  async function once<T>(req: ApiRequest): Promise<T> {
    const { path, uid, collection } = requestTarget(req, settings.apiVersion);
    const url = `${settings.apiUrl}${path}${encodeQuery(req.query)}`;
    let token = await tokens.current();
    for (let attempt = 0; ; attempt++) {
      const answer = await transport.send({
        method: req.method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          "user-agent": USER_AGENT,
          ...(req.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      });
      if (answer.status < 300) {
        if (!answer.text) return undefined as T;
        try {
          return JSON.parse(answer.text) as T;
        } catch {
          throw new ApiError({
            code: 2,
            httpStatus: answer.status,
            method: req.method,
            path,
            serviceMessage: `the answer is not JSON (${answer.contentType || "no content type"}): is platform:apiUrl the API's base URL, and is a proxy in the way?`,
          });
        }
      }
      const error = decodeErrorAnswer({
        httpStatus: answer.status,
        contentType: answer.contentType,
        text: answer.text,
        method: req.method,
        path,
        url,
        askedUid: uid,
        collection,
      });
      if (error.code === Code.UNAUTHENTICATED && attempt === 0 && tokens.rejected(token)) {
        token = await tokens.current();
        continue;
      }
      throw error;
    }
  }

  async function request<T>(req: ApiRequest): Promise<T> {
    const parentUid = req.method === "POST" ? req.path.slice(req.path.indexOf("/") + 1) : "";
    const deadline = Date.now() + propagationWindowMs;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await once<T>(req);
        if (req.method === "POST" && req.path.startsWith("groups/")) {
          const uid = (result as { uid?: unknown } | undefined)?.uid;
          if (typeof uid === "string") createdGroups.set(uid, Date.now());
        }
        return result;
      } catch (error) {
        const propagating =
          error instanceof ApiError &&
          error.code === Code.PERMISSION_DENIED &&
          parentUid !== "" &&
          recentlyCreatedAncestor(parentUid);
        if (!propagating || Date.now() > deadline) throw error;
        await wait(Math.min(2_000, 100 * 2 ** attempt) * (0.5 + Math.random() / 2));
      }
    }
  }

  return { request, tokens, close: () => transport.close() };
}

// One client per distinct settings, for the whole process: the provider host serves every
// resource of a deployment from one process, so they share the pool and the exchanged token.
const clients = new Map<string, ReturnType<typeof createClient>>();
// resolveSettings answers the same object while nothing changed: the common case skips the key.
let last: { settings: Settings; client: ReturnType<typeof createClient> } | undefined;

/** The process-wide client for the settings in effect now (configure > program config > env). */
export function sharedClient(): ApiClient {
  return {
    async request<T>(req: ApiRequest): Promise<T> {
      const settings = resolveSettings();
      if (last?.settings !== settings) {
        const key = JSON.stringify(settings);
        let client = clients.get(key);
        if (!client) {
          client = createClient(settings);
          clients.set(key, client);
        }
        last = { settings, client };
      }
      return last.client.request<T>(req);
    },
  };
}
