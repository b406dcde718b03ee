/**
 * Look-ups of overlays that already exist: `getOverlay({ uid })` or by name,
 * `getOverlays({ childrenOf })`. Where they live in the API comes from the kind's description.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { kindLookups } from "../../../core/program/kindLookups";
import { lazily } from "../../../core/common/lazyZod";
import { InputArgs, ListArgs, OneByUidOrNameArgs } from "../../../core/program/lookup";
import overlay from "./description";
import type { OverlayRecord } from "./resource";

/** What a look-up needs of an overlay record; its type is the generated OverlayRecord (resource.ts). */
export const overlaySchema = lazily((z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<OverlayRecord>);

export type GetOverlaysArgs = ListArgs;
export type GetOverlaysOutputArgs = InputArgs<GetOverlaysArgs>;
export interface GetOverlaysResult {
  overlays: OverlayRecord[];
}
export type GetOverlayArgs = OneByUidOrNameArgs;
export type GetOverlayOutputArgs = InputArgs<GetOverlayArgs>;

const overlays = kindLookups<OverlayRecord, GetOverlaysResult>(overlay, overlaySchema);

/** One overlay by uid, or by exact name within an optional scope; an error on none or several. */
export function getOverlay(args: GetOverlayArgs, options?: pulumi.InvokeOptions): Promise<OverlayRecord> {
  return overlays.one.get(args, options);
}
export function getOverlayOutput(
  args: GetOverlayOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<OverlayRecord> {
  return overlays.one.output(args, options);
}
export function getOverlays(args: GetOverlaysArgs = {}, options?: pulumi.InvokeOptions): Promise<GetOverlaysResult> {
  return overlays.many.get(args, options);
}
export function getOverlaysOutput(
  args: GetOverlaysOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetOverlaysResult> {
  return overlays.many.output(args, options);
}
