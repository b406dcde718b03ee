/**
 * An image repo of the registry: everything the package knows about the kind, and the only
 * place it is written. Its provider, class, look-ups and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";
import { Props, isObject, parentOfUid, setOwn } from "../../../core/common/values";
import { CATALOG_TIERS } from "../catalogTier";
import { customOverlay } from "../customOverlay";

/** The members of registry.SyncConfig a program sets; the others are the service's (read-only). */
const SYNC_INPUTS = ["source", "amazon", "azure", "google"];

/**
 * A repo's sync_config as two outputs: `syncConfig`, what the program sets (so diff compares
 * like with like), and `syncState`, what the service adds (expirationTime, gracePeriod, ...).
 */
function splitSync(sync: unknown): Props {
  if (!isObject(sync)) return {};
  const syncConfig: Props = {};
  const syncState: Props = {};
  for (const [key, value] of Object.entries(sync))
    setOwn(SYNC_INPUTS.includes(key) ? syncConfig : syncState, key, value);
  return { syncConfig, ...(Object.keys(syncState).length ? { syncState } : {}) };
}

/** A program leaves the tier out for none; the service answers the documents' zero value for it. */
const UNSPECIFIED_TIER = "CATALOG_TIER_UNSPECIFIED";
const SETTABLE_TIERS = CATALOG_TIERS.filter((tier) => tier !== UNSPECIFIED_TIER);

const repo: ResourceKind = {
  typeName: "Repo",
  noun: "repo",
  domain: "registry",
  collection: "repos",
  message: "registry.Repo",
  docs: {
    summary:
      "An image repo of the registry, managed by Pulumi. Its id is the repo's uid.\n\n" +
      "Deleting a repo deletes its tags and images, so it is refused unless the program allows it:\n" +
      "set `allowDelete: true`, run `pulumi up`, then remove the repo or destroy the stack.",
    example: {
      name: "app",
      inputs: { parentUid: { $uidOf: "Group" }, name: "app", catalogTier: "CATALOG_TIER_APPLICATION" },
    },
    fields: {
      uid: "The repo's uid: the group's uid, \"/\", one more segment. Same as `id`.",
      parentUid: "The group the repo lives in. Changing it replaces the repo (which needs `allowDelete`).",
      description: '"" when none was given.',
      catalogTier:
        "A documented registry.CatalogTier other than CATALOG_TIER_UNSPECIFIED; leave it out for none (then it is\n" +
        "absent from the outputs too).",
      syncConfig: "Where the repo's images are synced from and to (`sync_config` on the wire).",
      syncState: "What the service adds to the repo's sync configuration (read-only).",
      customOverlay: "The documented registry.CustomOverlay message: what is layered onto the repo's images.",
      readme:
        "The repo's readme (markdown, at most 65,536 characters): written after the create and when it\n" +
        "changes, read with the repo, so an edit made elsewhere shows as drift. Left out, no readme\n" +
        "request is sent (and it is absent from the outputs); removed from the program, the readme stays as it\n" +
        "is and is no longer managed.",
      activeTags: "The tags the service counts as active (set by the service).",
      allowDelete:
        "Allows Pulumi to delete the repo (and so its tags and images): on `pulumi destroy`, when it\n" +
        "is removed from the program, or when a change replaces it. Kept in the state, never sent\n" +
        "to the API; it takes effect once a `pulumi up` has stored it.",
    },
    replacedWhen: "`parentUid` changes (needs `allowDelete`)",
  },
  // sync_config splits into the program's syncConfig and the service's additions (splitSync).
  extraOutputs: {
    syncState: {
      type: "object",
      properties: {
        apkoOverlay: { type: "string" },
        expirationTime: { type: "string", format: "date-time" },
        gracePeriod: { type: "boolean" },
        uniqueTags: { type: "boolean" },
      },
    },
  },
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      description: f.optionalText().optional(),
      bundles: f.list(f.text()).optional(),
      aliases: f.list(f.text()).optional(),
      catalogTier: f.z
        .enum(SETTABLE_TIERS, f.expecting(`one of ${SETTABLE_TIERS.join(", ")} (leave it out for none)`))
        .optional(),
      syncConfig: f.z
        .strictObject(
          {
            source: f.text(),
            amazon: f.text().optional(),
            azure: f.text().optional(),
            google: f.text().optional(),
          },
          f.expecting("an object with source"),
        )
        .optional(),
      customOverlay: customOverlay(f).optional(),
      readme: f.optionalText(f.limits.content).optional(),
      allowDelete: f.z.boolean(f.expecting("true or false")).optional(),
    }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "description", "bundles", "aliases", "catalogTier", "syncConfig", "customOverlay"],
  nested: ["syncConfig", "customOverlay"],
  replaceOn: ["parentUid"],
  wireNames: { syncConfig: "sync_config" },
  localInputs: ["allowDelete"],
  // The readme is a document of its own (GET/PATCH repos/{uid}/readme): a repo without one in
  // the program sends no readme request at all.
  companions: [{ input: "readme", suffix: "readme", message: "registry.RepoReadme", field: "content" }],
  toOutputs: ({ sync_config: sync, catalogTier, ...record }) => ({
    ...record,
    ...(catalogTier === UNSPECIFIED_TIER ? {} : { catalogTier }),
    ...splitSync(sync),
    parentUid: parentOfUid(record.uid),
  }),
  refuseDelete: (props) =>
    props.allowDelete === true
      ? undefined
      : "deleting a repo deletes its tags and images for good, so it needs the program's say-so: " +
        "set `allowDelete: true` on the Repo and run `pulumi up`, then remove it or run `pulumi destroy`; " +
        "to stop managing it but keep it, set `retainOnDelete: true` instead",
  alreadyExistsHint:
    "choose another name, delete the existing repo, or refer to it with platform.registry.Repo.get(name, uid) instead of creating it",
};

export default repo;
