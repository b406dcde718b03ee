/**
 * The Subscription provider. This module's exports ARE the provider object, so when the
 * package is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/events/subscriptionProvider.js")`: a shim that loads
 * the package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { shown } from "../../provider/values";

const subscription: ResourceKind = {
  typeName: "Subscription",
  noun: "subscription",
  domain: "events",
  collection: "subscriptions",
  message: "events.Subscription",
  inputs: (f) => f.z.strictObject({ parentUid: f.uid("a group"), sink: f.httpsUrl() }),
  parentField: "parentUid",
  writable: ["sink"],
  // The service cannot change a subscription: a new sink is a new subscription.
  replaceOn: ["parentUid", "sink"],
  naturalKey: (inputs) => ({ "uidp.children_of": shown(inputs.parentUid) }),
  keyFields: ["sink"],
  label: (props) =>
    `subscription${props.uid ? ` ${shown(props.uid)}` : ""}${props.sink ? ` to "${shown(props.sink)}"` : ""}`,
  alreadyExistsHint: "delete the existing subscription, or leave this one out of the program",
};

export = defineProvider(subscription);
