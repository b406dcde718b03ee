/**
 * Look-ups of groups and identities that already exist (managed elsewhere or by hand):
 * `getGroup({ uid })`, `getGroup({ name, childrenOf })`, `getGroups(...)`, `getIdentities(...)`.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  Collection,
  defineLookup,
  findOne,
  InputArgs,
  listArgs,
  listRecords,
  LookupOptions,
  oneByUidOrName,
  OneByUidOrNameArgs,
} from "../../provider/lookup";

// Group and Identity are the names of the managed resource classes; what a look-up
// returns is a plain record of the service's fields, hence GroupRecord / IdentityRecord.
export const groupRecordSchema = z.looseObject({
  uid: z.string(),
  name: z.string(),
  description: z.string().optional(),
  verified: z.boolean().optional(),
  resourceLimits: z.record(z.string(), z.unknown()).optional(),
  kind: z.string().optional(),
  status: z.string().optional(),
  createTime: z.string().optional(),
  updateTime: z.string().optional(),
});
export type GroupRecord = z.infer<typeof groupRecordSchema>;
const groups: Collection<GroupRecord> = {
  domain: "iam",
  collection: "groups",
  noun: "group",
  schema: groupRecordSchema,
};

export const identityRecordSchema = z.looseObject({
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
      claims: z.record(z.string(), z.string()).optional(),
      claimPatterns: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  lastSeenTime: z.string().optional(),
  createTime: z.string().optional(),
  updateTime: z.string().optional(),
});
export type IdentityRecord = z.infer<typeof identityRecordSchema>;
const identities: Collection<IdentityRecord> = {
  domain: "iam",
  collection: "identities",
  noun: "identity",
  schema: identityRecordSchema,
};

// ---- groups

const getGroupsArgs = z.strictObject({ ...listArgs });
export type GetGroupsArgs = z.input<typeof getGroupsArgs>;
export type GetGroupsOutputArgs = InputArgs<GetGroupsArgs>;
export interface GetGroupsResult {
  groups: GroupRecord[];
}

const groupsLookup = defineLookup("getGroups", getGroupsArgs, async (args, client): Promise<GetGroupsResult> => ({
  groups: await listRecords(client, groups, args),
}));

export function getGroups(args: GetGroupsArgs = {}, options?: LookupOptions): Promise<GetGroupsResult> {
  return groupsLookup.get(args, options);
}

export function getGroupsOutput(
  args: GetGroupsOutputArgs = {},
  options?: LookupOptions,
): pulumi.Output<GetGroupsResult> {
  return groupsLookup.output(args, options);
}

export type GetGroupArgs = OneByUidOrNameArgs;
export type GetGroupOutputArgs = InputArgs<GetGroupArgs>;

const groupLookup = defineLookup("getGroup", oneByUidOrName, (args, client): Promise<GroupRecord> =>
  findOne(client, groups, args),
);

export function getGroup(args: GetGroupArgs, options?: LookupOptions): Promise<GroupRecord> {
  return groupLookup.get(args, options);
}

export function getGroupOutput(args: GetGroupOutputArgs, options?: LookupOptions): pulumi.Output<GroupRecord> {
  return groupLookup.output(args, options);
}

// ---- identities

const getIdentitiesArgs = z.strictObject({ ...listArgs, relationshipType: z.string().min(1).optional() });
export type GetIdentitiesArgs = z.input<typeof getIdentitiesArgs>;
export type GetIdentitiesOutputArgs = InputArgs<GetIdentitiesArgs>;
export interface GetIdentitiesResult {
  identities: IdentityRecord[];
}

const identitiesLookup = defineLookup(
  "getIdentities",
  getIdentitiesArgs,
  async (args, client): Promise<GetIdentitiesResult> => ({
    identities: await listRecords(client, identities, args, { relationshipType: "relationship_type" }),
  }),
);

export function getIdentities(args: GetIdentitiesArgs = {}, options?: LookupOptions): Promise<GetIdentitiesResult> {
  return identitiesLookup.get(args, options);
}

export function getIdentitiesOutput(
  args: GetIdentitiesOutputArgs = {},
  options?: LookupOptions,
): pulumi.Output<GetIdentitiesResult> {
  return identitiesLookup.output(args, options);
}
