/**
 * IAM operations beyond the collections' own verbs: group and identity look-ups, access
 * requests, identity metadata, account association checks and the batch verbs (SCIM tokens
 * and terms have their own modules). Each answers its documented message, deterministically.
 */
import { capability } from "../capabilities";
import { Context } from "../context";
import { OperationHandler } from "../dispatch";
import { ApiError, invalidArgument, invalidField, notFound } from "../errors";
import { createResource, deleteResource } from "../handlers";
import { inSubtree } from "../ids";
import { answerOf } from "../kinds/answer";
import { removeRecord } from "../kinds/registry";
import { PROVIDERS } from "../kinds/accountAssociations";
import { getString } from "../params";
import { fullMatch } from "../patterns";
import { Rec } from "../store";
import { recordFor } from "./access";

/** The caller's top-most group: where its first binding with group read access sits. */
function callerGroup(ctx: Context): Rec {
  const [top] = ctx.principal.scope(capability(ctx, "groups", "LIST"));
  const group = top ? ctx.store.of("groups").get(top) : undefined;
  if (!group) throw notFound("group", "(the caller's organization)");
  return group;
}

function matchesExactOrPattern(exact: unknown, pattern: unknown, value: string): boolean {
  if (typeof exact === "string" && exact !== "") return exact === value;
  if (typeof pattern === "string" && pattern !== "") return fullMatch(pattern, value);
  return false;
}

const lookupGroup: OperationHandler = (ctx) => ({ group: answerOf(ctx, ctx.kinds.groups, callerGroup(ctx)) });

/** Eligible to create an organization's groups: the caller may create groups somewhere. */
const checkEligibility: OperationHandler = (ctx) => ({
  eligible: ctx.principal.scope(capability(ctx, "groups", "CREATE")).length > 0,
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
  const cap = capability(ctx, "identities", "LIST");
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

const PROVIDER_OF_TYPE: Record<string, (typeof PROVIDERS)[number]> = {
  ACCOUNT_PROVIDER_TYPE_GOOGLE: "google",
  ACCOUNT_PROVIDER_TYPE_AMAZON: "amazon",
  ACCOUNT_PROVIDER_TYPE_AZURE: "azure",
};

/** READY when the association configures the provider asked about. */
const checkAccountAssociation: OperationHandler = (ctx, { pathParams, body }) => {
  const rec = recordFor(ctx, "accountAssociations", pathParams.uid, capability(ctx, "accountAssociations", "LIST"));
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
  recordFor(ctx, "identityProviders", parent, capability(ctx, "externalGroupRoleMappings", "DELETE"));
  const names = (body.names as string[]) ?? [];
  const mappings = names.map((uid, i) => {
    const rec = ctx.store.of("externalGroupRoleMappings").get(uid);
    if (!rec || rec.parentUid !== parent)
      throw invalidField(`names[${i}]`, `"${uid}" is not a mapping of identity provider "${parent}"`);
    return rec;
  });
  const answer = mappings.map((rec) => answerOf(ctx, ctx.kinds.externalGroupRoleMappings, rec));
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
  const def = ctx.kinds.roleBindings;
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

export const IAM_OPERATIONS: Record<string, OperationHandler> = {
  GroupsService_LookupGroup: lookupGroup,
  GroupsService_CheckEligibility: checkEligibility,
  GroupsService_RequestGroupAccess: requestGroupAccess,
  IdentitiesService_LookupIdentity: lookupIdentity,
  IdentitiesService_UpdateIdentityMetadata: updateIdentityMetadata,
  AccountAssociationsService_CheckAccountAssociation: checkAccountAssociation,
  ExternalGroupRoleMappingsService_BatchDeleteExternalGroupRoleMappings: batchDeleteMappings,
  RoleBindingsService_BatchCreateRoleBindings: batchCreateRoleBindings,
};
