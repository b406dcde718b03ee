/** Image overlays of a group (v2beta1): configuration layered onto images; bound to repos' tags. */
import { KindRules } from "./kind";

export const overlays: KindRules = {
  capabilities: {
    LIST: "CAP_REGISTRY_OVERLAYS_LIST",
    CREATE: "CAP_REGISTRY_OVERLAYS_EDIT",
    UPDATE: "CAP_REGISTRY_OVERLAYS_EDIT",
    DELETE: "CAP_REGISTRY_OVERLAYS_EDIT",
  },
  editable: true,
  defaults: { config: {} },
};
