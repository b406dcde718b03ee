/**
 * Look-ups of identity providers that already exist: `getIdentityProvider({ uid })` or by name,
 * `getIdentityProviders({ childrenOf })`. Where they live in the API comes from the kind's
 * description. The service never answers a client secret, so no record holds one.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { kindLookups } from "../../../core/program/kindLookups";
import { lazily } from "../../../core/common/lazyZod";
import { InputArgs, ListArgs, OneByUidOrNameArgs } from "../../../core/program/lookup";
import provider = require("./provider");
import type { IdentityProviderRecord } from "./resource";

// IdentityProvider is the name of the managed resource class; what a look-up returns is a plain
// record of the service's fields, hence IdentityProviderRecord (generated in resource.ts, without
// the write-only client secret).
/** What a look-up needs of an identity provider record. */
export const identityProviderRecordSchema = lazily(
  (z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<IdentityProviderRecord>,
);

export type GetIdentityProvidersArgs = ListArgs;
export type GetIdentityProvidersOutputArgs = InputArgs<GetIdentityProvidersArgs>;
export interface GetIdentityProvidersResult {
  identityProviders: IdentityProviderRecord[];
}

const identityProviders = kindLookups<IdentityProviderRecord, GetIdentityProvidersResult>(
  provider.kind,
  identityProviderRecordSchema,
);

export function getIdentityProviders(
  args: GetIdentityProvidersArgs = {},
  options?: pulumi.InvokeOptions,
): Promise<GetIdentityProvidersResult> {
  return identityProviders.many.get(args, options);
}

export function getIdentityProvidersOutput(
  args: GetIdentityProvidersOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetIdentityProvidersResult> {
  return identityProviders.many.output(args, options);
}

export type GetIdentityProviderArgs = OneByUidOrNameArgs;
export type GetIdentityProviderOutputArgs = InputArgs<GetIdentityProviderArgs>;

/** One identity provider by uid, or by exact name within an optional scope; an error on none or several. */
export function getIdentityProvider(
  args: GetIdentityProviderArgs,
  options?: pulumi.InvokeOptions,
): Promise<IdentityProviderRecord> {
  return identityProviders.one.get(args, options);
}

export function getIdentityProviderOutput(
  args: GetIdentityProviderOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<IdentityProviderRecord> {
  return identityProviders.one.output(args, options);
}
