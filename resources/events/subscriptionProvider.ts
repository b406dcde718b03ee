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
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      // The service posts events to the sink: https only, never to a URL carrying credentials.
      sink: f.text().superRefine((value, ctx) => {
        let url: URL | undefined;
        try {
          url = new URL(value);
        } catch {
          url = undefined;
        }
        if (url?.protocol !== "https:") ctx.addIssue({ code: "custom", message: "must be an https URL" });
        else if (url.username || url.password)
          ctx.addIssue({ code: "custom", message: "must not carry credentials (user:password@)" });
      }),
    }),
  parentField: "parentUid",
  writable: ["sink"],
  // The API has no update for subscriptions: every change is a new subscription.
  replaceOn: ["parentUid", "sink"],
  label: (props) =>
    `subscription${props.uid ? ` ${shown(props.uid)}` : ""}` +
    `${props.sink ? ` to "${shown(props.sink)}"` : ""}${!props.uid && props.parentUid ? ` under "${shown(props.parentUid)}"` : ""}`,
  // Subscriptions have no name and the List filters only by place: the sink tells them apart.
  naturalKey: (inputs) => ({ "uidp.children_of": shown(inputs.parentUid) }),
  keyFields: ["sink"],
  duplicatesAllowed: true,
  // A subscription tells no time: its create lists the group's first (see createdAtField).
  createdAtField: null,
  alreadyExistsHint:
    "the group already has this subscription; remove it from the program, delete the other one, " +
    "or refer to it with platform.events.Subscription.get(name, uid)",
};

export = defineProvider(subscription);
