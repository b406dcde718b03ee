/**
 * Look-ups of group invites that already exist: `getGroupInvite({ uid })`,
 * `getGroupInvites({ childrenOf, keyId })`. Never with a code: the service answers it only to
 * the create.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { collectionOf } from "../../../core/program/kindLookups";
import { lazily } from "../../../core/common/lazyZod";
import { InputArgs, defineLookup, findOne, listArgs, listRecords } from "../../../core/program/lookup";
import { uidString } from "../../../core/common/uid";
import provider = require("./provider");
import type { GroupInviteRecord } from "./resource";

/** The role an invite grants, as the API describes it. */
export type GroupInviteRole = NonNullable<GroupInviteRecord["role"]>;

/** What a look-up needs of an invite record; its type is the generated GroupInviteRecord (./resource). */
export const groupInviteSchema = lazily(
  (z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<GroupInviteRecord>,
);

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
