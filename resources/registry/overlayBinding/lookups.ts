/**
 * Look-ups of overlay bindings that already exist: `getOverlayBinding({ uid })`,
 * `getOverlayBindings({ repoUid, overlayUid })`. Where they live in the API comes from the kind's description.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { lazily } from "../../../core/common/lazyZod";
import { versionRefusal } from "../../../core/transport/apiVersions";
import { collectionOf } from "../../../core/program/kindLookups";
import { InputArgs, defineLookup, findOne, listArgs, listRecords } from "../../../core/program/lookup";
import { uidString } from "../../../core/common/uid";
import overlayBinding from "./description";
import type { OverlayBindingRecord } from "./resource";

/** What a look-up needs of a binding record; its type is the generated OverlayBindingRecord (resource.ts). */
export const overlayBindingSchema = lazily(
  (z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<OverlayBindingRecord>,
);

const bindings = collectionOf<OverlayBindingRecord>(overlayBinding, overlayBindingSchema);
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
  const refusal = versionRefusal("registry overlayBindings", overlayBinding.apiVersions);
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
