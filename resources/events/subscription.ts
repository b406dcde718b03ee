/**
 * An event subscription of a group: where the service posts the group's events (an https
 * sink). Managed by Pulumi; its id is the subscription's uid. The API cannot change a
 * subscription in place: any change replaces it.
 *
 *     new platform.events.Subscription("alerts", { parentUid: team.uid, sink: "https://hooks.example.com/platform" });
 *
 * Look-ups: `getSubscription({ uid })`, `getSubscriptions({ childrenOf })`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AdoptByUid } from "../../provider/adoptByUid";
import { ApiResource } from "../../provider/apiResource";
import type { z } from "zod";
import { lazily } from "../../provider/lazyZod";
import { collectionOf } from "../../provider/kindLookups";
import { InputArgs, defineLookup, findOne, listArgs, listRecords } from "../../provider/lookup";
import { uidString } from "../../provider/uid";
import provider = require("./subscriptionProvider");

export interface SubscriptionArgs extends AdoptByUid {
  /** The group whose events are sent. */
  parentUid: pulumi.Input<string>;
  /** The https URL events are posted to. */
  sink: pulumi.Input<string>;
  /**
   * Take over an existing record with the same natural key instead of creating one (see
   * README, adoption). Never sent to the API. Defaults to the stack-wide `platform:adopt`.
   */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/events:Subscription";

export class Subscription extends ApiResource {
  /** The subscription's uid. Same as `id`. */
  declare readonly uid: pulumi.Output<string>;
  /** true when the record existed and was taken over (`adopt`) rather than created. */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly sink: pulumi.Output<string>;

  /** An existing subscription, read by uid; not managed (deleting the stack leaves it alone). */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Subscription {
    return new Subscription(name, undefined as unknown as SubscriptionArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is Subscription {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: SubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = { uid: undefined, adopted: undefined, parentUid: undefined, sink: undefined };
    super(provider, name, { ...outputs, ...args }, opts, "events", "Subscription");
  }
}

export const subscriptionSchema = lazily((z) => z.looseObject({ uid: z.string(), sink: z.string() }));
export type SubscriptionRecord = z.infer<ReturnType<typeof subscriptionSchema>>;

const subscriptions = collectionOf<SubscriptionRecord>(provider.kind, subscriptionSchema);
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
