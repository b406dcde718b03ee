/**
 * Look-ups of groups that already exist (managed elsewhere or by hand): `getGroup({ uid })`,
 * `getGroup({ name, childrenOf })`, `getGroups(...)`. Where groups live in the API comes from
 * the kind's description.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { kindLookups } from "../../../core/program/kindLookups";
import { lazily } from "../../../core/common/lazyZod";
import { InputArgs, ListArgs, OneByUidOrNameArgs } from "../../../core/program/lookup";
import provider = require("./provider");
import type { GroupRecord } from "./resource";

// Group is the name of the managed resource class; what a look-up returns is a plain record of
// the service's fields, hence GroupRecord. Schemas are built on first use (core/common/lazyZod.ts).
/** What a look-up needs of a group record; its type is the generated GroupRecord (resource.ts). */
export const groupRecordSchema = lazily((z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<GroupRecord>);

export type GetGroupsArgs = ListArgs;
export type GetGroupsOutputArgs = InputArgs<GetGroupsArgs>;
export interface GetGroupsResult {
  groups: GroupRecord[];
}

const groups = kindLookups<GroupRecord, GetGroupsResult>(provider.kind, groupRecordSchema);

export function getGroups(args: GetGroupsArgs = {}, options?: pulumi.InvokeOptions): Promise<GetGroupsResult> {
  return groups.many.get(args, options);
}

export function getGroupsOutput(
  args: GetGroupsOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetGroupsResult> {
  return groups.many.output(args, options);
}

export type GetGroupArgs = OneByUidOrNameArgs;
export type GetGroupOutputArgs = InputArgs<GetGroupArgs>;

export function getGroup(args: GetGroupArgs, options?: pulumi.InvokeOptions): Promise<GroupRecord> {
  return groups.one.get(args, options);
}

export function getGroupOutput(
  args: GetGroupOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GroupRecord> {
  return groups.one.output(args, options);
}
