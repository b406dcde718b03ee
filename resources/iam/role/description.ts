/**
 * A custom role defined on a group: everything the package knows about the kind, and the only
 * place it is written. Its provider, class and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";
import { CAPABILITIES } from "../enums";

const role: ResourceKind = {
  typeName: "Role",
  noun: "role",
  domain: "iam",
  collection: "roles",
  message: "iam.Role",
  docs: {
    summary:
      "A custom role defined on a group (usable on that group's subtree), managed by Pulumi. Its id\n" +
      "is the role's uid. Built-in roles (viewer, editor, owner) are looked up with `getRole`.",
    example: {
      name: "auditor",
      inputs: {
        parentUid: { $uidOf: "Group" },
        name: "auditor",
        capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
      },
    },
    fields: {
      uid: "The role's uid (one segment). Same as `id`.",
      parentUid: "The group the role is defined on. Changing it replaces the role.",
      name: "Unique among the group's roles.",
      description: '"" when none was given.',
      capabilities: "What the role grants, from the documented capability enum; order does not matter.",
      adopt:
        "Take over an existing role of the same name on the group instead of failing with ALREADY_EXISTS (one PATCH\n" +
        "then brings it to the declared values). Never sent to the API. Defaults to the stack-wide `platform:adopt`\n" +
        "(PLATFORM_ADOPT), off unless set.",
    },
  },
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      description: f.optionalText().optional(),
      capabilities: f
        .list(
          f.z.enum(CAPABILITIES, {
            error: (issue) =>
              typeof issue.input === "string"
                ? `must be a documented capability (e.g. CAP_IAM_GROUPS_LIST, CAP_REPO_LIST); "${issue.input.slice(0, 80)}" is not one`
                : "must be a capability name (a string)",
          }),
        )
        .optional(),
    }),
  // The role's uid is one segment: where it is defined is the parentUid input, kept in the state.
  parentField: "parentUid",
  parentCollection: "groups",
  placedByParent: true,
  writable: ["name", "description", "capabilities"],
  unordered: ["capabilities"],
  replaceOn: ["parentUid"],
  alreadyExistsHint:
    "choose another name, or delete the existing role, or look it up with platform.iam.getRole({ name, childrenOf }) instead of creating it",
};

export default role;
