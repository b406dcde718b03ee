/** Image overlays of a group (v2beta1): configuration layered onto images; bound to repos' tags. */
import overlayDescription from "../../resources/registry/overlay/description";
import { ResourceDef, servedAs } from "./kind";
import { removeRecord } from "./registry";

export const overlays: ResourceDef = {
  ...servedAs(overlayDescription),
  uniqueNames: true,
  operations: ["list", "get", "create", "delete"],
  defaults: { config: {} },
  onDelete: (ctx, rec) => {
    for (const binding of ctx.store.of("overlayBindings").referencing("overlay", rec.uid))
      removeRecord(ctx, "overlayBindings", binding);
  },
};
