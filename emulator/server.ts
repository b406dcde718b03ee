/**
 * The HTTP front: faults first, then the body, authentication, routing and one JSON answer.
 * Every failure, including malformed input and unknown paths, becomes a Status body.
 */
import * as http from "node:http";
import { Auth } from "./auth";
import { Clock } from "./clock";
import {
  ApiError,
  internal,
  invalidArgument,
  invalidField,
  notFound,
  resourceExhausted,
  unauthenticated,
  unavailable,
  unimplemented,
} from "./errors";
import { Faults, RequestLog } from "./faults";
import type { RateLimit } from "./rateLimit";
import { Context } from "./context";
import { Answer, dispatch } from "./dispatch";
import { ListEngine } from "./listEngine";
import { OidcKeys } from "./oidc";
import { normalizeParams, Params, rawQuery } from "./params";
import { Messages } from "./messages";
import { Router } from "./routes";
import type { Kinds } from "./kinds/kind";
import { Store } from "./store";
import { exchangeToken, ExchangeDeps } from "./sts";
import { listV1 } from "./v1";

export const MAX_BODY_BYTES = 1024 * 1024;

export interface ServerDeps {
  /** The collections the API document serves (kinds/registry.ts). */
  kinds: Kinds;
  store: Store;
  clock: Clock;
  engine: ListEngine;
  auth: Auth;
  oidc: OidcKeys;
  faults: Faults;
  log: RequestLog;
  propagationDelayMs: number;
  /** Every answer comes this much later: a service far away. */
  latencyMs: number;
  /** Requests per second per bearer token, then 429 with Retry-After. */
  rateLimit?: RateLimit;
  requirePatchFields: boolean;
  messages: Messages;
  router: Router;
  quiet: boolean;
  baseUrl: () => string;
  /** Filled in once the server listens (the URL depends on the port). */
  exchange: () => ExchangeDeps;
  issuer: () => string;
}

/** The v1 list endpoints that stay available beside v2. */
/** A collection's own path (its List), where Create, Update and Delete need a uid after it. */
const COLLECTION = /^\/[^/]+\/v2(?:beta1)?\/[A-Za-z]+\/?$/;

const V1_PATH = /^\/(iam\/v1\/groups|registry\/v1\/repos)\/?$/;

function errorAnswer(error: ApiError): Answer {
  return { status: error.httpStatus, body: error.toBody(), headers: error.headers };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge)
        reject(invalidArgument([{ field: "body", description: `exceeds the limit of ${MAX_BODY_BYTES} bytes` }]));
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidArgument([{ field: "body", description: `is not valid JSON (${(error as Error).message})` }]);
  }
}

async function route(
  deps: ServerDeps,
  req: http.IncomingMessage,
  method: string,
  path: string,
  params: Params,
  bodyText: string,
): Promise<Answer> {
  const issuerPath = new URL(deps.issuer()).pathname;
  if (method === "GET" && path === `${issuerPath}/.well-known/openid-configuration`) {
    const issuer = deps.issuer();
    return {
      status: 200,
      body: {
        issuer,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        response_types_supported: ["id_token"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["ES256"],
      },
    };
  }
  if (method === "GET" && path === `${issuerPath}/.well-known/jwks.json`)
    return { status: 200, body: deps.oidc.jwks() };
  if (path === "/sts/exchange") {
    if (method !== "GET" && method !== "POST")
      throw unimplemented(`${method} is not supported on /sts/exchange; use GET or POST`);
    return { status: 200, body: await exchangeToken(deps.exchange(), params, req.headers.authorization) };
  }
  if (path === "/sts/exchange_refresh_token") {
    if (method !== "POST") throw unimplemented(`${method} is not supported on ${path}; use POST`);
    const refreshToken = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
    if (!refreshToken) throw unauthenticated("send the refresh token as Authorization: Bearer <refresh token>");
    const pair = deps.auth.refresh(refreshToken);
    return {
      status: 200,
      body: { token: { token: pair.token, expiry: pair.expiry }, refreshToken: { token: pair.refreshToken } },
    };
  }

  const principal = deps.auth.authenticate(req.headers.authorization);
  const ctx: Context = {
    store: deps.store,
    kinds: deps.kinds,
    clock: deps.clock,
    engine: deps.engine,
    messages: deps.messages,
    principal,
    propagationDelayMs: deps.propagationDelayMs,
    requirePatchFields: deps.requirePatchFields,
    baseUrl: deps.baseUrl(),
  };
  const v1 = V1_PATH.exec(path);
  if (v1) {
    if (method !== "GET") throw unimplemented(`${method} is not supported on ${path}; v1 offers only GET`);
    return { status: 200, body: listV1(ctx, v1[1].startsWith("iam") ? "groups" : "repos", params) };
  }
  const matched = deps.router.match(method, path);
  if (!matched) throw notFound("path", path);
  if ("methodMismatch" in matched) {
    if (COLLECTION.test(path) && ["POST", "PATCH", "DELETE"].includes(method))
      throw method === "POST"
        ? invalidField("parent", `the parent's uid goes in the path: POST ${path}/<parent uid>`)
        : invalidField("uid", `goes in the path: ${method} ${path}/<uid>`);
    throw unimplemented(`method ${method} is not supported on ${path}; it serves ${matched.methodMismatch.join(", ")}`);
  }
  return dispatch(ctx, matched.route, matched.pathParams, params, parseJson(bodyText));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createHandler(deps: ServerDeps): http.RequestListener {
  return (req, res) => void handle(deps, req, res);
}

async function handle(deps: ServerDeps, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const url = new URL(req.url ?? "/", "http://emulator");
  const path = url.pathname;
  const entry = deps.log.record({
    method,
    path,
    query: rawQuery(url.searchParams),
    status: 0,
    time: deps.clock.iso(),
  });
  const drop = () => {
    entry.status = 0;
    req.socket.destroy();
  };
  const send = (answer: Answer) => {
    entry.status = answer.status;
    const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      ...(answer.headers ?? {}),
    });
    res.end(text);
  };

  try {
    if (deps.latencyMs > 0) await sleep(deps.latencyMs);
    const wait = deps.rateLimit?.refuse(req.headers.authorization ?? "", deps.clock.now());
    if (wait !== undefined) return send(errorAnswer(resourceExhausted(wait)));
    const fault = deps.faults.decide(method, path);
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.action === "drop") return drop();
    if (fault.action === "unavailable")
      return send(errorAnswer(unavailable("the service is temporarily unavailable (injected fault); retry")));
    if (fault.action === "exhausted") return send(errorAnswer(resourceExhausted(fault.retryAfterSeconds)));
    let answer: Answer;
    try {
      const bodyText = await readBody(req);
      answer = await route(deps, req, method, path, normalizeParams(url.searchParams), bodyText);
    } catch (error) {
      if (error instanceof ApiError) answer = errorAnswer(error);
      else {
        if (!deps.quiet) console.error("emulator: internal error", error);
        answer = errorAnswer(internal("the emulator failed to handle the request"));
      }
    }
    if (fault.action === "dropAfterCommit") return drop();
    send(answer);
  } catch (error) {
    if (!deps.quiet) console.error("emulator: failed to answer", error);
    if (!res.headersSent) send(errorAnswer(internal("the emulator failed to answer")));
    else res.destroy();
  }
}
