/**
 * Where the service posts a group's events (an https sink), managed by Pulumi. Its id is the
 * subscription's uid. A new sink makes a new subscription.
 *
 *     new platform.events.Subscription("audit", { parentUid: org.uid, sink: "https://hooks.example.com/platform" });
 */
import * as pulumi from "@pulumi/pulumi";
import provider = require("./subscriptionProvider");

export interface SubscriptionArgs {
  /** The group whose events are sent. Changing it replaces the subscription. */
  parentUid: pulumi.Input<string>;
  /** The https URL events are posted to. Changing it replaces the subscription. */
  sink: pulumi.Input<string>;
  /** Take over an existing subscription to the same sink instead of creating another. */
  adopt?: pulumi.Input<boolean>;
}

const TYPE = "pulumi-nodejs:dynamic/events:Subscription";

export class Subscription extends pulumi.dynamic.Resource {
  declare readonly uid: pulumi.Output<string>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly sink: pulumi.Output<string>;
  declare readonly adopted: pulumi.Output<boolean | undefined>;

  /** An existing subscription, read by uid; not managed. */
  static get(name: string, uid: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Subscription {
    return new Subscription(name, undefined as unknown as SubscriptionArgs, { ...opts, id: uid });
  }

  static isInstance(obj: unknown): obj is Subscription {
    return pulumi.CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === TYPE;
  }

  constructor(name: string, args: SubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = { uid: undefined, parentUid: undefined, sink: undefined, adopted: undefined };
    super(provider, name, { ...outputs, ...args }, opts, "events", "Subscription");
  }
}
