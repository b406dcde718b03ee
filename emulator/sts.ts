/**
 * Token exchange: an OIDC token from the caller's platform becomes an API token for one
 * identity, after real verification (signature against the issuer's keys, expiry by the
 * emulator clock) and matching issuer, subject and audience against the identity's claimMatch.
 */
import { Auth } from "./auth";
import { Clock } from "./clock";
import { invalidField, unauthenticated } from "./errors";
import { Jwks, OidcKeys, peekClaims } from "./oidc";
import { Params, getString, textOf } from "./params";
import { fullMatch } from "./patterns";
import { Store } from "./store";

export interface ExchangeDeps {
  store: Store;
  clock: Clock;
  auth: Auth;
  oidc: OidcKeys;
  devIssuer: string;
  trusted: Map<string, Jwks>;
  /** Audiences an exchanged token may be requested for (the base URL, the registry). */
  audiences: string[];
  tokenTtlSeconds: number;
}

function matches(exact: unknown, pattern: unknown, value: string): boolean {
  if (typeof exact === "string") return exact === value;
  if (typeof pattern === "string") return fullMatch(pattern, value);
  return true;
}

const VERIFY_REASONS: Record<string, string> = {
  ERR_JWT_EXPIRED: "the OIDC token has expired",
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: "the OIDC token's signature does not verify against the issuer's keys",
  ERR_JWKS_NO_MATCHING_KEY: "no key of the issuer matches the OIDC token's signing key",
  ERR_JWS_INVALID: "the OIDC token is not a valid JWS",
  ERR_JWT_INVALID: "the OIDC token is not a valid JWT",
};

export async function exchangeToken(deps: ExchangeDeps, params: Params, authorization: string | undefined) {
  const aud = getString(params, "aud");
  if (!aud) throw invalidField("aud", `is required: the API base URL (${deps.audiences[0]})`);
  if (!deps.audiences.includes(aud.replace(/\/+$/, "")))
    throw invalidField("aud", `must be one of ${deps.audiences.join(", ")}, got "${aud}"`);
  const identityUid = getString(params, "identity");
  if (!identityUid) throw invalidField("identity", "is required: the uid of the identity to assume");
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  if (!bearer) throw unauthenticated("send the OIDC token as Authorization: Bearer <token>");

  const identity = deps.store.of("identities").get(identityUid);
  if (!identity) throw unauthenticated(`identity "${identityUid}" does not exist`);
  const claimMatch = (identity.data.claimMatch ?? {}) as Record<string, unknown>;
  const claims = peekClaims(bearer);
  if (!claims) throw unauthenticated("the OIDC token is not a JWT");
  const issuer = typeof claims.iss === "string" ? claims.iss : "";
  if (!issuer) throw unauthenticated("the OIDC token has no iss claim");
  if (!matches(claimMatch.issuer, claimMatch.issuerPattern, issuer)) {
    throw unauthenticated(
      `the OIDC token's issuer "${issuer}" does not match the claimMatch of identity "${identityUid}"`,
    );
  }
  const jwks = issuer === deps.devIssuer ? deps.oidc.jwks() : deps.trusted.get(issuer);
  if (!jwks) throw unauthenticated(`the issuer "${issuer}" is not trusted by this emulator`);

  const verified = await deps.oidc.verify(bearer, jwks, issuer, deps.clock.now());
  if (!verified.ok) {
    const why =
      VERIFY_REASONS[verified.code] ??
      (verified.claim
        ? `the OIDC token's ${verified.claim} claim is invalid: ${verified.message}`
        : `the OIDC token is invalid: ${verified.message}`);
    throw unauthenticated(why);
  }
  const payload = verified.payload;
  const subject = typeof payload.sub === "string" ? payload.sub : "";
  if (!matches(claimMatch.subject, claimMatch.subjectPattern, subject)) {
    throw unauthenticated(
      `the OIDC token's subject "${subject}" does not match the claimMatch of identity "${identityUid}"`,
    );
  }
  if (claimMatch.audience !== undefined || claimMatch.audiencePattern !== undefined) {
    const audiences = Array.isArray(payload.aud)
      ? payload.aud.map(String)
      : typeof payload.aud === "string"
        ? [payload.aud]
        : [];
    if (!audiences.some((a) => matches(claimMatch.audience, claimMatch.audiencePattern, a))) {
      throw unauthenticated(
        `the OIDC token's audience ${JSON.stringify(payload.aud ?? null)} does not match the claimMatch of identity "${identityUid}"`,
      );
    }
  }
  for (const [claim, expected] of Object.entries((claimMatch.claims ?? {}) as Record<string, string>)) {
    if (textOf(payload[claim]) !== expected)
      throw unauthenticated(
        `the OIDC token's ${claim} claim does not match the claimMatch of identity "${identityUid}"`,
      );
  }
  for (const [claim, pattern] of Object.entries((claimMatch.claimPatterns ?? {}) as Record<string, string>)) {
    if (!fullMatch(pattern, textOf(payload[claim])))
      throw unauthenticated(
        `the OIDC token's ${claim} claim does not match the claimMatch of identity "${identityUid}"`,
      );
  }
  // The identity may have gone while the signature was being checked.
  const current = deps.store.of("identities").get(identityUid);
  if (!current) throw unauthenticated(`identity "${identityUid}" does not exist`);
  deps.store.of("identities").update(current, (r) => (r.data.lastSeenTime = deps.clock.now()));
  deps.store.changed();
  return deps.auth.issue(identityUid, deps.tokenTtlSeconds);
}
