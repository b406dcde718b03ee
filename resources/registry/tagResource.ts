/**
 * A tag of a repo (a name pointing at an image digest), managed by Pulumi. Its id is the tag's uid.
 *
 *     new platform.registry.Tag("latest", { repoUid: app.uid, name: "latest", digest: "sha256:…" });
 *
 * The API cannot change a tag in place: any change replaces it (a new digest under the same
 * name deletes the old tag first).
 */
import * as pulumi from "@pulumi/pulumi";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import provider = require("./tagProvider");

export interface TagArgs extends AdoptByUid {
  /** The repo the tag belongs to. */
  repoUid: pulumi.Input<string>;
  name: pulumi.Input<string>;
  /** sha256: followed by 64 lowercase hex characters. */
  digest: pulumi.Input<string>;
  deprecated?: pulumi.Input<boolean>;
  bundles?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Take over an existing record with the same natural key instead of creating one (see
   * README, adoption). Never sent to the API. Defaults to the stack-wide `platform:adopt`.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/registry:Tag";

export class Tag extends ApiResource {
  /** The tag's uid: the repo's uid, "/", one more segment. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  declare readonly repoUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly digest: pulumi.Output<string>;
  declare readonly deprecated: pulumi.Output<boolean>;
  declare readonly bundles: pulumi.Output<string[]>;
  declare readonly updateTime: pulumi.Output<string>;

  /** An existing tag, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Tag {
    return new Tag(name, undefined as unknown as TagArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is Tag {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: TagArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      adopted: undefined,
      repoUid: undefined,
      name: undefined,
      digest: undefined,
      deprecated: undefined,
      bundles: undefined,
      updateTime: undefined,
    };
    super(provider, name, { ...outputs, ...args }, opts, "registry", "Tag");
  }
}
