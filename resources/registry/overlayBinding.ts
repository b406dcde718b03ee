/**
 * An overlay applied to tags of a repo (v2beta1 only), managed by Pulumi; its id is the
 * binding's uid. The API cannot change a binding in place: any change replaces it.
 *
 *     new platform.registry.OverlayBinding("app-tz", { repoUid: app.uid, overlayUid: tz.uid, tags: ["latest"] });
 *
 * Look-ups: `getOverlayBinding({ uid })`, `getOverlayBindings({ repoUid, overlayUid })`.
 */
import * as pulumi from "@pulumi/pulumi";
import { restoreMapOutputs } from "../../provider/programMaps";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import type { z } from "zod";
import { lazily } from "../../provider/lazyZod";
import { versionRefusal } from "../../provider/apiVersions";
import { collectionOf } from "../../provider/kindLookups";
import { InputArgs, defineLookup, findOne, listArgs, listRecords } from "../../provider/lookup";
import { uidString } from "../../provider/uid";
import type { OverlayRecord } from "./overlay";
import provider = require("./overlayBindingProvider");

export interface OverlayBindingArgs extends AdoptByUid {
  /** The repo whose tags get the overlay. */
  repoUid: pulumi.Input<string>;
  overlayUid: pulumi.Input<string>;
  /** The tags the overlay applies to: at least one. */
  tags: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Take over an existing record with the same natural key instead of creating one (see
   * README, adoption). Never sent to the API. Defaults to the stack-wide `platform:adopt`.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/registry:OverlayBinding";
/** The outputs that hold maps. */
const MAP_OUTPUTS = ["overlay"];

export class OverlayBinding extends ApiResource {
  /** The binding's uid. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  declare readonly repoUid: pulumi.Output<string>;
  declare readonly overlayUid: pulumi.Output<string>;
  declare readonly tags: pulumi.Output<string[]>;
  /** The bound overlay, as the API hydrates it. */
  declare readonly overlay: pulumi.Output<OverlayRecord>;
  /** The repo's uid, as the API answers it. */
  declare readonly repo: pulumi.Output<string>;

  /** An existing binding, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): OverlayBinding {
    return new OverlayBinding(name, undefined as unknown as OverlayBindingArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is OverlayBinding {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: OverlayBindingArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      uid: undefined,
      adopted: undefined,
      repoUid: undefined,
      overlayUid: undefined,
      tags: undefined,
      overlay: undefined,
      repo: undefined,
    };
    super(provider, name, { ...outputs, ...args }, opts, "registry", "OverlayBinding");
    // The hydrated overlay holds its maps, with keys the SDK drops escaped: provider/programMaps.ts.
    restoreMapOutputs(this, MAP_OUTPUTS);
  }
}

export const overlayBindingSchema = lazily((z) =>
  z.looseObject({
    uid: z.string(),
    repo: z.string().optional(),
    tags: z.array(z.string()).optional(),
    overlay: z.looseObject({ uid: z.string(), name: z.string().optional() }).optional(),
  }),
);
export type OverlayBindingRecord = z.infer<ReturnType<typeof overlayBindingSchema>>;

const bindings = collectionOf<OverlayBindingRecord>(provider.kind, overlayBindingSchema);
// Bindings have no name: the documented List filters are the uid scopes and the overlay.
const getOverlayBindingsArgs = lazily((z) => {
  const { name: _unnamed, childrenOf: _byRepoUid, ...scopes } = listArgs();
  return z.strictObject({
    ...scopes,
    /** The repo whose bindings to list. */
    repoUid: uidString("path").optional(),
    overlayUid: uidString("path").optional(),
  });
});
export type GetOverlayBindingsArgs = z.input<ReturnType<typeof getOverlayBindingsArgs>>;
export type GetOverlayBindingsOutputArgs = InputArgs<GetOverlayBindingsArgs>;
export interface GetOverlayBindingsResult {
  overlayBindings: OverlayBindingRecord[];
}
const getOverlayBindingArgs = lazily((z) => z.strictObject({ uid: uidString("path") }));
export type GetOverlayBindingArgs = z.input<ReturnType<typeof getOverlayBindingArgs>>;
export type GetOverlayBindingOutputArgs = InputArgs<GetOverlayBindingArgs>;

const served = () => {
  const refusal = versionRefusal("registry overlayBindings", provider.kind.apiVersions);
  if (refusal) throw new Error(refusal);
};
const manyLookup = defineLookup("getOverlayBindings", getOverlayBindingsArgs, async (args, client) => {
  served();
  return {
    overlayBindings: await listRecords(client, bindings, args, { repoUid: "uidp.children_of", overlayUid: "overlay" }),
  };
});
const oneLookup = defineLookup("getOverlayBinding", getOverlayBindingArgs, (args, client) => {
  served();
  return findOne(client, bindings, args);
});

/** One binding by uid. */
export function getOverlayBinding(
  args: GetOverlayBindingArgs,
  options?: pulumi.InvokeOptions,
): Promise<OverlayBindingRecord> {
  return oneLookup.get(args, options);
}
export function getOverlayBindingOutput(
  args: GetOverlayBindingOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<OverlayBindingRecord> {
  return oneLookup.output(args, options);
}
export function getOverlayBindings(
  args: GetOverlayBindingsArgs = {},
  options?: pulumi.InvokeOptions,
): Promise<GetOverlayBindingsResult> {
  return manyLookup.get(args, options);
}
export function getOverlayBindingsOutput(
  args: GetOverlayBindingsOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetOverlayBindingsResult> {
  return manyLookup.output(args, options);
}
