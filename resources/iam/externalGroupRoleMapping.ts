/**
 * A role granted to the members of a group of an identity provider's directory (an "external
 * group", as the provider's directory names it), managed by Pulumi. Its id is the mapping's uid
 * (the identity provider's uid, "/", one more segment). The API cannot change a mapping in
 * place: any change replaces it (the new one is created before the old one is deleted).
 *
 *     new platform.iam.ExternalGroupRoleMapping("admins", {
 *       identityProviderUid: sso.uid, externalGroupId: "platform-admins", roleUid: owner.uid });
 *
 * Look-ups: `getExternalGroupRoleMapping({ uid })`,
 * `getExternalGroupRoleMappings({ identityProviderUid })`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import type { z } from "zod";
import { collectionOf } from "../../provider/kindLookups";
import { lazily } from "../../provider/lazyZod";
import { InputArgs, defineLookup, findOne, listArgs, listRecords } from "../../provider/lookup";
import { uidString } from "../../provider/uid";
import provider = require("./externalGroupRoleMappingProvider");

export interface ExternalGroupRoleMappingArgs extends AdoptByUid {
  /** The identity provider whose directory holds the external group. */
  identityProviderUid: pulumi.Input<string>;
  /** The group's id in the identity provider's directory. */
  externalGroupId: pulumi.Input<string>;
  /** The role its members get (a built-in role, or a custom role usable on the identity provider's group). */
  roleUid: pulumi.Input<string>;
  /** Where the role applies, as the API takes it; "" (the default) when not set. */
  scope?: pulumi.Input<string>;
  /**
   * Take over an existing mapping of the same external group, role and scope on the identity
   * provider instead of creating one (see README, adoption). Never sent to the API. Defaults
   * to the stack-wide `platform:adopt`.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/iam:ExternalGroupRoleMapping";

export class ExternalGroupRoleMapping extends ApiResource {
  /** The mapping's uid: the identity provider's uid, "/", one more segment. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  declare readonly identityProviderUid: pulumi.Output<string>;
  declare readonly externalGroupId: pulumi.Output<string>;
  declare readonly roleUid: pulumi.Output<string>;
  /** "" when none was given. */
  declare readonly scope: pulumi.Output<string>;
  declare readonly createTime: pulumi.Output<string>;

  /** An existing mapping, read by uid; not managed (deleting the stack leaves it alone). */
  static get(
    name: string,
    uid: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): ExternalGroupRoleMapping {
    return new ExternalGroupRoleMapping(name, undefined as unknown as ExternalGroupRoleMappingArgs, {
      ...opts,
      id: uid,
    });
  }

  static isInstance(obj: unknown): obj is ExternalGroupRoleMapping {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: ExternalGroupRoleMappingArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      adopted: undefined,
      identityProviderUid: undefined,
      externalGroupId: undefined,
      roleUid: undefined,
      scope: undefined,
      createTime: undefined,
    };
    super(provider, name, { ...outputs, ...args }, opts, "iam", "ExternalGroupRoleMapping");
  }
}

export const externalGroupRoleMappingSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    identityProviderUid: z.string().optional(),
    externalGroupId: z.string(),
    roleUid: z.string(),
    scope: z.string().optional(),
    createTime: z.string().optional(),
  }),
);
export type ExternalGroupRoleMappingRecord = z.infer<ReturnType<typeof externalGroupRoleMappingSchema>>;

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
