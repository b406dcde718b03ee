/**
 * SCIM provisioning of an identity provider: a token is generated, regenerated (with an
 * overlap during which the previous one still works), revoked; provisioning is enabled only
 * with a live token. Each change needs the current etag. The token is answered once; only
 * its hash is kept.
 */
import { createHash, randomBytes } from "node:crypto";
import { OTHER_CAPABILITIES } from "../capabilities";
import { Context } from "../context";
import { OperationHandler, OperationRequest } from "../dispatch";
import { failedPrecondition, invalidField } from "../errors";
import { iso } from "../kinds/kind";
import { SCIM_NOT_ISSUED } from "../kinds/identityProviders";
import { Rec } from "../store";
import { recordFor } from "./access";

function scimOf(rec: Rec): Record<string, unknown> {
  return { ...((rec.data.scim ?? SCIM_NOT_ISSUED) as Record<string, unknown>) };
}

function scimProvider(ctx: Context, request: OperationRequest): Rec {
  return recordFor(ctx, "identityProviders", request.pathParams.identityProviderUid, OTHER_CAPABILITIES.scim);
}

function checkEtag(scim: Record<string, unknown>, etag: unknown): void {
  if (scim.etag !== etag)
    throw failedPrecondition([
      { type: "ETAG_MISMATCH", description: "the etag does not match the provider's SCIM state; read it again" },
    ]);
}

function expiryOf(ctx: Context, body: Record<string, unknown>): string | undefined {
  if (body.neverExpires === true) return undefined;
  if (typeof body.expireTime === "string") {
    if (Date.parse(body.expireTime) <= ctx.clock.now()) throw invalidField("expireTime", "must be in the future");
    return new Date(Date.parse(body.expireTime)).toISOString();
  }
  return iso(ctx.clock.now() + 365 * 24 * 3600 * 1000);
}

function issueScimToken(ctx: Context, rec: Rec, scim: Record<string, unknown>, expireTime: string | undefined) {
  const token = `scim_${randomBytes(24).toString("base64url")}`;
  const etag = randomBytes(8).toString("hex");
  const endpointUrl = `${ctx.baseUrl}/scim/v2/${rec.uid}`;
  const next: Record<string, unknown> = {
    ...scim,
    enabled: scim.enabled ?? false,
    credentialState: "CREDENTIAL_STATE_LIVE",
    endpointUrl,
    etag,
    tokenHash: createHash("sha256").update(token).digest("hex"),
  };
  if (expireTime) next.tokenExpireTime = expireTime;
  else delete next.tokenExpireTime;
  return { token, etag, endpointUrl, next };
}

function saveScim(ctx: Context, rec: Rec, scim: Record<string, unknown>): void {
  ctx.store.of("identityProviders").update(rec, (r) => {
    r.data.scim = scim;
    r.updateTime = Math.max(ctx.clock.now(), r.updateTime);
  });
  ctx.store.changed();
}

const generateScimToken: OperationHandler = (ctx, request) => {
  const rec = scimProvider(ctx, request);
  const scim = scimOf(rec);
  if (scim.credentialState === "CREDENTIAL_STATE_LIVE" || scim.credentialState === "CREDENTIAL_STATE_ROTATING")
    throw failedPrecondition([
      { type: "TOKEN_EXISTS", description: "a SCIM token is live; regenerate or revoke it instead" },
    ]);
  const expireTime = expiryOf(ctx, request.body);
  const { token, etag, endpointUrl, next } = issueScimToken(ctx, rec, scim, expireTime);
  saveScim(ctx, rec, next);
  return { identityProviderUid: rec.uid, token, etag, endpointUrl, ...(expireTime ? { expireTime } : {}) };
};

const regenerateScimToken: OperationHandler = (ctx, request) => {
  const rec = scimProvider(ctx, request);
  const scim = scimOf(rec);
  checkEtag(scim, request.body.etag);
  const overlap = typeof request.body.overlap === "string" ? request.body.overlap : "0s";
  const seconds = /^(\d{1,9})(\.\d+)?s$/.exec(overlap);
  if (!seconds) throw invalidField("overlap", 'must be a duration in seconds, e.g. "3600s"');
  const expireTime = expiryOf(ctx, request.body);
  const { token, etag, endpointUrl, next } = issueScimToken(ctx, rec, scim, expireTime);
  const previousTokenExpireTime = iso(ctx.clock.now() + Number(seconds[1]) * 1000);
  if (Number(seconds[1]) > 0) {
    next.credentialState = "CREDENTIAL_STATE_ROTATING";
    next.previousTokenExpireTime = previousTokenExpireTime;
  }
  saveScim(ctx, rec, next);
  return {
    identityProviderUid: rec.uid,
    token,
    etag,
    endpointUrl,
    previousTokenExpireTime,
    requestedOverlap: overlap,
    ...(expireTime ? { expireTime } : {}),
  };
};

const revokeScimToken: OperationHandler = (ctx, request) => {
  const rec = scimProvider(ctx, request);
  const scim = scimOf(rec);
  const etag = randomBytes(8).toString("hex");
  const { tokenHash: _hash, ...rest } = scim;
  saveScim(ctx, rec, { ...rest, enabled: false, credentialState: "CREDENTIAL_STATE_REVOKED", etag });
  return { identityProviderUid: rec.uid, enabled: false, etag, revokeTime: iso(ctx.clock.now()) };
};

const setScimEnabled: OperationHandler = (ctx, request) => {
  const rec = scimProvider(ctx, request);
  const scim = scimOf(rec);
  checkEtag(scim, request.body.etag);
  const enabled = request.body.enabled === true;
  if (
    enabled &&
    scim.credentialState !== "CREDENTIAL_STATE_LIVE" &&
    scim.credentialState !== "CREDENTIAL_STATE_ROTATING"
  )
    throw failedPrecondition([
      { type: "NO_LIVE_TOKEN", description: "generate a SCIM token before enabling SCIM provisioning" },
    ]);
  const etag = randomBytes(8).toString("hex");
  saveScim(ctx, rec, { ...scim, enabled, etag });
  return { identityProviderUid: rec.uid, enabled, etag };
};

export const SCIM_OPERATIONS: Record<string, OperationHandler> = {
  IdentityProvidersService_GenerateScimToken: generateScimToken,
  IdentityProvidersService_RegenerateScimToken: regenerateScimToken,
  IdentityProvidersService_RevokeScimToken: revokeScimToken,
  IdentityProvidersService_SetScimEnabled: setScimEnabled,
};
