/**
 * The base of every kind's resource class: a Pulumi dynamic resource whose id is the record's
 * uid, so a class with a `uid` output reads it from `id`.
 *
 * Why from `id`: in the preview of an update the engine answers a dynamic resource's outputs
 * with its new inputs only (the dynamic-provider host has no provider preview), and `uid` is
 * not an input, so it would read as unknown, and every resource that takes it (a child's
 * `parentUid`, a binding's `groupUid`, …) would preview as replaced, though `up` then sends
 * one PATCH. The engine keeps the id of an updated resource known in a preview, and it is the
 * same value: what the provider answers as the id is the record's uid.
 */
import * as pulumi from "@pulumi/pulumi";

export abstract class ApiResource extends pulumi.dynamic.Resource {
  constructor(
    provider: pulumi.dynamic.ResourceProvider,
    name: string,
    props: Record<string, unknown>,
    opts: pulumi.CustomResourceOptions | undefined,
    module: string,
    type: string,
  ) {
    super(provider, name, props, opts, module, type);
    if ("uid" in props) (this as unknown as { uid: pulumi.Output<string> }).uid = this.id;
  }
}
