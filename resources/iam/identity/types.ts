/**
 * The names earlier versions gave the shapes of an identity's ways of being assumed, kept for
 * programs that import them: each is derived from the generated class and Args (resource.ts),
 * so the shapes are written only in the kind's description and the API document.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Identity, IdentityArgs } from "./resource";

/** An input's value itself, without the promise or output that may carry it. */
type Given<T> = Exclude<NonNullable<T>, Promise<unknown> | pulumi.OutputInstance<unknown>>;
/** An output's value when it is set. */
type Answered<T> = NonNullable<pulumi.Unwrap<T>>;

export type ClaimMatchArgs = Given<IdentityArgs["claimMatch"]>;
export type ClaimMatch = Answered<Identity["claimMatch"]>;
export type AwsIdentityArgs = Given<IdentityArgs["awsIdentity"]>;
export type AwsIdentity = Answered<Identity["awsIdentity"]>;
export type StaticKeysArgs = Given<IdentityArgs["staticKeys"]>;
export type StaticKeys = Answered<Identity["staticKeys"]>;
