/**
 * The ExternalGroupRoleMapping provider. This module's exports ARE the provider object, so
 * when the package is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/iam/externalGroupRoleMappingProvider.js")`: a shim
 * that loads the package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { shown } from "../../provider/values";

const externalGroupRoleMapping: ResourceKind = {
  typeName: "ExternalGroupRoleMapping",
  noun: "external group role mapping",
  domain: "iam",
  collection: "externalGroupRoleMappings",
  message: "iam.ExternalGroupRoleMapping",
  inputs: (f) =>
    f.z.strictObject({
      identityProviderUid: f.uid("an identity provider"),
      externalGroupId: f.text(),
      roleUid: f.uid("a role", "segment"),
      // The documents give no form for the scope: a free string, capped like every other one.
      scope: f.optionalText(1024).optional(),
    }),
  // The create path names the identity provider; the mapping's uid is the provider's plus one segment.
  parentField: "identityProviderUid",
  writable: ["externalGroupId", "roleUid", "scope"],
  // The API has no update for mappings: every change is a new mapping.
  replaceOn: ["identityProviderUid", "externalGroupId", "roleUid", "scope"],
  label: (props) =>
    `external group role mapping${props.uid ? ` ${shown(props.uid)}` : ""}` +
    `${props.externalGroupId ? ` of external group "${shown(props.externalGroupId)}"` : ""}` +
    `${props.roleUid ? ` to role "${shown(props.roleUid)}"` : ""}` +
    `${!props.uid && props.identityProviderUid ? ` on identity provider "${shown(props.identityProviderUid)}"` : ""}`,
  // Mappings have no name and the service takes duplicates; the List filters by identity
  // provider only, so the external group, the role and the scope tell them apart.
  naturalKey: (inputs) => ({ identityProviderUid: shown(inputs.identityProviderUid) }),
  keyFields: ["externalGroupId", "roleUid", "scope"],
  duplicatesAllowed: true,
  alreadyExistsHint:
    "the identity provider already maps this external group to this role; remove this mapping from the program, " +
    "delete the other one, or refer to it with platform.iam.ExternalGroupRoleMapping.get(name, uid)",
};

export = defineProvider(externalGroupRoleMapping);
