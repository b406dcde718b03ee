/**
 * The emulator's development OIDC issuer and the verification of OIDC tokens presented to
 * /sts/exchange (signature against the issuer's JWKS, expiry by the emulator clock).
 */
import type { Worker } from "node:worker_threads";
import { startOidcWorker } from "./oidcWorkerStart";

export interface Jwks {
  keys: object[];
}

export type VerifyResult =
  { ok: true; payload: Record<string, unknown> } | { ok: false; code: string; message: string; claim?: string };

export class OidcKeys {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  publicJwk: object = {};
  privateJwk: object = {};

  private constructor() {
    this.worker = startOidcWorker();
    this.worker.unref();
    this.worker.on("message", (msg: { id: number; result?: unknown; error?: string }) => {
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.error !== undefined) waiter.reject(new Error(msg.error));
      else waiter.resolve(msg.result);
    });
    this.worker.on("error", (error) => {
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    });
  }

  static async start(privateJwk?: object): Promise<OidcKeys> {
    const keys = new OidcKeys();
    const { publicJwk, privateJwk: priv } = await keys.call<{ publicJwk: object; privateJwk: object }>("init", {
      privateJwk,
    });
    keys.publicJwk = publicJwk;
    keys.privateJwk = priv;
    return keys;
  }

  private call<T>(op: string, args: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (value) => resolve(value as T), reject });
      this.worker.postMessage({ id, op, args });
    });
  }

  jwks(): Jwks {
    return { keys: [this.publicJwk] };
  }

  sign(claims: {
    issuer: string;
    subject: string;
    audience?: string;
    issuedAt: number;
    expiresAt: number;
  }): Promise<string> {
    return this.call<string>("sign", claims);
  }

  verify(jwt: string, jwks: Jwks, issuer: string, now: number): Promise<VerifyResult> {
    return this.call<VerifyResult>("verify", { jwt, jwks, issuer, now });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** Reads the claims of a JWT without trusting them: only to pick the issuer's keys. */
export function peekClaims(jwt: string): Record<string, unknown> | null {
  const parts = jwt.split(".");
  if (parts.length !== 3) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return payload && typeof payload === "object" ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
