/**
 * A role granted to an identity within a group, managed by Pulumi. Its id is the binding's uid.
 *
 *     new platform.iam.RoleBinding("ci-viewer", { groupUid: team.uid, identityUid: ci.uid, roleUid: viewer.uid });
 */
import * as pulumi from "@pulumi/pulumi";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import provider = require("./roleBindingProvider");

export interface RoleBindingArgs extends AdoptByUid {
  /** The group the role applies to. Changing it replaces the binding. */
  groupUid: pulumi.Input<string>;
  identityUid: pulumi.Input<string>;
  /** A role's uid, e.g. from `getRole({ name: "viewer" })`. */
  roleUid: pulumi.Input<string>;
  /**
   * Take over an existing record with the same natural key instead of failing with ALREADY_EXISTS
   * (then one PATCH brings it to the declared values). Never sent to the API. Defaults to the
   * stack-wide `platform:adopt` (PLATFORM_ADOPT), off unless set.
   */
  adopt?: pulumi.Input<boolean>;
}

/** The references of a binding, as the API hydrates them. */
export interface BoundIdentity {
  uid: string;
  name: string;
  description: string;
  subject: string;
  issuer: string;
}
export interface BoundGroup {
  uid: string;
  name: string;
  description: string;
}
export interface BoundRole {
  uid: string;
  name: string;
  description: string;
}

const TYPE = "pulumi-nodejs:dynamic/iam:RoleBinding";

export class RoleBinding extends ApiResource {
  /** The binding's uid. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly identityUid: pulumi.Output<string>;
  declare readonly roleUid: pulumi.Output<string>;
  declare readonly identity: pulumi.Output<BoundIdentity>;
  declare readonly group: pulumi.Output<BoundGroup>;
  declare readonly role: pulumi.Output<BoundRole>;
  declare readonly createTime: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;

  /** An existing binding, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): RoleBinding {
    return new RoleBinding(name, undefined as unknown as RoleBindingArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is RoleBinding {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: RoleBindingArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      groupUid: undefined,
      identityUid: undefined,
      roleUid: undefined,
      identity: undefined,
      group: undefined,
      role: undefined,
      createTime: undefined,
      adopted: undefined,
    };
    super(provider, name, { ...outputs, ...args }, opts, "iam", "RoleBinding");
  }
}
