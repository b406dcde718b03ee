/**
 * A custom role defined on a group (usable on that group's subtree), managed by Pulumi. Its id
 * is the role's uid. Built-in roles (viewer, editor, owner) are looked up with `getRole`.
 *
 *     const auditor = new platform.iam.Role("auditor", { parentUid: org.uid, name: "auditor",
 *         capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"] });
 */
import * as pulumi from "@pulumi/pulumi";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import type { Capability } from "./enums";
import provider = require("./roleProvider");

export interface RoleArgs extends AdoptByUid {
  /** The group the role is defined on. Changing it replaces the role. */
  parentUid: pulumi.Input<string>;
  /** Unique among the group's roles. */
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** What the role grants, from the documented capability enum; order does not matter. */
  capabilities?: pulumi.Input<pulumi.Input<Capability>[]>;
  /** Take over an existing role of the same name on the group instead of failing (see Group). */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/iam:Role";

export class Role extends ApiResource {
  /** The role's uid (one segment). Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  /** "" when none was given. */
  declare readonly description: pulumi.Output<string>;
  declare readonly capabilities: pulumi.Output<Capability[]>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;
  /** true when the role existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;

  /** An existing role, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Role {
    return new Role(name, undefined as unknown as RoleArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is Role {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      parentUid: undefined,
      name: undefined,
      description: undefined,
      capabilities: undefined,
      createTime: undefined,
      updateTime: undefined,
      adopted: undefined,
    };
    super(provider, name, { ...outputs, ...args }, opts, "iam", "Role");
  }
}
