/**
 * An invite to a group with a role, managed by Pulumi; its id is the invite's uid. Whoever
 * redeems its `code` before it expires (`ttl` after its creation) joins the group with the role.
 * The API cannot change an invite in place: any change replaces it, with a new code.
 *
 *     const invite = new platform.iam.GroupInvite("alice", {
 *       groupUid: team.uid, roleUid: viewer.uid, ttl: "86400s", email: "alice@example.com", singleUse: true });
 *     export const code = invite.code; // a Pulumi secret
 *
 * `code` is answered once, by the create: it is a Pulumi secret in the state and the outputs,
 * and no message shows it. An invite taken over with `adopt` (or an export) has no code: the
 * service never answers it again, so `code` is absent; replace the invite for a new one.
 *
 * Look-ups: `getGroupInvite({ uid })`, `getGroupInvites({ childrenOf, keyId })`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import { withSecretOutputs } from "../../provider/secretOutputs";
import type { z } from "zod";
import { collectionOf } from "../../provider/kindLookups";
import { lazily } from "../../provider/lazyZod";
import { InputArgs, defineLookup, findOne, listArgs, listRecords } from "../../provider/lookup";
import { uidString } from "../../provider/uid";
import provider = require("./groupInviteProvider");

export interface GroupInviteArgs extends AdoptByUid {
  /** The group the invite is to. Changing it replaces the invite. */
  groupUid: pulumi.Input<string>;
  /** The role the invited get on the group (a built-in role such as viewer, or a custom role usable there). */
  roleUid: pulumi.Input<string>;
  /** How long the invite can be redeemed, as a duration in seconds: "86400s" for a day. */
  ttl: pulumi.Input<string>;
  /** Whom the invite is for; anyone holding the code when absent. */
  email?: pulumi.Input<string>;
  /** The invite can be redeemed once. */
  singleUse?: pulumi.Input<boolean>;
  /**
   * Take over an existing invite with the same group, role, ttl, email and single-use flag
   * instead of creating one (see README, adoption); it has no `code`. Never sent to the API.
   * Defaults to the stack-wide `platform:adopt`.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/iam:GroupInvite";

export class GroupInvite extends ApiResource {
  /** The invite's uid: the group's uid, "/", one more segment. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly roleUid: pulumi.Output<string>;
  declare readonly ttl: pulumi.Output<string>;
  /** "" when none was given. */
  declare readonly email: pulumi.Output<string>;
  declare readonly singleUse: pulumi.Output<boolean>;
  /**
   * What redeems the invite: a Pulumi secret, answered only to the create. Absent for an invite
   * taken over (`adopt`) or read with `GroupInvite.get`.
   */
  declare readonly code: pulumi.Output<string | undefined>;
  /** Names the invite's key without revealing it: what `getGroupInvites({ keyId })` finds it by. */
  declare readonly keyId: pulumi.Output<string>;
  /** When the invite stops being redeemable (its creation plus `ttl`), RFC 3339. */
  declare readonly expirationTime: pulumi.Output<string>;
  /** The role, as the API describes it: uid, name, description, capabilities. */
  declare readonly role: pulumi.Output<GroupInviteRole | undefined>;
  declare readonly createTime: pulumi.Output<string>;

  /** An existing invite, read by uid; not managed (deleting the stack leaves it alone). It has no `code`. */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): GroupInvite {
    return new GroupInvite(name, undefined as unknown as GroupInviteArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is GroupInvite {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: GroupInviteArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      adopted: undefined,
      groupUid: undefined,
      roleUid: undefined,
      ttl: undefined,
      email: undefined,
      singleUse: undefined,
      code: undefined,
      keyId: undefined,
      expirationTime: undefined,
      role: undefined,
      createTime: undefined,
    };
    super(
      provider,
      name,
      { ...outputs, ...args },
      withSecretOutputs(opts, provider.kind.secrets ?? []),
      "iam",
      "GroupInvite",
    );
  }
}

export interface GroupInviteRole {
  uid: string;
  name: string;
  description?: string;
  capabilities?: string[];
}

export const groupInviteSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    roleUid: z.string(),
    ttl: z.string().optional(),
    email: z.string().optional(),
    singleUse: z.boolean().optional(),
    keyId: z.string().optional(),
    expirationTime: z.string().optional(),
    createTime: z.string().optional(),
  }),
);
/** An invite as look-ups return it: never with a code (the service answers it only to the create). */
export type GroupInviteRecord = z.infer<ReturnType<typeof groupInviteSchema>>;

const groupInvites = collectionOf<GroupInviteRecord>(provider.kind, groupInviteSchema);
// Invites have no name: the documented List filters are the uid scopes and the key id.
const getGroupInvitesArgs = lazily((z) => {
  const { name: _unnamed, ...scopes } = listArgs();
  return z.strictObject({ ...scopes, keyId: z.string().min(1, "must not be empty").optional() });
});
export type GetGroupInvitesArgs = z.input<ReturnType<typeof getGroupInvitesArgs>>;
export type GetGroupInvitesOutputArgs = InputArgs<GetGroupInvitesArgs>;
export interface GetGroupInvitesResult {
  groupInvites: GroupInviteRecord[];
}
const getGroupInviteArgs = lazily((z) => z.strictObject({ uid: uidString("path") }));
export type GetGroupInviteArgs = z.input<ReturnType<typeof getGroupInviteArgs>>;
export type GetGroupInviteOutputArgs = InputArgs<GetGroupInviteArgs>;

const manyLookup = defineLookup("getGroupInvites", getGroupInvitesArgs, async (args, client) => ({
  groupInvites: await listRecords(client, groupInvites, args, { keyId: "key_id" }),
}));
const oneLookup = defineLookup("getGroupInvite", getGroupInviteArgs, (args, client) =>
  findOne(client, groupInvites, args),
);

/** One invite by uid. */
export function getGroupInvite(args: GetGroupInviteArgs, options?: pulumi.InvokeOptions): Promise<GroupInviteRecord> {
  return oneLookup.get(args, options);
}
export function getGroupInviteOutput(
  args: GetGroupInviteOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GroupInviteRecord> {
  return oneLookup.output(args, options);
}
/** Every invite matching the filters (scope with childrenOf: the group's uid). */
export function getGroupInvites(
  args: GetGroupInvitesArgs = {},
  options?: pulumi.InvokeOptions,
): Promise<GetGroupInvitesResult> {
  return manyLookup.get(args, options);
}
export function getGroupInvitesOutput(
  args: GetGroupInvitesOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetGroupInvitesResult> {
  return manyLookup.output(args, options);
}
