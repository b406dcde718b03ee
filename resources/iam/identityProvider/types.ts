/**
 * The names earlier versions gave the shapes of an identity provider's blocks, kept for programs
 * that import them: each is derived from the generated class, Args and record type (resource.ts),
 * so the shapes are written only in the kind's description and the API document.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { IdentityProvider, IdentityProviderArgs, IdentityProviderRecord } from "./resource";

export type { CorrelationRule } from "./correlationRule";

/** How the group's people sign in, as a program declares it. */
export type OidcArgs = Exclude<
  NonNullable<IdentityProviderArgs["oidc"]>,
  Promise<unknown> | pulumi.OutputInstance<unknown>
>;
/** How the group's people sign in, as the state holds it (the client secret kept from the program). */
export type Oidc = NonNullable<pulumi.Unwrap<IdentityProvider["oidc"]>>;
/** SCIM provisioning state (read-only: changed through the SCIM token operations, not here). */
export type ScimState = NonNullable<IdentityProviderRecord["scim"]>;
