/** Registry repos under a group; deleting one takes its tags, advisories and overlay bindings along. */
import repoDescription from "../../resources/registry/repo/description";
import { iso, ResourceDef, servedAs } from "./kind";
import { removeRecord } from "./registry";

export const repos: ResourceDef = {
  ...servedAs(repoDescription),
  uniqueNames: true,
  operations: ["list", "get", "create", "update", "delete"],
  render: (rec) => ({
    uid: rec.uid,
    name: rec.name,
    description: rec.data.description ?? "",
    catalogTier: rec.data.catalogTier ?? "CATALOG_TIER_UNSPECIFIED",
    bundles: rec.data.bundles ?? [],
    aliases: rec.data.aliases ?? [],
    activeTags: rec.data.activeTags ?? [],
    // The one snake_case field of the documents, spelled as they spell it.
    ...(rec.data.sync_config ? { sync_config: rec.data.sync_config } : {}),
    ...(rec.data.customOverlay ? { customOverlay: rec.data.customOverlay } : {}),
    createTime: iso(rec.createTime),
    updateTime: iso(rec.updateTime),
  }),
  onDelete: (ctx, rec) => {
    for (const kind of ["tags", "advisories", "overlayBindings"] as const)
      for (const child of ctx.store.of(kind).children(rec.uid)) removeRecord(ctx, kind, child);
  },
};
