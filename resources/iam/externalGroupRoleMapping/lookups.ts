/**
 * Look-ups of external group role mappings that already exist: `getExternalGroupRoleMapping({ uid })`,
 * `getExternalGroupRoleMappings({ identityProviderUid })`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { collectionOf } from "../../../core/program/kindLookups";
import { lazily } from "../../../core/common/lazyZod";
import { InputArgs, defineLookup, findOne, listArgs, listRecords } from "../../../core/program/lookup";
import { uidString } from "../../../core/common/uid";
import provider = require("./provider");
import type { ExternalGroupRoleMappingRecord } from "./resource";

/** What a look-up needs of a mapping record; its type is the generated ExternalGroupRoleMappingRecord (./resource). */
export const externalGroupRoleMappingSchema = lazily(
  (z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<ExternalGroupRoleMappingRecord>,
);

const mappings = collectionOf<ExternalGroupRoleMappingRecord>(provider.kind, externalGroupRoleMappingSchema);
// Mappings have no name: the documented List filters are the uid scopes and the identity provider.
const getMappingsArgs = lazily((z) => {
  const { name: _unnamed, ...scopes } = listArgs();
  return z.strictObject({ ...scopes, identityProviderUid: uidString("path").optional() });
});
export type GetExternalGroupRoleMappingsArgs = z.input<ReturnType<typeof getMappingsArgs>>;
export type GetExternalGroupRoleMappingsOutputArgs = InputArgs<GetExternalGroupRoleMappingsArgs>;
export interface GetExternalGroupRoleMappingsResult {
  externalGroupRoleMappings: ExternalGroupRoleMappingRecord[];
}
const getMappingArgs = lazily((z) => z.strictObject({ uid: uidString("path") }));
export type GetExternalGroupRoleMappingArgs = z.input<ReturnType<typeof getMappingArgs>>;
export type GetExternalGroupRoleMappingOutputArgs = InputArgs<GetExternalGroupRoleMappingArgs>;

const manyLookup = defineLookup("getExternalGroupRoleMappings", getMappingsArgs, async (args, client) => ({
  externalGroupRoleMappings: await listRecords(client, mappings, args, { identityProviderUid: "identityProviderUid" }),
}));
const oneLookup = defineLookup("getExternalGroupRoleMapping", getMappingArgs, (args, client) =>
  findOne(client, mappings, args),
);

/** One mapping by uid. */
export function getExternalGroupRoleMapping(
  args: GetExternalGroupRoleMappingArgs,
  options?: pulumi.InvokeOptions,
): Promise<ExternalGroupRoleMappingRecord> {
  return oneLookup.get(args, options);
}
export function getExternalGroupRoleMappingOutput(
  args: GetExternalGroupRoleMappingOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<ExternalGroupRoleMappingRecord> {
  return oneLookup.output(args, options);
}
/** Every mapping matching the filters (an identity provider's: `identityProviderUid`). */
export function getExternalGroupRoleMappings(
  args: GetExternalGroupRoleMappingsArgs = {},
  options?: pulumi.InvokeOptions,
): Promise<GetExternalGroupRoleMappingsResult> {
  return manyLookup.get(args, options);
}
export function getExternalGroupRoleMappingsOutput(
  args: GetExternalGroupRoleMappingsOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetExternalGroupRoleMappingsResult> {
  return manyLookup.output(args, options);
}
