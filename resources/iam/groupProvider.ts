/**
 * The Group provider. This module's exports ARE the provider object, so when the package is
 * installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/iam/groupProvider.js")`: a shim that loads the
 * package's current code at call time, so fixes reach refresh and destroy of old stacks, and
 * no config, token or machine path is captured in the state.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";

const GROUP_NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;

const group: ResourceKind = {
  typeName: "Group",
  noun: "group",
  domain: "iam",
  collection: "groups",
  message: "iam.Group",
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(GROUP_NAME_PATTERN),
      description: f.optionalText().optional(),
    }),
  parentField: "parentUid",
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

export = defineProvider(group);
