/** Image overlays of a group (v2beta1): configuration layered onto images; bound to repos' tags. */
import { KindRules } from "./kind";

/** Overlays and their bindings to tags answer to the same two capabilities. */
export const OVERLAY_CAPABILITIES: KindRules["capabilities"] = {
  LIST: "CAP_REGISTRY_OVERLAYS_LIST",
  CREATE: "CAP_REGISTRY_OVERLAYS_EDIT",
  UPDATE: "CAP_REGISTRY_OVERLAYS_EDIT",
  DELETE: "CAP_REGISTRY_OVERLAYS_EDIT",
};

export const overlays: KindRules = {
  capabilities: OVERLAY_CAPABILITIES,
  editable: true,
  defaults: { config: {} },
};
