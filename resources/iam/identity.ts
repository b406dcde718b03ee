/**
 * An identity matched to external OIDC tokens by their claims, managed by Pulumi. Its id is
 * the identity's uid.
 *
 *     const ci = new platform.iam.Identity("ci", { parentUid: org.uid, name: "ci", claimMatch: {
 *         issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/app:ref:refs/heads/main" } });
 */
import * as pulumi from "@pulumi/pulumi";
import { hostSafeInputs, restoreMapOutputs } from "../../provider/programMaps";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import type { ServicePrincipal } from "./enums";
import provider = require("./identityProvider");

/** How a token is matched: exactly one of each value and its pattern (audience optional). */
export interface ClaimMatchArgs {
  /** The token issuer's https URL. */
  issuer?: pulumi.Input<string>;
  /** A regular expression the issuer must match, instead of `issuer`. */
  issuerPattern?: pulumi.Input<string>;
  subject?: pulumi.Input<string>;
  subjectPattern?: pulumi.Input<string>;
  audience?: pulumi.Input<string>;
  audiencePattern?: pulumi.Input<string>;
  /** Further claims that must equal these values. */
  claims?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Further claims that must match these regular expressions. */
  claimPatterns?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

export interface ClaimMatch {
  issuer?: string;
  issuerPattern?: string;
  subject?: string;
  subjectPattern?: string;
  audience?: string;
  audiencePattern?: string;
  claims?: Record<string, string>;
  claimPatterns?: Record<string, string>;
}

/** An AWS principal: the account, and optionally its ARN and user id (or patterns of them). */
export interface AwsIdentityArgs {
  /** The 12-digit AWS account id. */
  awsAccount: pulumi.Input<string>;
  arn?: pulumi.Input<string>;
  arnPattern?: pulumi.Input<string>;
  userId?: pulumi.Input<string>;
  userIdPattern?: pulumi.Input<string>;
}
export interface AwsIdentity {
  awsAccount: string;
  arn?: string;
  arnPattern?: string;
  userId?: string;
  userIdPattern?: string;
}

/** Tokens signed by keys given inline, for issuers the service cannot reach. */
export interface StaticKeysArgs {
  /** The issuer's https URL. */
  issuer: pulumi.Input<string>;
  subject: pulumi.Input<string>;
  /** The issuer's public keys: a JSON Web Key Set as JSON text, `{"keys": [...]}`. */
  issuerKeys: pulumi.Input<string>;
  audiences?: pulumi.Input<pulumi.Input<string>[]>;
  /** When the keys stop being accepted (RFC 3339). */
  expirationTime?: pulumi.Input<string>;
}
export interface StaticKeys {
  issuer: string;
  subject: string;
  issuerKeys: string;
  audiences?: string[];
  expirationTime?: string;
}

export interface IdentityArgs extends AdoptByUid {
  /** The group the identity lives in. Changing it replaces the identity. */
  parentUid: pulumi.Input<string>;
  /** Unique among the group's identities. */
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /**
   * How the identity is assumed: exactly one of claimMatch, awsIdentity, staticKeys and
   * servicePrincipal. Switching from one to another, or changing staticKeys, replaces it.
   */
  claimMatch?: pulumi.Input<ClaimMatchArgs>;
  awsIdentity?: pulumi.Input<AwsIdentityArgs>;
  staticKeys?: pulumi.Input<StaticKeysArgs>;
  /** A platform service, e.g. SERVICE_PRINCIPAL_INGESTER. */
  servicePrincipal?: pulumi.Input<ServicePrincipal>;
  /**
   * Take over an existing record with the same natural key instead of failing with ALREADY_EXISTS
   * (then one PATCH brings it to the declared values). Never sent to the API. Defaults to the
   * stack-wide `platform:adopt` (PLATFORM_ADOPT), off unless set.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/iam:Identity";
/** The inputs (and outputs) that hold maps. */
const MAP_FIELDS: readonly (keyof IdentityArgs)[] = ["claimMatch"];

export class Identity extends ApiResource {
  /** The identity's uid: its group's uid, "/", one more segment. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  /** "" when none was given. */
  declare readonly description: pulumi.Output<string>;
  declare readonly claimMatch: pulumi.Output<ClaimMatch | undefined>;
  declare readonly awsIdentity: pulumi.Output<AwsIdentity | undefined>;
  declare readonly staticKeys: pulumi.Output<StaticKeys | undefined>;
  declare readonly servicePrincipal: pulumi.Output<ServicePrincipal | undefined>;
  declare readonly company: pulumi.Output<string | undefined>;
  declare readonly email: pulumi.Output<string | undefined>;
  declare readonly lastSeenTime: pulumi.Output<string>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;

  /** An existing identity, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Identity {
    return new Identity(name, undefined as unknown as IdentityArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is Identity {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: IdentityArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      parentUid: undefined,
      name: undefined,
      description: undefined,
      claimMatch: undefined,
      awsIdentity: undefined,
      staticKeys: undefined,
      servicePrincipal: undefined,
      company: undefined,
      email: undefined,
      lastSeenTime: undefined,
      createTime: undefined,
      updateTime: undefined,
      adopted: undefined,
    };
    // Map inputs and outputs may hold keys the SDK drops (`__proto__`): provider/programMaps.ts.
    super(provider, name, { ...outputs, ...hostSafeInputs(args, MAP_FIELDS) }, opts, "iam", "Identity");
    restoreMapOutputs(this, MAP_FIELDS);
  }
}
