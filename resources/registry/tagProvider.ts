/**
 * The Tag provider. This module's exports ARE the provider object, so when the package is
 * installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/registry/tagProvider.js")`: a shim that loads the
 * package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";

const DIGEST = /^sha256:[0-9a-f]{64}$/;

const tag: ResourceKind = {
  typeName: "Tag",
  noun: "tag",
  domain: "registry",
  collection: "tags",
  message: "registry.Tag",
  inputs: (f) =>
    f.z.strictObject({
      repoUid: f.uid("a repo"),
      name: f.name(),
      digest: f.z
        .string(f.expecting("a string"))
        .regex(DIGEST, "must be sha256: followed by 64 lowercase hex characters"),
      deprecated: f.z.boolean(f.expecting("true or false")).optional(),
      bundles: f.list(f.text()).optional(),
    }),
  parentField: "repoUid",
  writable: ["name", "digest", "deprecated", "bundles"],
  // The API has no update for tags: every change is a new tag (the old one deleted first when
  // the name stays, since a repo holds one tag of a name).
  replaceOn: ["repoUid", "name", "digest", "deprecated", "bundles"],
  // A tag has no createTime, and no update: its updateTime is never before its creation.
  createdAtField: "updateTime",
  alreadyExistsHint:
    "the repo already has a tag of that name (pushed or made elsewhere); choose another name, delete that tag, " +
    "or refer to it with platform.registry.Tag.get(name, uid)",
};

export = defineProvider(tag);
