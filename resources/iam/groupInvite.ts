/**
 * An invite to a group with a role, managed by Pulumi. Its `code` (what the invited person
 * redeems) is answered only when the invite is created, and is a Pulumi secret. Any change
 * makes a new invite with a new code.
 *
 *     const invite = new platform.iam.GroupInvite("new-dev", {
 *         groupUid: team.uid, roleUid: viewer.uid, ttl: "604800s" });
 *     export const code = invite.code; // a secret
 */
import * as pulumi from "@pulumi/pulumi";
import provider = require("./groupInviteProvider");

export interface GroupInviteArgs {
  groupUid: pulumi.Input<string>;
  /** The role the invited person gets on the group. */
  roleUid: pulumi.Input<string>;
  /** How long the invite may be redeemed, in seconds: "604800s". */
  ttl: pulumi.Input<string>;
  /** Only this address may redeem it. */
  email?: pulumi.Input<string>;
  /** Redeemable once. */
  singleUse?: pulumi.Input<boolean>;
  /** See Group: take over an existing record instead of failing (invites never collide). */
  adopt?: pulumi.Input<boolean>;
}

export interface InvitedRole {
  uid: string;
  name: string;
  description: string;
  capabilities: string[];
}

const TYPE = "pulumi-nodejs:dynamic/iam:GroupInvite";

export class GroupInvite extends pulumi.dynamic.Resource {
  declare readonly uid: pulumi.Output<string>;
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly roleUid: pulumi.Output<string>;
  declare readonly role: pulumi.Output<InvitedRole>;
  declare readonly ttl: pulumi.Output<string>;
  declare readonly email: pulumi.Output<string>;
  declare readonly singleUse: pulumi.Output<boolean>;
  /** The redeemable code: a secret, known only from the create. */
  declare readonly code: pulumi.Output<string>;
  /** Identifies the code without revealing it. */
  declare readonly keyId: pulumi.Output<string>;
  declare readonly expirationTime: pulumi.Output<string>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly adopted: pulumi.Output<boolean | undefined>;

  /** An existing invite, read by uid; not managed, and without its code. */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): GroupInvite {
    return new GroupInvite(name, undefined as unknown as GroupInviteArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is GroupInvite {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: GroupInviteArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      groupUid: undefined,
      roleUid: undefined,
      role: undefined,
      ttl: undefined,
      email: undefined,
      singleUse: undefined,
      code: undefined,
      keyId: undefined,
      expirationTime: undefined,
      createTime: undefined,
      adopted: undefined,
    };
    const secrets = [...(opts?.additionalSecretOutputs ?? []), ...(provider.kind.secrets ?? [])];
    super(provider, name, { ...outputs, ...args }, { ...opts, additionalSecretOutputs: secrets }, "iam", "GroupInvite");
  }
}
