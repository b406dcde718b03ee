/**
 * The account association of a group: the cloud and source-control accounts (AWS, Azure,
 * Google Cloud, GitHub, Chainguard) the group trusts, managed by Pulumi. A group has one, and
 * its uid, the resource's id, is the group's uid. (A state written by earlier versions holds a
 * uid of its own below the group as the id; refresh, update and destroy still find the record
 * through the group, and a refresh replaces the id with the group's uid.)
 *
 *     new platform.iam.AccountAssociation("aws", {
 *       groupUid: team.uid, name: "aws-production", amazon: { account: "123456789012" } });
 *
 * Every field updates in place with one PATCH; a block's update masks only its changed members
 * (`amazon.account`, `azure.clientIds`). Moving it to another group replaces it.
 *
 * Look-ups: `getAccountAssociation({ uid: groupUid })` or by name, `getAccountAssociations({ descendantsOf })`
 * (the associations of the groups below a group; `childrenOf`: of its child groups).
 */
import * as pulumi from "@pulumi/pulumi";
import { hostSafeInputs, restoreMapOutputs } from "../../provider/programMaps";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import type { z } from "zod";
import { kindLookups } from "../../provider/kindLookups";
import { lazily } from "../../provider/lazyZod";
import { mapOf } from "../../provider/mapSchema";
import { InputArgs, ListArgs, OneByUidOrNameArgs } from "../../provider/lookup";
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

export interface AccountAssociationArgs extends AdoptByUid {
  /** The group whose associations these are. Changing it replaces the association. */
  groupUid: pulumi.Input<string>;
  /** The association's name (a group has one association). */
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  amazon?: pulumi.Input<AmazonAccount>;
  azure?: pulumi.Input<AzureAccount>;
  chainguard?: pulumi.Input<ChainguardAccount>;
  github?: pulumi.Input<GitHubAccount>;
  google?: pulumi.Input<GoogleAccount>;
  /**
   * Take over the group's existing association instead of failing (then
   * one PATCH brings it to the declared values; see README, adoption). Never sent to the API.
   * Defaults to the stack-wide `platform:adopt`.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/iam:AccountAssociation";
/** The inputs (and outputs) that hold maps. */
const MAP_FIELDS: readonly (keyof AccountAssociationArgs)[] = ["azure", "github", "chainguard"];

export class AccountAssociation extends ApiResource {
  /** The association's uid: its group's uid. Same as `id`. */
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
    // Map inputs and outputs may hold keys the SDK drops (`__proto__`): provider/programMaps.ts.
    super(provider, name, { ...outputs, ...hostSafeInputs(args, MAP_FIELDS) }, opts, "iam", "AccountAssociation");
    restoreMapOutputs(this, MAP_FIELDS);
  }
}

export const accountAssociationSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    name: z.string(),
    description: z.string().optional(),
    amazon: z.looseObject({ account: z.string() }).optional(),
    // Maps as mapOf reads them: every key kept, `__proto__` included.
    azure: z.looseObject({ tenantId: z.string(), clientIds: mapOf(z, z.string()).optional() }).optional(),
    chainguard: z.looseObject({ serviceBindings: mapOf(z, z.string()).optional() }).optional(),
    github: z.looseObject({ appInstallations: mapOf(z, z.unknown()).optional() }).optional(),
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
