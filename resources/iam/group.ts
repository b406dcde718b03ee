/**
 * A group of the organization hierarchy, managed by Pulumi. Its id is the group's uid.
 *
 *     const team = new platform.iam.Group("team", { parentUid: org.uid, name: "team" });
 */
import * as pulumi from "@pulumi/pulumi";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import provider = require("./groupProvider");

export interface GroupArgs extends AdoptByUid {
  /**
   * The group this one lives under (the root organization's uid for a top-level group).
   * Changing it replaces the group.
   */
  parentUid: pulumi.Input<string>;
  /** Must match ^[a-z0-9 ._-]{1,}$ and be unique among the parent's groups. */
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /**
   * Take over an existing record with the same natural key instead of failing with ALREADY_EXISTS
   * (then one PATCH brings it to the declared values). Never sent to the API. Defaults to the
   * stack-wide `platform:adopt` (PLATFORM_ADOPT), off unless set.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/iam:Group";

export class Group extends ApiResource {
  /** The group's uid: the parent's uid, "/", one more segment. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  /** "" when none was given. */
  declare readonly description: pulumi.Output<string>;
  /** false for newly created groups. */
  declare readonly verified: pulumi.Output<boolean>;
  /** An empty object in v2 answers. */
  declare readonly resourceLimits: pulumi.Output<Record<string, number>>;
  /** Only answered for root groups. */
  declare readonly kind: pulumi.Output<string | undefined>;
  declare readonly status: pulumi.Output<string | undefined>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;

  /** An existing group, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Group {
    return new Group(name, undefined as unknown as GroupArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is Group {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      parentUid: undefined,
      name: undefined,
      description: undefined,
      verified: undefined,
      resourceLimits: undefined,
      kind: undefined,
      status: undefined,
      createTime: undefined,
      updateTime: undefined,
      adopted: undefined,
    };
    super(provider, name, { ...outputs, ...args }, opts, "iam", "Group");
  }
}
