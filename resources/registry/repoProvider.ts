/**
 * The Repo provider. This module's exports ARE the provider object, so when the package is
 * installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/registry/repoProvider.js")`: a shim that loads the
 * package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { Props, isObject, parentOfUid, setOwn } from "../../provider/values";
import { CATALOG_TIERS } from "./catalogTier";
import { customOverlay } from "./customOverlay";

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

export = defineProvider(repo);
