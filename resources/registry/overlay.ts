/**
 * An image overlay of a group (v2beta1 only): configuration layered onto images, applied to a
 * repo's tags by an OverlayBinding. Managed by Pulumi; its id is the overlay's uid. The API
 * cannot change an overlay in place: any change replaces it.
 *
 *     const tz = new platform.registry.Overlay("tz", {
 *       parentUid: team.uid, name: "tz", config: { environment: { TZ: "UTC" } } });
 *
 * Look-ups: `getOverlay({ uid })` or by name, `getOverlays({ childrenOf })`.
 */
import * as pulumi from "@pulumi/pulumi";
import { hostSafeInputs, restoreMapOutputs } from "../../provider/programMaps";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import type { z } from "zod";
import { kindLookups } from "../../provider/kindLookups";
import { lazily } from "../../provider/lazyZod";
import { InputArgs, ListArgs, LookupOptions, OneByUidOrNameArgs } from "../../provider/lookup";
import type { CustomOverlay } from "./repo/types";
import provider = require("./overlayProvider");

export interface OverlayArgs extends AdoptByUid {
  /** The group the overlay lives in. */
  parentUid: pulumi.Input<string>;
  name: pulumi.Input<string>;
  /** What the overlay adds to images (the documented registry.CustomOverlay). */
  config: pulumi.Input<CustomOverlay>;
  /**
   * Take over an existing record with the same natural key instead of creating one (see
   * README, adoption). Never sent to the API. Defaults to the stack-wide `platform:adopt`.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/registry:Overlay";
/** The inputs (and outputs) that hold maps. */
const MAP_FIELDS: readonly (keyof OverlayArgs)[] = ["config"];

export class Overlay extends ApiResource {
  /** The overlay's uid. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly config: pulumi.Output<CustomOverlay>;

  /** An existing overlay, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Overlay {
    return new Overlay(name, undefined as unknown as OverlayArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is Overlay {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: OverlayArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = { uid: undefined, adopted: undefined, parentUid: undefined, name: undefined, config: undefined };
    // Map inputs and outputs may hold keys the SDK drops (`__proto__`): provider/programMaps.ts.
    super(provider, name, { ...outputs, ...hostSafeInputs(args, MAP_FIELDS) }, opts, "registry", "Overlay");
    restoreMapOutputs(this, MAP_FIELDS);
  }
}

export const overlaySchema = lazily((z) =>
  z.looseObject({ uid: z.string(), name: z.string(), config: z.record(z.string(), z.unknown()).optional() }),
);
export type OverlayRecord = z.infer<ReturnType<typeof overlaySchema>>;

export type GetOverlaysArgs = ListArgs;
export type GetOverlaysOutputArgs = InputArgs<GetOverlaysArgs>;
export interface GetOverlaysResult {
  overlays: OverlayRecord[];
}
export type GetOverlayArgs = OneByUidOrNameArgs;
export type GetOverlayOutputArgs = InputArgs<GetOverlayArgs>;

const overlays = kindLookups<OverlayRecord, GetOverlaysResult>(provider.kind, overlaySchema);

/** One overlay by uid, or by exact name within an optional scope; an error on none or several. */
export function getOverlay(args: GetOverlayArgs, options?: LookupOptions): Promise<OverlayRecord> {
  return overlays.one.get(args, options);
}
export function getOverlayOutput(args: GetOverlayOutputArgs, options?: LookupOptions): pulumi.Output<OverlayRecord> {
  return overlays.one.output(args, options);
}
export function getOverlays(args: GetOverlaysArgs = {}, options?: LookupOptions): Promise<GetOverlaysResult> {
  return overlays.many.get(args, options);
}
export function getOverlaysOutput(
  args: GetOverlaysOutputArgs = {},
  options?: LookupOptions,
): pulumi.Output<GetOverlaysResult> {
  return overlays.many.output(args, options);
}
