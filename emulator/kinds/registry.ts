/**
 * Every collection the emulator keeps, by kind, derived from the API document: each collection
 * the document serves a record of (`GET /<domain>/<version>/<collection>/{uid}`) is a kind, its
 * domain, message, create body, operations, noun and capabilities read from there. A kind whose
 * behaviour differs from the generic one has a file of its own, listed below; nothing here reads
 * the provider's descriptions, so the emulator judges the provider by the documents alone.
 */
import { ApiDocument, DocOperation } from "../apiDocument";
import { Context } from "../context";
import { failedPrecondition } from "../errors";
import { CollectionName, Rec, StoredRec } from "../store";
import { accountAssociations } from "./accountAssociations";
import { advisories } from "./advisories";
import { externalGroupRoleMappings } from "./externalGroupRoleMappings";
import { groupInvites } from "./groupInvites";
import { groups } from "./groups";
import { identities } from "./identities";
import { identityProviders } from "./identityProviders";
import { crud, KindRules, Kinds, Operation, ResourceDef } from "./kind";
import { overlayBindings } from "./overlayBindings";
import { overlays } from "./overlays";
import { repos } from "./repos";
import { roleBindings } from "./roleBindings";
import { roles } from "./roles";
import { subscriptions } from "./subscriptions";
import { tags } from "./tags";
import { termsAcceptances } from "./termsAcceptances";
import { requestGroups } from "./requestGroups";

/** The kinds whose behaviour is their own, by collection; every other documented collection is generic. */
const OWN_RULES: Readonly<Record<CollectionName, KindRules>> = {
  groups,
  identities,
  roles,
  roleBindings,
  repos,
  tags,
  advisories,
  identityProviders,
  accountAssociations,
  groupInvites,
  externalGroupRoleMappings,
  subscriptions,
  overlays,
  overlayBindings,
  termsAcceptances,
  requestGroups,
};

const CAPABILITY_ENUM = "capabilities.Capability";
const COLLECTION_PATH = /^\/([^/]+)\/v2(?:beta1)?\/([A-Za-z]+)(\/\{uid\})?$/;
const VERBS: Record<string, Operation> = { POST: "create", PATCH: "update", DELETE: "delete" };

/** `iam.IdentityProvider` → `identity provider`. */
const nounOf = (message: string) =>
  message
    .slice(message.lastIndexOf(".") + 1)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();

/** `roleBindings` → `ROLE_BINDINGS`. */
const upperSnake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();

/** What the document says of each collection it serves a record of. */
function documentedCollections(
  doc: ApiDocument,
): Map<CollectionName, Omit<ResourceDef, "capabilities" | "uniqueNames">> {
  const byCollection = new Map<CollectionName, { domain: string; ops: Array<[DocOperation, boolean]> }>();
  for (const op of [...doc.operations, ...doc.v2beta1Only]) {
    const path = COLLECTION_PATH.exec(op.path);
    if (!path) continue;
    const [, domain, collection, withUid] = path;
    const entry = byCollection.get(collection) ?? { domain, ops: [] };
    entry.ops.push([op, withUid !== undefined]);
    byCollection.set(collection, entry);
  }
  const out = new Map<CollectionName, Omit<ResourceDef, "capabilities" | "uniqueNames">>();
  for (const [kind, { domain, ops }] of byCollection) {
    const get = ops.find(([op, withUid]) => withUid && op.method.toUpperCase() === "GET")?.[0];
    if (!get?.answer.ref) continue;
    const operations = ops.map(([op, withUid]): Operation | undefined =>
      op.method.toUpperCase() === "GET"
        ? withUid
          ? "get"
          : "list"
        : withUid
          ? VERBS[op.method.toUpperCase()]
          : undefined,
    );
    const create = ops.find(([op, withUid]) => withUid && op.method.toUpperCase() === "POST")?.[0];
    const message = get.answer.ref;
    out.set(kind, {
      kind,
      domain,
      message,
      singular: nounOf(message),
      parentKind: "groups",
      operations: (["list", "get", "create", "update", "delete"] as const).filter((o) => operations.includes(o)),
      ...(create?.body?.ref && create.body.ref !== message ? { createBody: create.body.ref } : {}),
    });
  }
  return out;
}

function kindError(kind: CollectionName, problem: string): Error {
  return new Error(`emulator kind ${kind}: ${problem}`);
}

/** The kinds of a document: its collections, each with its own rules where it has any. */
function deriveKinds(doc: ApiDocument): Kinds {
  const documented = documentedCollections(doc);
  const capabilities = new Set(doc.schemas[CAPABILITY_ENUM]?.enum ?? []);
  const out: Record<CollectionName, ResourceDef> = {};
  for (const kind of new Set([...documented.keys(), ...Object.keys(OWN_RULES)])) {
    const rules = OWN_RULES[kind] ?? {};
    const base = documented.get(kind);
    const hasName = base !== undefined && "name" in (doc.schemas[base.message]?.properties ?? {});
    const def = {
      kind,
      ...base,
      uniqueNames: hasName && !rules.keyedByParent,
      ...rules,
      capabilities: { ...crud(`CAP_${upperSnake(base?.domain ?? "")}_${upperSnake(kind)}`), ...rules.capabilities },
    } as ResourceDef;
    for (const field of ["domain", "message", "singular", "parentKind", "operations"] as const)
      if (def[field] === undefined)
        throw kindError(kind, `the API document serves no such collection, and its file gives no ${field}`);
    for (const [verb, capability] of Object.entries(def.capabilities))
      if (!capabilities.has(capability))
        throw kindError(
          kind,
          `${verb} needs ${capability}, which ${CAPABILITY_ENUM} does not name: give the kind its capabilities ` +
            `in emulator/kinds/${kind}.ts`,
        );
    out[kind] = def;
  }
  for (const def of Object.values(out)) {
    if (!out[def.parentKind]) throw kindError(def.kind, `its parent ${def.parentKind} is no kind`);
    for (const [field, target] of Object.entries(def.references ?? {}))
      if (!out[target]) throw kindError(def.kind, `${field} names ${target}, which is no kind`);
  }
  return out;
}

const derived = new WeakMap<ApiDocument, Kinds>();

export function kindsOf(doc: ApiDocument): Kinds {
  let kinds = derived.get(doc);
  if (!kinds) derived.set(doc, (kinds = deriveKinds(doc)));
  return kinds;
}

/** The collection served at /<domain>/<version>/<collection>. */
export function resourceFor(kinds: Kinds, domain: string, collection: string): ResourceDef | undefined {
  const def = Object.prototype.hasOwnProperty.call(kinds, collection) ? kinds[collection] : undefined;
  return def && def.domain === domain ? def : undefined;
}

/**
 * Removes a record with what goes with it: refused while records of a `blockedBy` kind remain
 * below it; then the records below it and those whose `references` name it, each removed the
 * same way, and the kind's own `onDelete`.
 */
export function removeRecord(ctx: Context, kind: CollectionName, rec: Rec): void {
  const { store, kinds } = ctx;
  if (store.of(kind).get(rec.uid) !== rec) return;
  const def = kinds[kind];
  const blockers = (def.blockedBy ?? []).flatMap(([below, label]) => {
    const count = store.of(below).byParent.get(rec.uid)?.size ?? 0;
    const description = `${def.singular} "${rec.uid}" still has ${count} ${label}; delete them first`;
    return count > 0 ? [{ type: "RESOURCE_NOT_EMPTY", subject: rec.uid, description }] : [];
  });
  if (blockers.length) throw failedPrecondition(blockers);
  def.onDelete?.(ctx, rec);
  for (const other of Object.values(kinds)) {
    if (other.parentKind === kind)
      for (const child of store.of(other.kind).children(rec.uid)) removeRecord(ctx, other.kind, child);
    for (const [field, target] of Object.entries(other.references ?? {}))
      if (target === kind)
        for (const holder of store.of(other.kind).referencing(field, rec.uid)) removeRecord(ctx, other.kind, holder);
  }
  store.of(kind).remove(rec);
}

/**
 * The records of a state file, with those of a kind keyed by its parent at their parent's uid:
 * files written before the emulator keyed them so hold them under a child uid of their own.
 * Two under one parent cannot both move; that is refused, naming them (`why` words the refusal).
 */
export function rekeyByParent(
  kinds: Kinds,
  records: Partial<Record<CollectionName, StoredRec[]>>,
  why: (problem: string) => Error,
): Partial<Record<CollectionName, StoredRec[]>> {
  const out = { ...records };
  for (const [kind, def] of Object.entries(kinds)) {
    const recs = records[kind];
    if (!def.keyedByParent || !recs?.some((rec) => rec.uid !== rec.parentUid)) continue;
    const byParent = new Map<string, StoredRec>();
    for (const rec of recs) {
      const parent = String(rec.parentUid);
      const other = byParent.get(parent);
      if (other)
        throw why(
          `holds two ${kind} of "${parent}" ("${other.uid}" and "${rec.uid}"), and there is one per ${kinds[def.parentKind].singular}: ` +
            "delete one of them from the file",
        );
      byParent.set(parent, { ...rec, uid: parent });
    }
    out[kind] = [...byParent.values()];
  }
  return out;
}
