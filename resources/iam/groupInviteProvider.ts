/**
 * The GroupInvite provider. This module's exports ARE the provider object, so when the package
 * is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/iam/groupInviteProvider.js")`: a shim that loads the
 * package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { shown } from "../../provider/values";

const groupInvite: ResourceKind = {
  typeName: "GroupInvite",
  noun: "group invite",
  domain: "iam",
  collection: "groupInvites",
  message: "iam.GroupInvite",
  inputs: (f) =>
    f.z.strictObject({
      groupUid: f.uid("a group"),
      roleUid: f.uid("a role", "segment"),
      ttl: f.z
        .string(f.expecting('a duration in seconds, e.g. "86400s"'))
        .regex(/^\d{1,9}(\.\d{1,9})?s$/, 'must be a duration in seconds, e.g. "86400s"'),
      email: f
        .text()
        .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, "must be an email address")
        .optional(),
      singleUse: f.z.boolean(f.expecting("true or false")).optional(),
    }),
  parentField: "groupUid",
  writable: ["roleUid", "ttl", "email", "singleUse"],
  // The service cannot change an invite: every change makes a new one (and a new code).
  replaceOn: ["groupUid", "roleUid", "ttl", "email", "singleUse"],
  secrets: ["code"],
  onlyAtCreate: ["code"],
  // Invites have no name: a lost create is found by its group, role and the rest of its fields.
  naturalKey: (inputs) => ({ "uidp.children_of": shown(inputs.groupUid) }),
  keyFields: ["roleUid"],
  label: (props) => {
    const parts = [
      props.roleUid ? `role "${shown(props.roleUid)}"` : "",
      props.groupUid ? `on group "${shown(props.groupUid)}"` : "",
    ].filter(Boolean);
    return `group invite${props.uid ? ` ${shown(props.uid)}` : ""}${parts.length ? ` (${parts.join(" ")})` : ""}`;
  },
  alreadyExistsHint: "delete the existing invite, or leave this one out of the program",
};

export = defineProvider(groupInvite);
