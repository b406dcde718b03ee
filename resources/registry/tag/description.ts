/**
 * A tag of a repo: everything the package knows about the kind, and the only place it is
 * written. Its provider, class, look-ups and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";

const DIGEST = /^sha256:[0-9a-f]{64}$/;

const tag: ResourceKind = {
  typeName: "Tag",
  noun: "tag",
  domain: "registry",
  collection: "tags",
  message: "registry.Tag",
  docs: {
    summary:
      "A tag of a repo (a name pointing at an image digest), managed by Pulumi. Its id is the tag's uid.\n\n" +
      "The API cannot change a tag in place: any change replaces it (a new digest under the same\n" +
      "name deletes the old tag first).",
    example: {
      name: "latest",
      inputs: {
        repoUid: { $uidOf: "Repo" },
        name: "latest",
        digest: "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      },
    },
    fields: {
      uid: "The tag's uid: the repo's uid, \"/\", one more segment. Same as `id`.",
      repoUid: "The repo the tag belongs to.",
      digest: "sha256: followed by 64 lowercase hex characters.",
    },
    replacedWhen:
      "any input changes (the API has no tag update); a new digest under the same name deletes the old tag first",
  },
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
  parentCollection: "repos",
  writable: ["name", "digest", "deprecated", "bundles"],
  // The API has no update for tags: every change is a new tag (the old one deleted first when
  // the name stays, since a repo holds one tag of a name).
  replaceOn: ["repoUid", "name", "digest", "deprecated", "bundles"],
  // A tag has no createTime, and no update: its updateTime is never before its creation.
  createdAtField: "updateTime",
  // Tags of a build date, an epoch or a referrer are listed only when asked for.
  listEveryRecord: { include_referrers: true, include_dates: true, include_epochs: true },
  alreadyExistsHint:
    "the repo already has a tag of that name (pushed or made elsewhere); choose another name, delete that tag, " +
    "or refer to it with platform.registry.Tag.get(name, uid)",
};

export default tag;
