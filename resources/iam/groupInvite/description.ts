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

/**
 * A protobuf Duration as JSON: whole seconds, an optional fraction (nanoseconds), then "s"
 * ("86400s", "0.5s"); at most nine digits of seconds, about 31 years.
 */
const DURATION = /^(\d{1,9})(\.\d{1,9})?s$/;

/** An address the invite is meant for: one "@" with something on each side, no whitespace. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

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
      ttl: f.z.string(f.expecting('a duration string such as "86400s"')).superRefine((value, ctx) => {
        const parsed = DURATION.exec(value);
        if (!parsed)
          ctx.addIssue({
            code: "custom",
            message: `must be a duration in seconds such as "86400s" (digits, an optional fraction, then "s"); "${value.slice(0, 40)}" is not one`,
          });
        else if (Number(parsed[1]) === 0 && !/[1-9]/.test(parsed[2] ?? ""))
          ctx.addIssue({ code: "custom", message: "must be longer than zero seconds" });
      }),
      email: f.text().regex(EMAIL, "must be an email address (name@domain)").optional(),
      singleUse: f.z.boolean(f.expecting("true or false")).optional(),
    }),
  parentField: "groupUid",
  writable: ["roleUid", "ttl", "email", "singleUse"],
  // The API has no update for invites: every change is a new invite (with a new code).
  replaceOn: ["groupUid", "roleUid", "ttl", "email", "singleUse"],
  // The code redeems the invite: a Pulumi secret, answered once, by the create.
  secrets: ["code"],
  onlyAtCreate: ["code"],
  // Never the email (a person's address) nor the code: the uid, the role and the group say which.
  label: (props) =>
    `group invite${props.uid ? ` ${shown(props.uid)}` : ""}` +
    `${props.roleUid ? ` for role "${shown(props.roleUid)}"` : ""}` +
    `${!props.uid && props.groupUid ? ` on group "${shown(props.groupUid)}"` : ""}`,
  // Invites have no name and the service takes duplicates: the same role, ttl, email and
  // single-use flag on the same group is the same invite.
  naturalKey: (inputs) => ({ "uidp.children_of": shown(inputs.groupUid) }),
  keyFields: ["roleUid", "ttl", "email", "singleUse"],
  duplicatesAllowed: true,
  alreadyExistsHint:
    "the group already has this invite; remove it from the program, delete the other one, " +
    "or refer to it with platform.iam.GroupInvite.get(name, uid)",
};

export = defineProvider(groupInvite);
