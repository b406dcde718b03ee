/**
 * An account association of a group: the cloud and source-control accounts (AWS, Azure,
 * Google Cloud, GitHub, Chainguard) the group trusts, managed by Pulumi. Its id is the
 * association's uid (the group's uid, "/", one more segment).
 *
 *     new platform.iam.AccountAssociation("aws", {
 *       groupUid: team.uid, name: "aws-production", amazon: { account: "123456789012" } });
 *
 * Every field updates in place with one PATCH; a block's update masks only its changed members
 * (`amazon.account`, `azure.clientIds`). Moving it to another group replaces it.
 *
 * Look-ups: `getAccountAssociation({ uid })` or by name, `getAccountAssociations({ childrenOf })`.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiResource } from "../../provider/apiResource";
import type { z } from "zod";
import { kindLookups } from "../../provider/kindLookups";
import { lazily } from "../../provider/lazyZod";
import { InputArgs, ListArgs, LookupOptions, OneByUidOrNameArgs } from "../../provider/lookup";
import provider = require("./accountAssociationProvider");

/** An AWS account the group trusts. */
export interface AmazonAccount {
  /** The 12-digit account id. */
  account: string;
}
/** An Azure tenant and the application (client) ids the group trusts there. */
export interface AzureAccount {
  tenantId: string;
  /** Client ids by name. */
  clientIds: Record<string, string>;
}
/** A Google Cloud project the group trusts. */
export interface GoogleAccount {
  projectId: string;
  /** Digits, as a string. */
  projectNumber: string;
}
export interface GitHubInstallation {
  /** The GitHub App installation's id (digits, as a string: an int64 on the wire). */
  installationId: string;
  name?: string;
}
/** GitHub App installations the group trusts, by GitHub organization. */
export interface GitHubAccount {
  appInstallations?: Record<string, { installations?: GitHubInstallation[] }>;
}
/** Bindings of Chainguard services to the group's identities, by service. */
export interface ChainguardAccount {
  serviceBindings: Record<string, string>;
}

export interface AccountAssociationArgs {
  /** The group whose associations these are. Changing it replaces the association. */
  groupUid: pulumi.Input<string>;
  /** Unique among the group's associations. */
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  amazon?: pulumi.Input<AmazonAccount>;
  azure?: pulumi.Input<AzureAccount>;
  chainguard?: pulumi.Input<ChainguardAccount>;
  github?: pulumi.Input<GitHubAccount>;
  google?: pulumi.Input<GoogleAccount>;
  /**
   * Take over an existing association of the same name on the group instead of failing (then
   * one PATCH brings it to the declared values; see README, adoption). Never sent to the API.
   * Defaults to the stack-wide `platform:adopt`.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/iam:AccountAssociation";

export class AccountAssociation extends ApiResource {
  /** The association's uid: the group's uid, "/", one more segment. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  /** "" when none was given. */
  declare readonly description: pulumi.Output<string>;
  declare readonly amazon: pulumi.Output<AmazonAccount | undefined>;
  declare readonly azure: pulumi.Output<AzureAccount | undefined>;
  declare readonly chainguard: pulumi.Output<ChainguardAccount | undefined>;
  declare readonly github: pulumi.Output<GitHubAccount | undefined>;
  declare readonly google: pulumi.Output<GoogleAccount | undefined>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  /** An existing association, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): AccountAssociation {
    return new AccountAssociation(name, undefined as unknown as AccountAssociationArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is AccountAssociation {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: AccountAssociationArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      adopted: undefined,
      groupUid: undefined,
      name: undefined,
      description: undefined,
      amazon: undefined,
      azure: undefined,
      chainguard: undefined,
      github: undefined,
      google: undefined,
      createTime: undefined,
      updateTime: undefined,
    };
    super(provider, name, { ...outputs, ...args }, opts, "iam", "AccountAssociation");
  }
}

export const accountAssociationSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    name: z.string(),
    description: z.string().optional(),
    amazon: z.looseObject({ account: z.string() }).optional(),
    azure: z.looseObject({ tenantId: z.string(), clientIds: z.record(z.string(), z.string()).optional() }).optional(),
    chainguard: z.looseObject({ serviceBindings: z.record(z.string(), z.string()).optional() }).optional(),
    github: z.looseObject({ appInstallations: z.record(z.string(), z.unknown()).optional() }).optional(),
    google: z.looseObject({ projectId: z.string(), projectNumber: z.string() }).optional(),
    createTime: z.string().optional(),
    updateTime: z.string().optional(),
  }),
);
export type AccountAssociationRecord = z.infer<ReturnType<typeof accountAssociationSchema>>;

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
  options?: LookupOptions,
): Promise<AccountAssociationRecord> {
  return associations.one.get(args, options);
}
export function getAccountAssociationOutput(
  args: GetAccountAssociationOutputArgs,
  options?: LookupOptions,
): pulumi.Output<AccountAssociationRecord> {
  return associations.one.output(args, options);
}
/** Every association matching the filters (scope with childrenOf: the group's uid). */
export function getAccountAssociations(
  args: GetAccountAssociationsArgs = {},
  options?: LookupOptions,
): Promise<GetAccountAssociationsResult> {
  return associations.many.get(args, options);
}
export function getAccountAssociationsOutput(
  args: GetAccountAssociationsOutputArgs = {},
  options?: LookupOptions,
): pulumi.Output<GetAccountAssociationsResult> {
  return associations.many.output(args, options);
}
