/**
 * Look-ups of groups and identities that already exist (managed elsewhere or by hand):
 * `getGroup({ uid })`, `getGroup({ name, childrenOf })`, `getGroups(...)`, `getIdentities(...)`.
 * Where each lives in the API comes from the kinds' descriptions.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { kindLookups } from "../../provider/kindLookups";
import { Z, lazily } from "../../provider/lazyZod";
import { mapOf } from "../../provider/mapSchema";
import { InputArgs, ListArgs, OneByUidOrNameArgs } from "../../provider/lookup";
import groupProvider = require("./group/provider");
import type { GroupRecord } from "./group/resource";
import identityProvider = require("./identityProvider");

// Group and Identity are the names of the managed resource classes; what a look-up
// returns is a plain record of the service's fields, hence GroupRecord / IdentityRecord.
// Schemas are built on first use (provider/lazyZod.ts): call identityRecordSchema() for the schema.
/** What a look-up needs of a group record; its type is the generated GroupRecord (group/resource.ts). */
export const groupRecordSchema = lazily((z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<GroupRecord>);

export const identityRecordSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    name: z.string(),
    description: z.string().optional(),
    company: z.string().optional(),
    email: z.string().optional(),
    claimMatch: z
      .looseObject({
        issuer: z.string().optional(),
        issuerPattern: z.string().optional(),
        subject: z.string().optional(),
        subjectPattern: z.string().optional(),
        audience: z.string().optional(),
        audiencePattern: z.string().optional(),
        // Maps as mapOf reads them: every key kept, `__proto__` included.
        claims: mapOf(z, z.string()).optional(),
        claimPatterns: mapOf(z, z.string()).optional(),
      })
      .optional(),
    lastSeenTime: z.string().optional(),
    createTime: z.string().optional(),
    updateTime: z.string().optional(),
  }),
);
export type IdentityRecord = z.infer<ReturnType<typeof identityRecordSchema>>;

// ---- groups

export type GetGroupsArgs = ListArgs;
export type GetGroupsOutputArgs = InputArgs<GetGroupsArgs>;
export interface GetGroupsResult {
  groups: GroupRecord[];
}

const groups = kindLookups<GroupRecord, GetGroupsResult>(groupProvider.kind, groupRecordSchema);

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

// ---- identities

const identityListArgs = (z: Z) => ({ relationshipType: z.string().min(1).optional() });
export type GetIdentitiesArgs = ListArgs & { relationshipType?: string };
export type GetIdentitiesOutputArgs = InputArgs<GetIdentitiesArgs>;
export interface GetIdentitiesResult {
  identities: IdentityRecord[];
}

const identities = kindLookups<IdentityRecord, GetIdentitiesResult>(identityProvider.kind, identityRecordSchema, {
  extraArgs: identityListArgs,
  wireNames: { relationshipType: "relationship_type" },
});

export function getIdentities(
  args: GetIdentitiesArgs = {},
  options?: pulumi.InvokeOptions,
): Promise<GetIdentitiesResult> {
  return identities.many.get(args, options);
}

export function getIdentitiesOutput(
  args: GetIdentitiesOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetIdentitiesResult> {
  return identities.many.output(args, options);
}

export type GetIdentityArgs = OneByUidOrNameArgs;
export type GetIdentityOutputArgs = InputArgs<GetIdentityArgs>;

/** One identity by uid, or by exact name within an optional scope; an error on none or several. */
export function getIdentity(args: GetIdentityArgs, options?: pulumi.InvokeOptions): Promise<IdentityRecord> {
  return identities.one.get(args, options);
}

export function getIdentityOutput(
  args: GetIdentityOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<IdentityRecord> {
  return identities.one.output(args, options);
}
