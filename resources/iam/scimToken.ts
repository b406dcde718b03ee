/**
 * SCIM provisioning of an identity provider, managed by Pulumi: a SCIM token for the provider's
 * directory to push users and groups with, and provisioning switched on (or off). One token per
 * identity provider; the resource id is the identity provider's uid.
 *
 *     const scim = new platform.iam.ScimToken("okta-scim", {
 *       identityProviderUid: sso.uid, expireTime: "2027-01-01T00:00:00Z" });
 *     export const scimToken = scim.token; // a Pulumi secret
 *     export const scimEndpoint = scim.endpointUrl;
 *
 * `token` is answered only when the token is generated or regenerated: a Pulumi secret in the
 * state and the outputs, and no message shows it. Changing `expireTime` or `neverExpires`
 * regenerates it (a new token, the old one stops working); changing `enabled` switches
 * provisioning; destroying the resource revokes the token. A token regenerated in the console
 * shows as drift at the next refresh (`tokenSuperseded`), and `pulumi up` regenerates it. A
 * token the identity provider already has cannot be read back, so it cannot be taken over:
 * revoke it first.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiResource } from "../../provider/apiResource";
import { withSecretOutputs } from "../../provider/secretOutputs";
import provider = require("./scimTokenProvider");

export interface ScimTokenArgs {
  /** The identity provider whose directory provisions through SCIM. Changing it replaces the token. */
  identityProviderUid: pulumi.Input<string>;
  /** When the token stops working, RFC 3339 ("2027-01-01T00:00:00Z"); the service's default (a year) when absent. */
  expireTime?: pulumi.Input<string>;
  /** The token never expires (not with `expireTime`). */
  neverExpires?: pulumi.Input<boolean>;
  /** SCIM provisioning on; default true. */
  enabled?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/iam:ScimToken";

export class ScimToken extends ApiResource {
  declare readonly identityProviderUid: pulumi.Output<string>;
  declare readonly expireTime: pulumi.Output<string | undefined>;
  declare readonly neverExpires: pulumi.Output<boolean | undefined>;
  /** Whether SCIM provisioning is on, as the service says (a change in the console shows as drift). */
  declare readonly enabled: pulumi.Output<boolean>;
  /** The bearer token the identity provider's directory sends to `endpointUrl`: a Pulumi secret. */
  declare readonly token: pulumi.Output<string>;
  /** Where the directory sends its SCIM requests. */
  declare readonly endpointUrl: pulumi.Output<string>;
  /** When the token stops working, RFC 3339; absent for a token that never expires. */
  declare readonly tokenExpireTime: pulumi.Output<string | undefined>;
  /** CREDENTIAL_STATE_LIVE, or CREDENTIAL_STATE_ROTATING while a previous token still works. */
  declare readonly credentialState: pulumi.Output<string>;
  /** The identity provider's SCIM state version as last seen: how a regeneration elsewhere is noticed. */
  declare readonly etag: pulumi.Output<string | undefined>;
  /**
   * true after a refresh found the token regenerated outside this program (the state no longer
   * holds a working token; `token` is absent): the next `pulumi up` regenerates it.
   */
  declare readonly tokenSuperseded: pulumi.Output<boolean | undefined>;

  static isInstance(obj: unknown): obj is ScimToken {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: ScimTokenArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      enabled: undefined,
      token: undefined,
      endpointUrl: undefined,
      tokenExpireTime: undefined,
      credentialState: undefined,
      etag: undefined,
      tokenSuperseded: undefined,
    };
    super(
      provider,
      name,
      { ...outputs, ...args },
      withSecretOutputs(opts, provider.kind.secrets ?? []),
      "iam",
      "ScimToken",
    );
  }
}
