/**
 * An image repo of the registry, managed by Pulumi. Its id is the repo's uid.
 *
 *     new platform.registry.Repo("app", { parentUid: team.uid, name: "app", catalogTier: "CATALOG_TIER_APPLICATION" });
 *
 * Deleting a repo deletes its tags and images, so it is refused unless the program allows it:
 * set `allowDelete: true`, run `pulumi up`, then remove the repo or destroy the stack.
 */
import * as pulumi from "@pulumi/pulumi";
import { hostSafeInputs, restoreMapOutputs } from "../../provider/programMaps";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import type { CatalogTier } from "./catalogTier";
import provider = require("./repoProvider");

/** Where a repo's images are synced from and to (`sync_config` on the wire). */
export interface SyncConfigArgs {
  source: pulumi.Input<string>;
  amazon?: pulumi.Input<string>;
  azure?: pulumi.Input<string>;
  google?: pulumi.Input<string>;
}
export interface SyncConfig {
  source: string;
  amazon?: string;
  azure?: string;
  google?: string;
}
/** What the service adds to a repo's sync configuration (read-only). */
export interface SyncState {
  apkoOverlay?: string;
  expirationTime?: string;
  gracePeriod?: boolean;
  uniqueTags?: boolean;
}

export interface NamedContent {
  name: string;
  content: string;
}
/** The documented registry.CustomOverlay message: what is layered onto a repo's images. */
export interface CustomOverlay {
  accounts?: {
    groups?: Array<{ groupname: string; gid?: number; members?: string[] }>;
    runAs?: string;
    users?: Array<{
      username: string;
      uid?: number;
      gid?: number;
      groupName?: string;
      homeDir?: string;
      shell?: string;
    }>;
  };
  annotations?: Record<string, string>;
  certificates?: { additional?: NamedContent[]; providers?: string[] };
  contents?: { packages?: string[]; runtimeKeyring?: NamedContent[]; runtimeRepositories?: string[] };
  environment?: Record<string, string>;
}

export interface RepoArgs extends AdoptByUid {
  /** The group the repo lives in. Changing it replaces the repo (which needs `allowDelete`). */
  parentUid: pulumi.Input<string>;
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  bundles?: pulumi.Input<pulumi.Input<string>[]>;
  aliases?: pulumi.Input<pulumi.Input<string>[]>;
  /** A documented registry.CatalogTier other than CATALOG_TIER_UNSPECIFIED; leave it out for none. */
  catalogTier?: pulumi.Input<Exclude<CatalogTier, "CATALOG_TIER_UNSPECIFIED">>;
  syncConfig?: pulumi.Input<SyncConfigArgs>;
  customOverlay?: pulumi.Input<CustomOverlay>;
  /**
   * The repo's readme (markdown, at most 65,536 characters): written after the create and when it
   * changes, read with the repo, so an edit made elsewhere shows as drift. Left out, no readme
   * request is sent; removed from the program, the readme stays as it is and is no longer managed.
   */
  readme?: pulumi.Input<string>;
  /**
   * Allows Pulumi to delete the repo (and so its tags and images): on `pulumi destroy`, when it
   * is removed from the program, or when a change replaces it. Kept in the state, never sent
   * to the API; it takes effect once a `pulumi up` has stored it.
   */
  allowDelete?: pulumi.Input<boolean>;
  /**
   * Take over an existing record with the same natural key instead of creating one (see
   * README, adoption). Never sent to the API. Defaults to the stack-wide `platform:adopt`.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/registry:Repo";
/** The inputs (and outputs) that hold maps. */
const MAP_FIELDS: readonly (keyof RepoArgs)[] = ["customOverlay"];

export class Repo extends ApiResource {
  /** The repo's uid: the group's uid, "/", one more segment. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  /** "" when none was given. */
  declare readonly description: pulumi.Output<string>;
  declare readonly bundles: pulumi.Output<string[]>;
  declare readonly aliases: pulumi.Output<string[]>;
  /** Absent when none was given. */
  declare readonly catalogTier: pulumi.Output<CatalogTier | undefined>;
  declare readonly syncConfig: pulumi.Output<SyncConfig | undefined>;
  declare readonly syncState: pulumi.Output<SyncState | undefined>;
  declare readonly customOverlay: pulumi.Output<CustomOverlay | undefined>;
  /** Absent when the program sets none (then it is not read either). */
  declare readonly readme: pulumi.Output<string | undefined>;
  /** The tags the service counts as active (set by the service). */
  declare readonly activeTags: pulumi.Output<string[]>;
  declare readonly allowDelete: pulumi.Output<boolean | undefined>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  /** An existing repo, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Repo {
    return new Repo(name, undefined as unknown as RepoArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is Repo {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: RepoArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      adopted: undefined,
      parentUid: undefined,
      name: undefined,
      description: undefined,
      bundles: undefined,
      aliases: undefined,
      catalogTier: undefined,
      syncConfig: undefined,
      syncState: undefined,
      customOverlay: undefined,
      readme: undefined,
      activeTags: undefined,
      allowDelete: undefined,
      createTime: undefined,
      updateTime: undefined,
    };
    // Map inputs and outputs may hold keys the SDK drops (`__proto__`): provider/programMaps.ts.
    super(provider, name, { ...outputs, ...hostSafeInputs(args, MAP_FIELDS) }, opts, "registry", "Repo");
    restoreMapOutputs(this, MAP_FIELDS);
  }
}
