/** The v1 list endpoints that stay available: key `items`, `id` instead of uid, createdAt/updatedAt. */
import { Context, listAll } from "./handlers";
import { Params, textOf } from "./params";
import { Rec } from "./store";

const iso = (ms: number) => new Date(ms).toISOString();

function v1Group(rec: Rec) {
  return {
    id: rec.uid,
    name: rec.name,
    description: textOf(rec.data.description),
    resourceLimits: { clusters: 0, idps: 0, repositories: 0 },
    verified: rec.data.verified === true,
    createdAt: iso(rec.createTime),
    updatedAt: iso(rec.updateTime),
  };
}

function v1Repo(rec: Rec) {
  return {
    id: rec.uid,
    name: rec.name,
    description: textOf(rec.data.description),
    catalogTier: rec.data.catalogTier ?? "CATALOG_TIER_UNSPECIFIED",
    bundles: rec.data.bundles ?? [],
    aliases: rec.data.aliases ?? [],
    activeTags: rec.data.activeTags ?? [],
    createdAt: iso(rec.createTime),
    updatedAt: iso(rec.updateTime),
  };
}

/** v1 has no pagination: every match in one answer. Its `id` filter selects by uid. */
export function listV1(ctx: Context, collection: "groups" | "repos", params: Params): { items: unknown[] } {
  const v2Params: Params = new Map(params);
  const id = params.get("id");
  if (id) v2Params.set("uidp.ids", id);
  v2Params.delete("id");
  const recs = listAll(ctx, ctx.kinds[collection], v2Params);
  const render: (rec: Rec) => unknown = collection === "groups" ? v1Group : v1Repo;
  return { items: recs.map(render) };
}
