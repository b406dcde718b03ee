/**
 * Identity providers of a group: how its people sign in (OIDC), the role they get by default,
 * and SCIM provisioning state (changed only through the SCIM token verbs). The OIDC client
 * secret is kept but never answered.
 */
import { FieldViolation, invalidField } from "../errors";
import { KindRules } from "./kind";
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

export const identityProviders: KindRules = {
  writeOnly: ["oidc.clientSecret"],
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
  // The SCIM token's hash is kept in the record's scim and, undocumented, never answered.
  defaults: { description: "", scim: SCIM_NOT_ISSUED },
};
