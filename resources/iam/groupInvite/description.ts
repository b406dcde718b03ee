/**
 * An invite to a group with a role: everything the package knows about the kind, and the only
 * place it is written. Its provider, class, look-ups and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";
import { shown } from "../../../core/common/values";

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
  docs: {
    summary:
      "An invite to a group with a role, managed by Pulumi; its id is the invite's uid. Whoever\n" +
      "redeems its `code` before it expires (`ttl` after its creation) joins the group with the role.\n" +
      "The API cannot change an invite in place: any change replaces it, with a new code.",
    example: {
      name: "alice",
      inputs: {
        groupUid: { $uidOf: "Group" },
        roleUid: { $lookup: "iam.getRole", args: { name: "viewer" }, field: "uid" },
        ttl: "86400s",
        email: "alice@example.com",
        singleUse: true,
      },
      exports: ["uid", "code"],
    },
    fields: {
      uid: "The invite's uid: the group's uid, \"/\", one more segment. Same as `id`.",
      adopted: "true when the record existed and was taken over (`adopt`) rather than created.",
      groupUid: "The group the invite is to. Changing it replaces the invite.",
      roleUid: "The role the invited get on the group (a built-in role such as viewer, or a custom role usable there).",
      ttl: 'How long the invite can be redeemed, as a duration in seconds: "86400s" for a day.',
      email: 'Whom the invite is for; anyone holding the code when absent ("" in the outputs then).',
      singleUse: "The invite can be redeemed once.",
      adopt:
        "Take over an existing invite with the same group, role, ttl, email and single-use flag\n" +
        "instead of creating one (see the adoption guide, docs/guides/existing-organization.md); it has no `code`. Never sent to the API.\n" +
        "Defaults to the stack-wide `platform:adopt`.",
      code:
        "What redeems the invite: a Pulumi secret, answered only to the create, in the state and the outputs; no\n" +
        "message shows it. Absent for an invite taken over (`adopt`, or an export) or read with `GroupInvite.get`: the\n" +
        "service never answers it again; replace the invite for a new one.",
      keyId: "Names the invite's key without revealing it: what `getGroupInvites({ keyId })` finds it by.",
      expirationTime: "When the invite stops being redeemable (its creation plus `ttl`), RFC 3339.",
      role: "The role, as the API describes it: uid, name, description, capabilities.",
    },
    replacedWhen:
      "any input changes (the API has no invite update): the new invite, with a new code, is created before the old one is deleted",
  },
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
  parentCollection: "groups",
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

export default groupInvite;
