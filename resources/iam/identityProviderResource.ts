/**
 * An identity provider of a group (how its people sign in, over OIDC), managed by Pulumi. Its
 * id is the identity provider's uid.
 *
 *     new platform.iam.IdentityProvider("sso", { parentUid: org.uid, name: "sso", defaultRole: viewer.uid,
 *         oidc: { issuer: "https://login.example.com", clientId: "platform", clientSecret: config.requireSecret("ssoClientSecret") } });
 *
 * The OIDC client secret is written and never read back: the state keeps what the program set.
 * Pulumi marks secrets on top-level properties only, so the whole `oidc` block is a Pulumi
 * secret, in the state's inputs and outputs alike (its issuer and clientId show as [secret] in
 * a preview too): that is the one way to keep the client secret out of the state in plain text.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import { withSecretOutputs } from "../../provider/secretOutputs";
import type { CorrelationRule } from "./correlationRule";

export type { CorrelationRule };
import provider = require("./idpProvider");

/** How the group's people sign in: the documented iam.IdentityProvider.OIDC message. */
export interface OidcArgs {
  /** The OpenID issuer: an https URL. */
  issuer: pulumi.Input<string>;
  clientId: pulumi.Input<string>;
  /** Write-only: sent to the service, never read back; a Pulumi secret in the state. */
  clientSecret?: pulumi.Input<string>;
  additionalScopes?: pulumi.Input<pulumi.Input<string>[]>;
  /** The claim of the ID token naming the user's groups. */
  groupsClaim?: pulumi.Input<string>;
  /** How a signed-in user is matched with a provisioned one; leave it out for none. */
  correlationRule?: pulumi.Input<Exclude<CorrelationRule, "CORRELATION_RULE_UNSPECIFIED">>;
  pkceEnabled?: pulumi.Input<boolean>;
}
export interface Oidc {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  additionalScopes?: string[];
  groupsClaim?: string;
  correlationRule?: Exclude<CorrelationRule, "CORRELATION_RULE_UNSPECIFIED">;
  pkceEnabled?: boolean;
}
/** SCIM provisioning state (read-only: changed through the SCIM token operations, not here). */
export interface ScimState {
  credentialState?: string;
  enabled?: boolean;
  endpointUrl?: string;
  etag?: string;
  previousTokenExpireTime?: string;
  tokenExpireTime?: string;
}

export interface IdentityProviderArgs extends AdoptByUid {
  /** The group whose people sign in through it. Changing it replaces the identity provider. */
  parentUid: pulumi.Input<string>;
  /** Unique among the group's identity providers. */
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** The uid of the role people signing in get by default (a built-in role or a custom role usable on the group). */
  defaultRole: pulumi.Input<string>;
  oidc?: pulumi.Input<OidcArgs>;
  /**
   * Take over an existing identity provider of the same name on the group instead of failing
   * (see README, adoption): its client secret cannot be read, so the declared one is written.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/iam:IdentityProvider";

/** The top-level properties holding a secret (`oidc.clientSecret`): secrets in state inputs and outputs. */
const SECRET_PROPERTIES = ["oidc"];

export class IdentityProvider extends ApiResource {
  /** The identity provider's uid: the group's uid, "/", one more segment. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  /** "" when none was given. */
  declare readonly description: pulumi.Output<string>;
  declare readonly defaultRole: pulumi.Output<string>;
  /** A Pulumi secret as a whole (it holds the client secret). */
  declare readonly oidc: pulumi.Output<Oidc | undefined>;
  declare readonly scim: pulumi.Output<ScimState>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;

  /** An existing identity provider, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): IdentityProvider {
    return new IdentityProvider(name, undefined as unknown as IdentityProviderArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is IdentityProvider {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: IdentityProviderArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      parentUid: undefined,
      name: undefined,
      description: undefined,
      defaultRole: undefined,
      oidc: undefined,
      scim: undefined,
      createTime: undefined,
      updateTime: undefined,
      adopted: undefined,
    };
    // The dynamic-provider host takes no secrets: the engine hands it plain values and keeps the
    // secret marking of the inputs, and of these outputs, in the state.
    const inputs = args?.oidc === undefined ? args : { ...args, oidc: pulumi.secret(args.oidc) };
    super(
      provider,
      name,
      { ...outputs, ...inputs },
      withSecretOutputs(opts, SECRET_PROPERTIES),
      "iam",
      "IdentityProvider",
    );
  }
}
