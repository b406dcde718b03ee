/**
 * A role granted to an identity within a group: everything the package knows about the kind,
 * and the only place it is written. Its provider, class and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";
import { isObject, parentOfUid, shown } from "../../../core/common/values";

const uidOf = (value: unknown): string | undefined =>
  isObject(value) && typeof value.uid === "string" ? value.uid : undefined;

const roleBinding: ResourceKind = {
  typeName: "RoleBinding",
  noun: "role binding",
  domain: "iam",
  collection: "roleBindings",
  message: "iam.RoleBinding",
  docs: {
    summary: "A role granted to an identity within a group, managed by Pulumi. Its id is the binding's uid.",
    example: {
      name: "ci-viewer",
      inputs: {
        groupUid: { $uidOf: "Group" },
        identityUid: { $uidOf: "Identity" },
        roleUid: { $lookup: "iam.getRole", args: { name: "viewer" }, field: "uid" },
      },
    },
    fields: {
      uid: "The binding's uid. Same as `id`.",
      groupUid: "The group the role applies to. Changing it replaces the binding.",
      roleUid: 'A role\'s uid, e.g. from `getRole({ name: "viewer" })`.',
      identity: "The binding's identity, as the API hydrates it.",
      group: "The binding's group, as the API hydrates it.",
      role: "The binding's role, as the API hydrates it.",
    },
    replacedWhen:
      "`groupUid` or `identityUid` changes (the service deletes an identity's bindings with it; see Reliability)",
  },
  inputs: (f) =>
    f.z.strictObject({
      groupUid: f.uid("a group"),
      identityUid: f.uid("an identity"),
      roleUid: f.uid("a role", "segment"),
    }),
  parentField: "groupUid",
  parentCollection: "groups",
  writable: ["identityUid", "roleUid"],
  // Deleting an identity deletes its bindings with it, so a binding of another identity is
  // another binding: when an identity is replaced (deleted first, under the same name), its
  // bindings are replaced with it rather than PATCHed after the service deleted them. A role
  // is replaced only under another group (created first), so a binding moves to the new role by
  // PATCH before the old role, and what the service deletes with it, goes.
  replaceOn: ["groupUid", "identityUid"],
  // The flat uids are what inputs are compared with; a server that only hydrates still yields them.
  toOutputs: (record) => ({
    ...record,
    groupUid: uidOf(record.group) ?? parentOfUid(record.uid),
    identityUid: record.identityUid ?? uidOf(record.identity),
    roleUid: record.roleUid ?? uidOf(record.role),
  }),
  label: (props) => {
    const parts = [
      props.roleUid ? `role "${shown(props.roleUid)}"` : "",
      props.identityUid ? `for identity "${shown(props.identityUid)}"` : "",
      props.groupUid ? `on group "${shown(props.groupUid)}"` : "",
    ].filter(Boolean);
    return `role binding${props.uid ? ` ${shown(props.uid)}` : ""}${parts.length ? ` (${parts.join(" ")})` : ""}`;
  },
  // Group, identity and role: at most one binding holds them.
  naturalKey: (inputs) => ({
    "uidp.children_of": shown(inputs.groupUid),
    identity: shown(inputs.identityUid),
    role: shown(inputs.roleUid),
  }),
  keyFields: ["identityUid", "roleUid"],
  alreadyExistsHint:
    "the identity already holds this role on the group through another binding; remove this RoleBinding from the program, " +
    "or delete the other binding, or refer to it with platform.iam.RoleBinding.get(name, uid)",
};

export default roleBinding;
