/**
 * Runs jose in a worker thread. jose 6 ships only as an ES module; Node loads it with
 * require(), but jest's module system cannot, and the emulator runs inside jest tests.
 * A worker thread is plain Node, so the same code path works in tests, the CLI and benches.
 */
import { parentPort } from "node:worker_threads";
import type * as Jose from "jose";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const jose = require("jose") as typeof Jose;

const ALG = "ES256";
let privateKey: Jose.CryptoKey | undefined;
let kid = "";

interface Request {
  id: number;
  op: "init" | "sign" | "verify";
  // What each op takes; the main thread sends the shape its op declares.
  args: never;
}

async function init(args: { privateJwk?: Jose.JWK }) {
  let jwk = args.privateJwk;
  if (!jwk) {
    const pair = await jose.generateKeyPair(ALG, { extractable: true });
    jwk = await jose.exportJWK(pair.privateKey);
  }
  privateKey = (await jose.importJWK(jwk, ALG)) as Jose.CryptoKey;
  const { d: _secret, ...publicJwk } = jwk;
  kid = await jose.calculateJwkThumbprint(publicJwk);
  return { privateJwk: jwk, publicJwk: { ...publicJwk, kid, alg: ALG, use: "sig" } };
}

async function sign(args: { issuer: string; subject: string; audience?: string; issuedAt: number; expiresAt: number }) {
  if (!privateKey) throw new Error("oidc worker not initialized");
  const jwt = new jose.SignJWT({})
    .setProtectedHeader({ alg: ALG, kid, typ: "JWT" })
    .setIssuer(args.issuer)
    .setSubject(args.subject)
    .setIssuedAt(Math.floor(args.issuedAt / 1000))
    .setExpirationTime(Math.floor(args.expiresAt / 1000));
  if (args.audience) jwt.setAudience(args.audience);
  return jwt.sign(privateKey);
}

async function verify(args: { jwt: string; jwks: { keys: Jose.JWK[] }; issuer: string; now: number }) {
  try {
    const { payload } = await jose.jwtVerify(args.jwt, jose.createLocalJWKSet(args.jwks), {
      issuer: args.issuer,
      currentDate: new Date(args.now),
    });
    return { ok: true, payload };
  } catch (error) {
    const e = error as { code?: string; message?: string; claim?: string };
    return { ok: false, code: e.code ?? "ERR_UNKNOWN", message: e.message ?? String(error), claim: e.claim };
  }
}

const ops = { init, sign, verify };

parentPort?.on("message", (request: Request) => void answer(request));

async function answer(request: Request): Promise<void> {
  try {
    const result = await ops[request.op](request.args);
    parentPort?.postMessage({ id: request.id, result });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
}
