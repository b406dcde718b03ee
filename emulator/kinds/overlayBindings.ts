/** An overlay applied to tags of a repo (v2beta1); the create path names the repo, the body the overlay. */
import overlayBindingDescription from "../../resources/registry/overlayBinding/description";
import { invalidField } from "../errors";
import { capability } from "../capabilities";
import { getString } from "../params";
import { Rec } from "../store";
import { answerOf } from "./answer";
import { ResourceDef, servedAs } from "./kind";
import { overlays } from "./overlays";

export const overlayBindings: ResourceDef = {
  ...servedAs(overlayBindingDescription),
  createBody: "registry.OverlayBindingsService.CreateOverlayBindingBody",
  uniqueNames: false,
  operations: ["list", "get", "create", "delete"],
  check: (values) =>
    Array.isArray(values.tags) && values.tags.length === 0
      ? [{ field: "tags", description: "must name at least one tag" }]
      : [],
  beforeWrite: (ctx, _repoUid, values) => {
    const overlay = ctx.store.of("overlays").get(String(values.overlay));
    if (!overlay || !ctx.principal.can(capability("overlays", "LIST"), overlay.uid))
      throw invalidField("overlay", `overlay "${String(values.overlay)}" does not exist`);
  },
  defaults: { tags: [] },
  derived: (rec, ctx) => {
    // The body names the overlay by its uid; the answer shows the overlay itself.
    const overlay = ctx.store.of("overlays").get(String(rec.data.overlay));
    return { repo: rec.parentUid, overlay: overlay ? answerOf(ctx, overlays, overlay) : undefined };
  },
  filters: (params) => {
    const overlay = getString(params, "overlay");
    return { predicates: overlay ? [(r: Rec) => r.data.overlay === overlay] : [], signature: [overlay] };
  },
};
