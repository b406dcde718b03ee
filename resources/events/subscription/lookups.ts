/**
 * Look-ups of event subscriptions that already exist: `getSubscription({ uid })`,
 * `getSubscriptions({ childrenOf })`. Where they live in the API comes from the kind's description.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { lazily } from "../../../core/common/lazyZod";
import { collectionOf } from "../../../core/program/kindLookups";
import { InputArgs, defineLookup, findOne, listArgs, listRecords } from "../../../core/program/lookup";
import { uidString } from "../../../core/common/uid";
import subscription from "./description";
import type { SubscriptionRecord } from "./resource";

/** What a look-up needs of a subscription record; its type is the generated SubscriptionRecord (resource.ts). */
export const subscriptionSchema = lazily(
  (z) => z.looseObject({ uid: z.string() }) as unknown as z.ZodType<SubscriptionRecord>,
);

const subscriptions = collectionOf<SubscriptionRecord>(subscription, subscriptionSchema);
// Subscriptions have no name: the documented List filters are the uid scopes alone.
const getSubscriptionsArgs = lazily((z) => {
  const { name: _unnamed, ...scopes } = listArgs();
  return z.strictObject(scopes);
});
export type GetSubscriptionsArgs = z.input<ReturnType<typeof getSubscriptionsArgs>>;
export type GetSubscriptionsOutputArgs = InputArgs<GetSubscriptionsArgs>;
export interface GetSubscriptionsResult {
  subscriptions: SubscriptionRecord[];
}
const getSubscriptionArgs = lazily((z) => z.strictObject({ uid: uidString("path") }));
export type GetSubscriptionArgs = z.input<ReturnType<typeof getSubscriptionArgs>>;
export type GetSubscriptionOutputArgs = InputArgs<GetSubscriptionArgs>;

const manyLookup = defineLookup("getSubscriptions", getSubscriptionsArgs, async (args, client) => ({
  subscriptions: await listRecords(client, subscriptions, args),
}));
const oneLookup = defineLookup("getSubscription", getSubscriptionArgs, (args, client) =>
  findOne(client, subscriptions, args),
);

/** One subscription by uid. */
export function getSubscription(
  args: GetSubscriptionArgs,
  options?: pulumi.InvokeOptions,
): Promise<SubscriptionRecord> {
  return oneLookup.get(args, options);
}
export function getSubscriptionOutput(
  args: GetSubscriptionOutputArgs,
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<SubscriptionRecord> {
  return oneLookup.output(args, options);
}
export function getSubscriptions(
  args: GetSubscriptionsArgs = {},
  options?: pulumi.InvokeOptions,
): Promise<GetSubscriptionsResult> {
  return manyLookup.get(args, options);
}
export function getSubscriptionsOutput(
  args: GetSubscriptionsOutputArgs = {},
  options?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetSubscriptionsResult> {
  return manyLookup.output(args, options);
}
