/** Event subscriptions of a group: where the service posts its events (an https sink). */
import { ResourceDef } from "./kind";

export const subscriptions: ResourceDef = {
  kind: "subscriptions",
  domain: "events",
  singular: "subscription",
  parentKind: "groups",
  message: "events.Subscription",
  uniqueNames: false,
  operations: ["list", "get", "create", "delete"],
  check: (values) => {
    try {
      if (new URL(String(values.sink)).protocol === "https:") return [];
    } catch {
      // reported below
    }
    return [{ field: "sink", description: "must be an https URL" }];
  },
  render: (rec) => ({ uid: rec.uid, sink: rec.data.sink }),
};
