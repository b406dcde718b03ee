/**
 * The Role provider (custom roles). This module's exports ARE the provider object, so when the
 * package is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/iam/roleProvider.js")`: a shim that loads the
 * package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { CAPABILITIES } from "./enums";

const role: ResourceKind = {
  typeName: "Role",
  noun: "role",
  domain: "iam",
  collection: "roles",
  message: "iam.Role",
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      description: f.optionalText().optional(),
      capabilities: f.z
        .array(
          f.z.enum(CAPABILITIES, {
            error: (issue) =>
              typeof issue.input === "string"
                ? `must be a documented capability (e.g. CAP_IAM_GROUPS_LIST, CAP_REPO_LIST); "${issue.input.slice(0, 80)}" is not one`
                : "must be a capability name (a string)",
          }),
          f.expecting("a list of capabilities"),
        )
        .max(CAPABILITIES.length, `must have at most ${CAPABILITIES.length} entries`)
        .optional(),
    }),
  // The role's uid is one segment: where it is defined is the parentUid input, kept in the state.
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "description", "capabilities"],
  unordered: ["capabilities"],
  replaceOn: ["parentUid"],
  alreadyExistsHint:
    "choose another name, or delete the existing role, or look it up with platform.iam.getRole({ name, childrenOf }) instead of creating it",
};

export = defineProvider(role);
