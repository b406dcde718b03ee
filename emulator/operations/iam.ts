/**
 * IAM operations beyond the collections' own verbs: group and identity look-ups, access
 * requests, identity metadata, SCIM tokens of identity providers, account association
 * checks, batch verbs and terms. Each answers its documented message, deterministically.
 */
import { createHash, randomBytes } from "node:crypto";
import { capability, OTHER_CAPABILITIES } from "../capabilities";
import { Context } from "../context";
import { OperationHandler, OperationRequest } from "../dispatch";
import { ApiError, failedPrecondition, invalidArgument, invalidField, notFound } from "../errors";
import { createResource, deleteResource, listResources } from "../handlers";
import { inSubtree, childUid } from "../ids";
import { iso } from "../kinds/kind";
import { RESOURCES, removeRecord } from "../kinds/registry";
import { PROVIDERS } from "../kinds/accountAssociations";
import { SCIM_NOT_ISSUED } from "../kinds/identityProviders";
import { getString } from "../params";
import { fullMatch } from "../patterns";
import { makeRec, Rec } from "../store";
import { recordFor, requireCapability } from "./access";

/** The caller's top-most group: where its first binding with group read access sits. */
function callerGroup(ctx: Context): Rec {
  const [top] = ctx.principal.scope(capability("groups", "LIST"));
  const group = top ? ctx.store.of("groups").get(top) : undefined;
  if (!group) throw notFound("group", "(the caller's organization)");
  return group;
}

function matchesExactOrPattern(exact: unknown, pattern: unknown, value: string): boolean {
  if (typeof exact === "string" && exact !== "") return exact === value;
  if (typeof pattern === "string" && pattern !== "") return fullMatch(pattern, value);
  return false;
}

const lookupGroup: OperationHandler = (ctx) => ({ group: RESOURCES.groups.render(callerGroup(ctx), ctx.store) });

/** Eligible to create an organization's groups: the caller may create groups somewhere. */
const checkEligibility: OperationHandler = (ctx) => ({
  eligible: ctx.principal.scope(capability("groups", "CREATE")).length > 0,
});

/** Access is requested of the group's administrators; the group must exist. Nothing is answered. */
const requestGroupAccess: OperationHandler = (ctx, { pathParams }) => {
  const uid = pathParams.groupUid;
  if (!ctx.store.of("groups").get(uid)) throw notFound("group", uid);
  return {};
};

/** The identity (among those the caller may read) that a token of this issuer and subject would assume. */
const lookupIdentity: OperationHandler = (ctx, { params }) => {
  const issuer = getString(params, "issuer") ?? "";
  const subject = getString(params, "subject") ?? "";
  const cap = capability("identities", "LIST");
  for (const group of ctx.principal.scope(cap)) {
    const range = ctx.store.of("identities").indexes.uid.items.filter((r) => inSubtree(r.uid, group));
    const found = range.find((r) => {
      const claim = (r.data.claimMatch ?? r.data.staticKeys) as Record<string, unknown> | undefined;
      return (
        claim !== undefined &&
        matchesExactOrPattern(claim.issuer, claim.issuerPattern, issuer) &&
        matchesExactOrPattern(claim.subject, claim.subjectPattern, subject)
      );
    });
    if (found) return { uid: found.uid };
  }
  throw notFound("identity", `issuer=${issuer} subject=${subject}`);
};

const METADATA_WRITABLE = [
  "company",
  "hubspotUtk",
  "jobTitle",
  "latestFormSubmitUrl",
  "latestInternalReferringUrl",
  "product",
  "selfServe",
  "updatesOptIn",
  "utmCampaign",
  "utmContent",
  "utmMedium",
  "utmSource",
  "utmTerm",
];

/** The caller's own identity metadata; the body's updateMask (comma list) picks the fields. */
const updateIdentityMetadata: OperationHandler = (ctx, { body }) => {
  const identity = ctx.store.of("identities").get(ctx.principal.identityUid);
  if (!identity) throw notFound("identity", ctx.principal.identityUid);
  const given = (body.identityMetadata ?? {}) as Record<string, unknown>;
  const mask = typeof body.updateMask === "string" && body.updateMask.trim() !== "" ? body.updateMask.split(",") : null;
  const fields = (mask ?? Object.keys(given).filter((k) => METADATA_WRITABLE.includes(k))).map((f) => f.trim());
  const unknown = fields.find((f) => !METADATA_WRITABLE.includes(f));
  if (unknown !== undefined) throw invalidField("updateMask", `"${unknown}" is not a writable identity metadata field`);
  const metadata = { ...((identity.data.metadata ?? {}) as Record<string, unknown>) };
  for (const field of fields) {
    if (given[field] === undefined) delete metadata[field];
    else metadata[field] = given[field];
  }
  ctx.store.of("identities").update(identity, (r) => (r.data.metadata = metadata));
  ctx.store.changed();
  return { uid: identity.uid, name: identity.name, ...metadata };
};

// SCIM tokens: the token is answered once; only its hash is kept.
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

const PROVIDER_OF_TYPE: Record<string, (typeof PROVIDERS)[number]> = {
  ACCOUNT_PROVIDER_TYPE_GOOGLE: "google",
  ACCOUNT_PROVIDER_TYPE_AMAZON: "amazon",
  ACCOUNT_PROVIDER_TYPE_AZURE: "azure",
};

/** READY when the association configures the provider asked about. */
const checkAccountAssociation: OperationHandler = (ctx, { pathParams, body }) => {
  const rec = recordFor(ctx, "accountAssociations", pathParams.uid, capability("accountAssociations", "LIST"));
  const provider = PROVIDER_OF_TYPE[String(body.providerType)];
  if (!provider) throw invalidField("providerType", "must name a provider (GOOGLE, AMAZON or AZURE)");
  return rec.data[provider]
    ? { status: "CHECK_STATUS_READY", reason: "CONFIGURED", message: `the ${provider} account is associated` }
    : {
        status: "CHECK_STATUS_NOT_READY",
        reason: "NOT_CONFIGURED",
        message: `association "${rec.uid}" has no ${provider} account`,
      };
};

/** Deletes every named mapping of the provider, or none. */
const batchDeleteMappings: OperationHandler = (ctx, { body }) => {
  const parent = String(body.parent);
  recordFor(ctx, "identityProviders", parent, capability("externalGroupRoleMappings", "DELETE"));
  const names = (body.names as string[]) ?? [];
  const mappings = names.map((uid, i) => {
    const rec = ctx.store.of("externalGroupRoleMappings").get(uid);
    if (!rec || rec.parentUid !== parent)
      throw invalidField(`names[${i}]`, `"${uid}" is not a mapping of identity provider "${parent}"`);
    return rec;
  });
  const answer = mappings.map((rec) => RESOURCES.externalGroupRoleMappings.render(rec, ctx.store));
  for (const rec of mappings) removeRecord(ctx, "externalGroupRoleMappings", rec);
  ctx.store.changed();
  return { parent, externalGroupRoleMappings: answer };
};

function prefixed(error: unknown, prefix: string): unknown {
  if (!(error instanceof ApiError) || error.code !== 3) return error;
  const bad = error.details.find((d) => d["@type"] === "type.googleapis.com/google.rpc.BadRequest") as
    { fieldViolations: Array<{ field: string; description: string }> } | undefined;
  return bad
    ? invalidArgument(bad.fieldViolations.map((v) => ({ field: `${prefix}${v.field}`, description: v.description })))
    : error;
}

/** Creates every binding or none: a failure undoes the ones created before it. */
const batchCreateRoleBindings: OperationHandler = (ctx, { body }) => {
  const def = RESOURCES.roleBindings;
  const created: Array<Record<string, unknown>> = [];
  const requests = (body.requests as Array<{ parent: string; roleBinding: Record<string, unknown> }>) ?? [];
  try {
    requests.forEach((request, i) => {
      const parent = request.parent || String(body.parent);
      if (!inSubtree(parent, String(body.parent)))
        throw invalidField(`requests[${i}].parent`, `must be "${String(body.parent)}" or below it`);
      const binding = { ...request.roleBinding };
      if (binding.roleUid === undefined && typeof body.roleUid === "string") binding.roleUid = body.roleUid;
      try {
        created.push(createResource(ctx, def, parent, binding));
      } catch (error) {
        throw prefixed(error, `requests[${i}].roleBinding.`);
      }
    });
  } catch (error) {
    for (const binding of created) deleteResource(ctx, def, String(binding.uid));
    throw error;
  }
  return { roleBindings: created };
};

const listTerms: OperationHandler = (ctx, { pathParams, params }) => {
  const group = pathParams.group;
  recordFor(ctx, "groups", group, capability("termsAcceptances", "LIST"));
  const scoped = new Map(params);
  scoped.set("uidp.children_of", [group]);
  for (const key of ["uidp.descendants_of", "uidp.ids", "uidp.ancestors_of", "uidp.in_root", "name"])
    scoped.delete(key);
  return listResources(ctx, RESOURCES.termsAcceptances, scoped);
};

/** Records the caller's acceptance of each document once; accepting again changes nothing. */
const acceptTerms: OperationHandler = (ctx, { pathParams, body }) => {
  const group = pathParams.group;
  recordFor(ctx, "groups", group, capability("termsAcceptances", "CREATE"));
  const ids = (body.documentIds as string[]) ?? [];
  if (ids.length === 0) throw invalidField("documentIds", "must name at least one document");
  const coll = ctx.store.of("termsAcceptances");
  for (const docId of ids) {
    if (coll.named(docId).some((r) => r.parentUid === group)) continue;
    const now = ctx.clock.now();
    coll.add(
      makeRec({
        uid: childUid(group),
        parentUid: group,
        name: docId,
        createTime: now,
        updateTime: now,
        data: { acceptedBy: ctx.principal.identityUid },
      }),
    );
  }
  ctx.store.changed();
  return { group, documentIds: ids };
};

export const IAM_OPERATIONS: Record<string, OperationHandler> = {
  GroupsService_LookupGroup: lookupGroup,
  GroupsService_CheckEligibility: checkEligibility,
  GroupsService_RequestGroupAccess: requestGroupAccess,
  IdentitiesService_LookupIdentity: lookupIdentity,
  IdentitiesService_UpdateIdentityMetadata: updateIdentityMetadata,
  IdentityProvidersService_GenerateScimToken: generateScimToken,
  IdentityProvidersService_RegenerateScimToken: regenerateScimToken,
  IdentityProvidersService_RevokeScimToken: revokeScimToken,
  IdentityProvidersService_SetScimEnabled: setScimEnabled,
  AccountAssociationsService_CheckAccountAssociation: checkAccountAssociation,
  ExternalGroupRoleMappingsService_BatchDeleteExternalGroupRoleMappings: batchDeleteMappings,
  RoleBindingsService_BatchCreateRoleBindings: batchCreateRoleBindings,
  TermsService_ListTermsAcceptances: listTerms,
  TermsService_AcceptTerms: acceptTerms,
};

export { requireCapability };
