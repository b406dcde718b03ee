/** Event subscriptions of a group: where the service posts its events (an https sink). */
import subscriptionDescription from "../../resources/events/subscription/description";
import { ResourceDef, servedAs } from "./kind";

export const subscriptions: ResourceDef = {
  ...servedAs(subscriptionDescription),
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
};
