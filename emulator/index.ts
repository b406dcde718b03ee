/**
 * A local Platform API v2 emulator: `startEmulator(options)` serves the API on loopback
 * and resolves once it answers, with the base URL, a dev owner token and test controls.
 */
import * as http from "node:http";
import { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { loadApiDocument } from "./apiDocument";
import { Auth } from "./auth";
import { Clock } from "./clock";
import { Faults, RequestLog, seededRandom } from "./faults";
import { ListEngine } from "./listEngine";
import { Jwks, OidcKeys } from "./oidc";
import { messagesOf } from "./messages";
import { routerOf } from "./routes";
import { kindsOf, rekeyByParent } from "./kinds/registry";
import { EmulatorState, Journal, readState, stateFileError } from "./persistence";
import { bootstrap, seedBulk, seedSamples } from "./seed";
import { rateLimit } from "./rateLimit";
import { createHandler } from "./server";
import { Store } from "./store";
import { EmulatorOptions, RunningEmulator } from "./types";

export * from "./types";
export { BUILTIN_ROLES, ALL_CAPABILITIES, capability } from "./capabilities";

export const DEFAULT_TOKEN_TTL_SECONDS = 3600;

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const clock = new Clock();
  const doc = loadApiDocument(options.apiDocumentPath);
  const kinds = kindsOf(doc);
  const store = new Store(Object.values(kinds));
  store.legacyAdvisoryEvents = options.documentedAdvisoryEvents === false;
  const engine = new ListEngine();
  const auth = new Auth(store, clock);
  const faults = new Faults(options.faults ?? [], seededRandom(options.faultSeed ?? randomBytes(4).readUInt32BE(0)));
  const log = new RequestLog();
  const trusted = new Map<string, Jwks>();
  const saved = options.statePath ? readState(options.statePath, Object.keys(kinds)) : null;
  const oidc = await OidcKeys.start(saved?.oidcPrivateJwk);

  let url = "";
  let issuer = "";
  const handler = createHandler({
    kinds,
    messages: messagesOf(doc),
    router: routerOf(doc),
    requirePatchFields: options.requirePatchFields ?? false,
    baseUrl: () => url,
    store,
    clock,
    engine,
    auth,
    oidc,
    faults,
    log,
    propagationDelayMs: options.propagationDelayMs ?? 0,
    latencyMs: options.latencyMs ?? 0,
    rateLimit: options.rateLimit === undefined ? undefined : rateLimit(options.rateLimit),
    quiet: options.quiet ?? false,
    issuer: () => issuer,
    exchange: () => ({
      store,
      clock,
      auth,
      oidc,
      devIssuer: issuer,
      trusted,
      audiences: [url, `${url}/registry`],
      tokenTtlSeconds: options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    }),
  });
  const server = http.createServer(handler);
  server.keepAliveTimeout = 5000;
  let rootUid: string;
  let devIdentityUid: string;
  let devToken: string;
  // A start refused (a port taken, a state file the store rejects) leaves no server or thread behind.
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    issuer = `${url}/oidc`;
    if (saved) {
      store.load(rekeyByParent(kinds, saved.records, (why) => stateFileError(options.statePath!, why)));
      ({ rootUid, devIdentityUid, devToken } = saved);
      // The dev issuer's URL follows the port; keep the dev owner matching it after a restart elsewhere.
      const devIdentity = store.of("identities").get(devIdentityUid);
      const claimMatch = devIdentity?.data.claimMatch as Record<string, unknown> | undefined;
      if (
        claimMatch &&
        typeof claimMatch.issuer === "string" &&
        claimMatch.issuer !== issuer &&
        claimMatch.issuer.endsWith("/oidc")
      ) {
        devIdentity!.data.claimMatch = { ...claimMatch, issuer };
      }
    } else {
      const now = clock.now();
      ({ rootUid, devIdentityUid } = bootstrap(store, kinds, now, issuer));
      if (options.seed !== false) seedSamples(store, now, rootUid);
      if (options.bulk) seedBulk(store, now, rootUid, options.bulk);
      devToken = `dev_${randomBytes(24).toString("hex")}`;
    }
  } catch (error) {
    await new Promise((closed) => server.close(closed));
    await oidc.close();
    throw error;
  }
  auth.register(devToken, { identityUid: devIdentityUid, expiresAt: null });

  const snapshot = (): EmulatorState => ({
    version: 1,
    rootUid,
    devToken,
    devIdentityUid,
    oidcPrivateJwk: oidc.privateJwk,
    records: store.snapshot(),
  });
  const journal = options.statePath ? new Journal(options.statePath, snapshot) : null;
  if (journal) {
    store.attachWriter((kind, op, rec) =>
      journal.append(op === "put" ? { kind, op, rec } : { kind, op, uid: rec.uid }),
    );
    // A change is on disk before the request that made it is answered.
    store.onChange(() => journal.commit());
  }

  let closed: Promise<void> | null = null;
  return {
    url,
    token: devToken,
    rootUid,
    issuer,
    mintOidcToken: (claims) => {
      const now = clock.now();
      return oidc.sign({
        issuer: claims.issuer ?? issuer,
        subject: claims.subject,
        audience: claims.audience,
        issuedAt: now,
        expiresAt: now + (claims.expiresInSeconds ?? 3600) * 1000,
      });
    },
    trustIssuer: (other, jwks) => void trusted.set(other, jwks),
    requests: () => log.all(),
    clearRequests: () => log.clear(),
    setFaults: (rules) => faults.set(rules),
    advanceClock: (ms) => clock.advance(ms),
    close: () => {
      closed ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        journal?.close();
        await oidc.close();
      })();
      return closed;
    },
  };
}
