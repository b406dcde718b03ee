/**
 * An event subscription of a group: everything the package knows about the kind, and the only
 * place it is written. Its provider, class, look-ups and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";
import { shown } from "../../../core/common/values";

const subscription: ResourceKind = {
  typeName: "Subscription",
  noun: "subscription",
  domain: "events",
  collection: "subscriptions",
  message: "events.Subscription",
  docs: {
    summary:
      "An event subscription of a group: where the service posts the group's events (an https\n" +
      "sink). Managed by Pulumi; its id is the subscription's uid. The API cannot change a\n" +
      "subscription in place: any change replaces it.\n\n" +
      "Look-ups: `getSubscription({ uid })`, `getSubscriptions({ childrenOf })`.",
    example: {
      name: "alerts",
      inputs: { parentUid: { $uidOf: "Group" }, sink: "https://hooks.example.com/platform" },
    },
    fields: {
      uid: "The subscription's uid. Same as `id`.",
      parentUid: "The group whose events are sent.",
      sink: "The https URL events are posted to (never one carrying credentials).",
    },
    replacedWhen: "any input changes",
  },
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
  parentCollection: "groups",
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

export default subscription;
