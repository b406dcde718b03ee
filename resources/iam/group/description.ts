/**
 * A group of the organization hierarchy: everything the package knows about the kind, and the
 * only place it is written. Its provider, class, look-ups and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";

/** The documented rule for a group's name; the emulator enforces the same one. */
export const GROUP_NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;

const group: ResourceKind = {
  typeName: "Group",
  noun: "group",
  domain: "iam",
  collection: "groups",
  message: "iam.Group",
  docs: {
    summary:
      "A group of the organization hierarchy, managed by Pulumi: it lives under a parent group (the root\n" +
      "organization for a top-level group) and holds identities, roles, repos and child groups. Its id is its uid.",
    example: {
      name: "team",
      inputs: { parentUid: { $config: "rootUid" }, name: "team", description: "The team" },
    },
    fields: {
      parentUid:
        "The group this one lives under (the root organization's uid for a top-level group). Changing it replaces the group.",
      name: "Must match ^[a-z0-9 ._-]{1,}$ and be unique among the parent's groups.",
      description: '"" when none was given.',
      verified: "false for newly created groups.",
      resourceLimits: "An empty object in v2 answers.",
      kind: "Only answered for root groups.",
    },
  },
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(GROUP_NAME_PATTERN),
      description: f.optionalText().optional(),
    }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "description"],
  replaceOn: ["parentUid"],
  alreadyExistsHint:
    "choose another name, delete the existing group, or refer to it with platform.iam.Group.get(name, uid) instead of creating it",
  explainDeleteRefusal: (error) => {
    const held = error.preconditionViolations.map((v) => v.description).join("; ") || error.serviceMessage;
    return (
      `the group still has repos, child groups or identities (${held}). ` +
      "Delete or move them first (repos are managed outside this program), or keep the group: " +
      "set `retainOnDelete: true` on it, or drop it from the state with `pulumi state delete <urn>`"
    );
  },
};

export default group;
