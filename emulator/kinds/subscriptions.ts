/** Event subscriptions of a group: where the service posts its events (an https sink). */
import { crud, KindRules } from "./kind";

export const subscriptions: KindRules = {
  capabilities: crud("CAP_EVENTS_SUBSCRIPTION"),
  editable: true,
  check: (values) => {
    try {
      if (new URL(String(values.sink)).protocol === "https:") return [];
    } catch {
      // reported below
    }
    return [{ field: "sink", description: "must be an https URL" }];
  },
};
