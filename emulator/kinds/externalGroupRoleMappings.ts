/** Roles granted to the groups of an identity provider's directory (the create path names the provider). */
import { invalidField } from "../errors";
import { getString } from "../params";
import { Rec } from "../store";
import { crud, KindRules } from "./kind";
import { usableRole } from "./roleBindings";

export const externalGroupRoleMappings: KindRules = {
  parentKind: "identityProviders",
  // Mappings grant roles to an identity provider's groups: managed like role bindings.
  capabilities: crud("CAP_IAM_ROLE_BINDINGS"),
  references: { roleUid: "roles" },
  alsoRequired: ["externalGroupId", "roleUid"],
  beforeWrite: (ctx, providerUid, values) => {
    const provider = ctx.store.of("identityProviders").get(providerUid);
    const groupUid = String(provider?.parentUid);
    if (typeof values.roleUid === "string" && !usableRole(ctx, values.roleUid, groupUid))
      throw invalidField("roleUid", `role "${values.roleUid}" does not exist or is not usable on "${groupUid}"`);
  },
  defaults: { scope: "" },
  derived: (rec) => ({ identityProviderUid: rec.parentUid }),
  filters: (params) => {
    const provider = getString(params, "identity_provider_uid");
    return { predicates: provider ? [(r: Rec) => r.parentUid === provider] : [], signature: [provider] };
  },
};
