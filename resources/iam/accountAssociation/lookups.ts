/**
 * Look-ups of account associations that already exist: `getAccountAssociation({ uid: groupUid })`
 * or by name, `getAccountAssociations({ descendantsOf })` (the associations of the groups below a
 * group; `childrenOf`: of its child groups).
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { kindLookups } from "../../../core/program/kindLookups";
import { lazily } from "../../../core/common/lazyZod";
import { mapOf } from "../../../core/model/mapSchema";
import { InputArgs, ListArgs, OneByUidOrNameArgs } from "../../../core/program/lookup";
import provider = require("./provider");
import type { AccountAssociationArgs, AccountAssociationRecord } from "./resource";

// The blocks' types as a program writes them, under the names the package exports.
type Block<K extends keyof AccountAssociationArgs> = NonNullable<pulumi.Unwrap<AccountAssociationArgs[K]>>;
export type AmazonAccount = Block<"amazon">;
export type AzureAccount = Block<"azure">;
export type GoogleAccount = Block<"google">;
export type GitHubAccount = Block<"github">;
export type GitHubInstallation = NonNullable<
  NonNullable<GitHubAccount["appInstallations"]>[string]["installations"]
>[number];
export type ChainguardAccount = Block<"chainguard">;

/**
 * What a look-up needs of an association record; its type is the generated
 * AccountAssociationRecord (./resource). Its maps are read as mapOf reads them: every key kept,
 * `__proto__` included.
 */
export const accountAssociationSchema = lazily(
  (z) =>
    z.looseObject({
      uid: z.string(),
      azure: z.looseObject({ clientIds: mapOf(z, z.string()).optional() }).optional(),
      chainguard: z.looseObject({ serviceBindings: mapOf(z, z.string()).optional() }).optional(),
      github: z.looseObject({ appInstallations: mapOf(z, z.unknown()).optional() }).optional(),
    }) as unknown as z.ZodType<AccountAssociationRecord>,
);

export type GetAccountAssociationsArgs = ListArgs;
export type GetAccountAssociationsOutputArgs = InputArgs<GetAccountAssociationsArgs>;
export interface GetAccountAssociationsResult {
  accountAssociations: AccountAssociationRecord[];
}
export type GetAccountAssociationArgs = OneByUidOrNameArgs;
export type GetAccountAssociationOutputArgs = InputArgs<GetAccountAssociationArgs>;

const associations = kindLookups<AccountAssociationRecord, GetAccountAssociationsResult>(
  provider.kind,
  accountAssociationSchema,
);

/** One association by uid, or by exact name within an optional scope; an error on none or several. */
export function getAccountAssociation(
  args: GetAccountAssociationArgs,
  options?: pulumi.InvokeOptions,
): Promise<AccountAssociationRecord> {
  return associations.one.get(args, options);
}
export function getAccountAssociationOutput(
  args: GetAccountAssociationOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<AccountAssociationRecord> {
  return associations.one.output(args, options);
}
/** Every association matching the filters (scope with childrenOf: the group's uid). */
export function getAccountAssociations(
  args: GetAccountAssociationsArgs = {},
  options?: pulumi.InvokeOptions,
): Promise<GetAccountAssociationsResult> {
  return associations.many.get(args, options);
}
export function getAccountAssociationsOutput(
  args: GetAccountAssociationsOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetAccountAssociationsResult> {
  return associations.many.output(args, options);
}
