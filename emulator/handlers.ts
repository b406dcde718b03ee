/**
 * The operations on resources: List, Get, Create, Update (PATCH) and Delete, with access
 * checks first. Each runs synchronously from check to write, so concurrent requests can
 * never interleave between validating and storing.
 */
import { isDeepStrictEqual } from "node:util";
import { capability, Verb } from "./capabilities";
import { Context } from "./context";
import { alreadyExists, invalidField, notFound, permissionDenied, unimplemented } from "./errors";
import { childUid, descendantsRange, inSubtree, parentOf, pointRange, subtreeRange } from "./ids";
import { Interval, intersectIntervals } from "./listEngine";
import { decodePageToken, encodePageToken, isExpired } from "./pageTokens";
import { Params, getBool, getInt, getList, getString } from "./params";
import { answerOf } from "./kinds/answer";
import { ResourceDef } from "./kinds/kind";
import { removeRecord } from "./kinds/registry";
import { Collection, makeRec, OrderField, Rec } from "./store";
import { BodyRules, validateCreate, validatePatch } from "./validation";

export type { Context } from "./context";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

const ORDER_FIELDS: Record<string, OrderField> = {
  uid: "uid",
  name: "name",
  create_time: "createTime",
  created_at: "createTime",
  update_time: "updateTime",
  updated_at: "updateTime",
};

function parseOrder(raw: string | undefined): { order: OrderField; desc: boolean } {
  if (raw === undefined || raw.trim() === "") return { order: "uid", desc: false };
  const match = /^\s*([A-Za-z_.]+)(?:\s+(asc|desc))?\s*$/i.exec(raw);
  const field = match ? ORDER_FIELDS[match[1].replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase()] : undefined;
  if (!match || !field) {
    throw invalidField(
      "order_by",
      `cannot order by "${raw}"; use one of uid, name, create_time (created_at), update_time, optionally followed by " desc"`,
    );
  }
  return { order: field, desc: (match[2] ?? "").toLowerCase() === "desc" };
}

/** Parameters that define the result set (everything but paging), in canonical order. */
function queryOf(params: Params): Array<[string, string[]]> {
  return [...params.entries()]
    .filter(([k]) => k !== "page_size" && k !== "page_token")
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

export function listResources(ctx: Context, def: ResourceDef, requestParams: Params): Record<string, unknown> {
  const requested = getInt(requestParams, "page_size") ?? 0;
  const pageSize = requested === 0 ? DEFAULT_PAGE_SIZE : Math.min(requested, MAX_PAGE_SIZE);
  let params = requestParams;
  let after;
  const token = getString(requestParams, "page_token");
  if (token) {
    const payload = decodePageToken(token);
    // An expired token restarts the query from the beginning, without an error.
    if (!isExpired(payload, ctx.clock.now())) {
      params = new Map(payload.query as Array<[string, string[]]>);
      after = payload.after;
    }
  }
  const skip = getInt(params, "skip") ?? 0;
  const { order, desc } = parseOrder(getString(params, "order_by"));
  const coll = ctx.store.of(def.kind);
  const { intervals, residual, nameEq, signature } = filtersOf(ctx, def, params);
  const page = ctx.engine.page(
    coll,
    { intervals, residual, nameEq, order, desc, signature },
    { pageSize, skip, after },
  );
  const body: Record<string, unknown> = { [def.kind]: page.items.map((rec) => answerOf(ctx, def, rec)) };
  if (page.next)
    body.nextPageToken = encodePageToken({ query: queryOf(params), after: page.next, issuedAt: ctx.clock.now() });
  body.totalCount = String(page.total);
  body.skipped = skip;
  return body;
}

function filtersOf(ctx: Context, def: ResourceDef, params: Params) {
  const predicates: Array<(rec: Rec) => boolean> = [];
  let intervals: Interval[] | null = null;
  const scope = ctx.principal.scope(capability(ctx, def.kind, "LIST"));
  if (def.placedByParent) {
    // Shared records (no parent) are visible to everyone, the others within their group's subtree.
    predicates.push((r) => r.parentUid === null || scope.some((g) => inSubtree(String(r.parentUid), g)));
  } else {
    intervals = scope.map(subtreeRange);
  }
  const descendantsOf = getString(params, "uidp.descendants_of");
  if (descendantsOf) {
    // An opaque uid says nothing of place, so "below the group" is a question about where it was defined.
    if (def.placedByParent)
      predicates.push((r) => r.parentUid !== null && inSubtree(String(r.parentUid), descendantsOf));
    else intervals = intersectIntervals(intervals, [descendantsRange(descendantsOf)]);
  }
  const childrenOf = getString(params, "uidp.children_of");
  if (childrenOf) {
    if (!def.placedByParent) intervals = intersectIntervals(intervals, [descendantsRange(childrenOf)]);
    // A record keyed by its parent stands where its parent does: the children are its parent's.
    predicates.push(def.keyedByParent ? (r) => parentOf(r.uid) === childrenOf : (r) => r.parentUid === childrenOf);
  }
  const ids = getList(params, "uidp.ids");
  if (ids) intervals = intersectIntervals(intervals, ids.map(pointRange));
  const ancestorsOf = getString(params, "uidp.ancestors_of");
  if (ancestorsOf) {
    const ancestors: string[] = [];
    for (let p = parentOf(ancestorsOf); p !== null; p = parentOf(p)) ancestors.push(p);
    intervals = intersectIntervals(intervals, ancestors.map(pointRange));
  }
  const inRoot = getBool(params, "uidp.in_root");
  // Root-level records: organizations, and what has no parent (built-in roles).
  if (inRoot) predicates.push((r) => r.parentUid === null);
  const name = getString(params, "name");
  const extra = def.filters?.(params, ctx.store);
  if (extra) predicates.push(...extra.predicates);
  const residual =
    predicates.length === 0
      ? null
      : predicates.length === 1
        ? predicates[0]
        : (r: Rec) => predicates.every((p) => p(r));
  const signature = JSON.stringify([
    scope,
    descendantsOf,
    childrenOf,
    ids,
    ancestorsOf,
    inRoot,
    name,
    extra?.signature,
  ]);
  return { intervals, residual, nameEq: name, signature };
}

/** Finds a record the caller may act on; a uid outside the caller's reach is denied whether or not it exists. */
export function authorize(ctx: Context, def: ResourceDef, uid: string, verb: Verb): Rec {
  const coll = ctx.store.of(def.kind);
  const cap = capability(ctx, def.kind, verb);
  if (def.placedByParent) {
    const rec = coll.get(uid);
    const visible =
      rec && (rec.parentUid === null || ctx.principal.can(capability(ctx, def.kind, "LIST"), String(rec.parentUid)));
    if (!rec || !visible) throw notFound(def.singular, uid);
    if (verb === "LIST") return rec;
    if (rec.parentUid === null)
      throw permissionDenied(`built-in ${def.singular} "${rec.name}" cannot be changed or deleted`);
    if (!ctx.principal.can(cap, String(rec.parentUid)))
      throw permissionDenied(`the caller lacks ${cap} on group "${rec.parentUid}"`);
    return rec;
  }
  if (!ctx.principal.can(cap, uid)) throw permissionDenied(`the caller lacks ${cap} on "${uid}"`);
  const rec = coll.get(uid);
  if (!rec) throw notFound(def.singular, uid);
  return rec;
}

export function getResource(ctx: Context, def: ResourceDef, uid: string): Record<string, unknown> {
  return answerOf(ctx, def, authorize(ctx, def, uid, "LIST"));
}

function checkUniqueName(coll: Collection, def: ResourceDef, parentUid: string, name: string, self?: Rec): void {
  if (!def.uniqueNames) return;
  const clash = coll.named(name).find((r) => r.parentUid === parentUid && r !== self);
  if (clash)
    throw alreadyExists(
      def.singular,
      `a ${def.singular} named "${name}" already exists under "${parentUid}" (uid "${clash.uid}")`,
      clash.uid,
    );
}

/**
 * A create's parent as the documents allow it: a uid; or, for a group, the last segments of
 * its uid (a suffix) or its name, when exactly one group the caller may read matches.
 */
function resolveParent(ctx: Context, def: ResourceDef, given: string): string {
  if (def.parentKind !== "groups" || ctx.store.of("groups").get(given)) return given;
  const groups = ctx.store.of("groups");
  const cap = capability(ctx, "groups", "LIST");
  const visible = (r: Rec) => ctx.principal.can(cap, r.uid);
  let matches = groups.named(given).filter(visible);
  if (matches.length === 0 && /^[0-9a-f]+(\/[0-9a-f]+)*$/.test(given))
    matches = ctx.principal
      .scope(cap)
      .flatMap((root) => groups.indexes.uid.items.filter((r) => inSubtree(r.uid, root) && r.uid.endsWith(`/${given}`)));
  if (matches.length > 1)
    throw invalidField(
      "parent",
      `"${given}" names ${matches.length} groups (${matches
        .slice(0, 5)
        .map((r) => r.uid)
        .join(", ")}); give the group's uid`,
    );
  return matches[0]?.uid ?? given;
}

export function createResource(
  ctx: Context,
  def: ResourceDef,
  givenParent: string | undefined,
  body: unknown,
): Record<string, unknown> {
  if (!def.operations.includes("create")) throw unimplemented(`${def.kind} cannot be created through this API`);
  const parentDef = ctx.kinds[def.parentKind];
  if (!givenParent)
    throw invalidField(
      "parent",
      `the parent ${parentDef.singular}'s uid goes in the path: POST …/${def.kind}/<${parentDef.singular} uid>`,
    );
  const parentUid = resolveParent(ctx, def, givenParent);
  const cap = capability(ctx, def.kind, "CREATE");
  if (!ctx.principal.can(cap, parentUid)) throw permissionDenied(`the caller lacks ${cap} on "${parentUid}"`);
  const parent = ctx.store.of(def.parentKind).get(parentUid);
  if (!parent) throw notFound(parentDef.singular, parentUid);
  const group = def.parentKind === "groups" ? parent : ctx.store.of("groups").get(String(parent.parentUid));
  const now = ctx.clock.now();
  if (ctx.propagationDelayMs > 0 && group && now - group.createTime < ctx.propagationDelayMs) {
    throw permissionDenied(`access to group "${group.uid}" is still propagating after its creation; retry shortly`);
  }
  const values = validateCreate(ctx.messages, rulesOf(def, def.createBody), body);
  const coll = ctx.store.of(def.kind);
  const name = typeof values.name === "string" ? values.name : "";
  def.beforeWrite?.(ctx, parentUid, values);
  checkUniqueName(coll, def, parentUid, name);
  if (def.keyedByParent && coll.get(parentUid))
    throw alreadyExists(
      def.singular,
      `${parentDef.singular} "${parentUid}" already has its ${def.singular} (one per ${parentDef.singular}); update or delete it`,
      parentUid,
    );
  const { name: _name, ...data } = values;
  Object.assign(data, def.initialData?.(ctx, values, now));
  const uid = def.keyedByParent ? parentUid : def.newUid ? def.newUid(parentUid) : childUid(parentUid);
  const rec = makeRec({ uid, parentUid, name, createTime: now, updateTime: now, data });
  coll.add(rec);
  ctx.store.changed();
  return answerOf(ctx, def, rec, { created: true });
}

/** How a body is checked for a kind: the documented message plus the kind's own rules. */
function rulesOf(def: ResourceDef, message = def.message): BodyRules {
  return { message: { ref: message }, alsoRequired: def.alsoRequired, check: def.check };
}

export function updateResource(
  ctx: Context,
  def: ResourceDef,
  uid: string,
  params: Params,
  body: unknown,
): Record<string, unknown> {
  if (!def.operations.includes("update")) throw unimplemented(`${def.kind} cannot be updated through this API`);
  const rec = authorize(ctx, def, uid, "UPDATE");
  const mask = params.has("update_mask") ? (getList(params, "update_mask") ?? []) : undefined;
  if (mask !== undefined && mask.length === 0)
    throw invalidField(
      "updateMask",
      "is empty; list the fields to change, or leave it out to change the fields present in the body",
    );
  const current: Record<string, unknown> = { ...rec.data, name: rec.name };
  const changes = validatePatch(ctx.messages, rulesOf(def), body, {
    mask,
    current,
    requireFields: ctx.requirePatchFields,
  });
  const coll = ctx.store.of(def.kind);
  def.beforeWrite?.(ctx, String(rec.parentUid), changes, rec);
  if (typeof changes.name === "string" && changes.name !== rec.name)
    checkUniqueName(coll, def, String(rec.parentUid), changes.name, rec);
  const differs = Object.entries(changes).some(([k, v]) => !isDeepStrictEqual(current[k], v));
  if (differs) {
    coll.update(rec, (r) => {
      for (const [k, v] of Object.entries(changes)) {
        if (k === "name") r.name = String(v);
        else if (v === undefined) delete r.data[k];
        else r.data[k] = v;
      }
      r.updateTime = Math.max(ctx.clock.now(), r.updateTime);
    });
    ctx.store.changed();
  }
  return answerOf(ctx, def, rec);
}

export function deleteResource(ctx: Context, def: ResourceDef, uid: string): void {
  if (!def.operations.includes("delete")) throw unimplemented(`${def.kind} cannot be deleted through this API`);
  if (def.idempotentDelete && !def.placedByParent && !ctx.store.of(def.kind).get(uid)) {
    const cap = capability(ctx, def.kind, "DELETE");
    if (!ctx.principal.can(cap, uid)) throw permissionDenied(`the caller lacks ${cap} on "${uid}"`);
    return;
  }
  const rec = authorize(ctx, def, uid, "DELETE");
  removeRecord(ctx, def.kind, rec);
  ctx.store.changed();
}

/** Every match of a list query in order, without paging (the v1 endpoints). */
export function listAll(ctx: Context, def: ResourceDef, params: Params): Rec[] {
  const { order, desc } = parseOrder(getString(params, "order_by"));
  const { intervals, residual, nameEq, signature } = filtersOf(ctx, def, params);
  return ctx.engine.page(
    ctx.store.of(def.kind),
    { intervals, residual, nameEq, order, desc, signature },
    { pageSize: Number.MAX_SAFE_INTEGER - 1, skip: 0 },
  ).items;
}
