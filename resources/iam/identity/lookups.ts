/**
 * Look-ups of identities that already exist (managed elsewhere or by hand): `getIdentity({ uid })`,
 * `getIdentity({ name, descendantsOf })`, `getIdentities(...)`. Where identities live in the API
 * comes from the kind's description.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { kindLookups } from "../../../core/program/kindLookups";
import { Z, lazily } from "../../../core/common/lazyZod";
import { mapOf } from "../../../core/model/mapSchema";
import { InputArgs, ListArgs, OneByUidOrNameArgs } from "../../../core/program/lookup";
import provider = require("./provider");
import type { IdentityRecord } from "./resource";

// Identity is the name of the managed resource class; what a look-up returns is a plain record
// of the service's fields, hence IdentityRecord. Schemas are built on first use (core/common/lazyZod.ts).
/**
 * What a look-up needs of an identity record; its type is the generated IdentityRecord
 * (resource.ts). The claim maps are read as mapOf reads them: every key kept, `__proto__` included.
 */
export const identityRecordSchema = lazily(
  (z) =>
    z.looseObject({
      uid: z.string(),
      claimMatch: z
        .looseObject({ claims: mapOf(z, z.string()).optional(), claimPatterns: mapOf(z, z.string()).optional() })
        .optional(),
    }) as unknown as z.ZodType<IdentityRecord>,
);

const identityListArgs = (z: Z) => ({ relationshipType: z.string().min(1).optional() });
export type GetIdentitiesArgs = ListArgs & { relationshipType?: string };
export type GetIdentitiesOutputArgs = InputArgs<GetIdentitiesArgs>;
export interface GetIdentitiesResult {
  identities: IdentityRecord[];
}

const identities = kindLookups<IdentityRecord, GetIdentitiesResult>(provider.kind, identityRecordSchema, {
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
