/** An overlay applied to tags of a repo (v2beta1); the create path names the repo, the body the overlay. */
import { invalidField } from "../errors";
import { getString } from "../params";
import { Rec } from "../store";
import { answerOf } from "./answer";
import { KindRules } from "./kind";
import { OVERLAY_CAPABILITIES } from "./overlays";

export const overlayBindings: KindRules = {
  parentKind: "repos",
  capabilities: OVERLAY_CAPABILITIES,
  editable: true,
  references: { overlay: "overlays" },
  check: (values) =>
    Array.isArray(values.tags) && values.tags.length === 0
      ? [{ field: "tags", description: "must name at least one tag" }]
      : [],
  beforeWrite: (ctx, _repoUid, values) => {
    const overlay = ctx.store.of("overlays").get(String(values.overlay));
    if (!overlay || !ctx.principal.can(ctx.kinds.overlays.capabilities.LIST, overlay.uid))
      throw invalidField("overlay", `overlay "${String(values.overlay)}" does not exist`);
  },
  defaults: { tags: [] },
  derived: (rec, ctx) => {
    // The body names the overlay by its uid; the answer shows the overlay itself.
    const overlay = ctx.store.of("overlays").get(String(rec.data.overlay));
    return { repo: rec.parentUid, overlay: overlay ? answerOf(ctx, ctx.kinds.overlays, overlay) : undefined };
  },
  filters: (params) => {
    const overlay = getString(params, "overlay");
    return { predicates: overlay ? [(r: Rec) => r.data.overlay === overlay] : [], signature: [overlay] };
  },
};
