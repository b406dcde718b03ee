/** Registry repos under a group; deleting one takes its tags, advisories and overlay bindings along. */
import repoDescription from "../../resources/registry/repo/description";
import { ResourceDef, servedAs } from "./kind";
import { removeRecord } from "./registry";

export const repos: ResourceDef = {
  ...servedAs(repoDescription),
  uniqueNames: true,
  operations: ["list", "get", "create", "update", "delete"],
  defaults: {
    description: "",
    catalogTier: "CATALOG_TIER_UNSPECIFIED",
    bundles: [],
    aliases: [],
    activeTags: [],
  },
  onDelete: (ctx, rec) => {
    for (const kind of ["tags", "advisories", "overlayBindings"] as const)
      for (const child of ctx.store.of(kind).children(rec.uid)) removeRecord(ctx, kind, child);
  },
};
