/**
 * A role granted to the members of an identity provider's external group: everything the
 * package knows about the kind, and the only place it is written. Its provider, class,
 * look-ups and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";
import { shown } from "../../../core/common/values";

const externalGroupRoleMapping: ResourceKind = {
  typeName: "ExternalGroupRoleMapping",
  noun: "external group role mapping",
  domain: "iam",
  collection: "externalGroupRoleMappings",
  message: "iam.ExternalGroupRoleMapping",
  docs: {
    summary:
      "A role granted to the members of a group of an identity provider's directory (an \"external\n" +
      "group\", as the provider's directory names it), managed by Pulumi. Its id is the mapping's uid\n" +
      '(the identity provider\'s uid, "/", one more segment). The API cannot change a mapping in\n' +
      "place: any change replaces it (the new one is created before the old one is deleted).",
    example: {
      name: "admins",
      inputs: {
        identityProviderUid: { $uidOf: "IdentityProvider" },
        externalGroupId: "platform-admins",
        roleUid: { $lookup: "iam.getRole", args: { name: "owner" }, field: "uid" },
      },
    },
    fields: {
      uid: "The mapping's uid: the identity provider's uid, \"/\", one more segment. Same as `id`.",
      adopted: "true when the record existed and was taken over (`adopt`) rather than created.",
      identityProviderUid: "The identity provider whose directory holds the external group.",
      externalGroupId: "The group's id in the identity provider's directory.",
      roleUid: "The role its members get (a built-in role, or a custom role usable on the identity provider's group).",
      scope: 'Where the role applies, as the API takes it; "" (the default) when not set.',
      adopt:
        "Take over an existing mapping of the same external group, role and scope on the identity\n" +
        "provider instead of creating one (see the adoption guide, docs/guides/existing-organization.md). Never sent to the API. Defaults\n" +
        "to the stack-wide `platform:adopt`.",
    },
    replacedWhen:
      "any input changes (the API has no mapping update): the new mapping is created before the old one is deleted",
  },
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
  parentCollection: "identityProviders",
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

export default externalGroupRoleMapping;
