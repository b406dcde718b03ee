/**
 * Identity providers of a group: how its people sign in (OIDC), the role they get by default,
 * and SCIM provisioning state (changed only through the SCIM token verbs). The OIDC client
 * secret is kept but never answered.
 */
import identityProviderDescription from "../../resources/iam/identityProvider/description";
import { FieldViolation, invalidField } from "../errors";
import { iso, ResourceDef, servedAs } from "./kind";
import { removeRecord } from "./registry";
import { usableRole } from "./roleBindings";

export const SCIM_NOT_ISSUED = { enabled: false, credentialState: "CREDENTIAL_STATE_NOT_ISSUED" };

function httpsUrl(field: string, value: unknown): FieldViolation[] {
  if (typeof value !== "string") return [];
  try {
    const url = new URL(value);
    if (url.protocol === "https:" || (url.protocol === "http:" && url.hostname === "127.0.0.1")) return [];
  } catch {
    // reported below
  }
  return [{ field, description: "must be an https URL" }];
}

/** The SCIM state as documented (the token's hash stays inside). */
function scimAnswer(scim: unknown): Record<string, unknown> {
  const state = (scim ?? SCIM_NOT_ISSUED) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ["credentialState", "enabled", "endpointUrl", "etag", "previousTokenExpireTime", "tokenExpireTime"])
    if (state[key] !== undefined) out[key] = state[key];
  return out;
}

export const identityProviders: ResourceDef = {
  ...servedAs(identityProviderDescription),
  uniqueNames: true,
  operations: ["list", "get", "create", "update", "delete"],
  check: (values) => {
    const oidc = values.oidc as Record<string, unknown> | undefined;
    const out: FieldViolation[] = [];
    if (values.defaultRole === "") out.push({ field: "defaultRole", description: "must not be empty" });
    if (oidc) out.push(...httpsUrl("oidc.issuer", oidc.issuer));
    return out;
  },
  beforeWrite: (ctx, groupUid, values) => {
    if (typeof values.defaultRole === "string" && !usableRole(ctx, values.defaultRole, groupUid))
      throw invalidField(
        "defaultRole",
        `role "${values.defaultRole}" does not exist or is not usable on "${groupUid}"`,
      );
  },
  initialData: () => ({ scim: SCIM_NOT_ISSUED }),
  render: (rec) => {
    const { clientSecret: _secret, ...oidc } = (rec.data.oidc ?? {}) as Record<string, unknown>;
    return {
      uid: rec.uid,
      name: rec.name,
      description: rec.data.description ?? "",
      defaultRole: rec.data.defaultRole,
      ...(rec.data.oidc ? { oidc } : {}),
      scim: scimAnswer(rec.data.scim),
      createTime: iso(rec.createTime),
      updateTime: iso(rec.updateTime),
    };
  },
  onDelete: (ctx, rec) => {
    for (const mapping of ctx.store.of("externalGroupRoleMappings").children(rec.uid))
      removeRecord(ctx, "externalGroupRoleMappings", mapping);
  },
};
