/**
 * What a collection is: where it is served, which message it answers with, where its records
 * live, and the rules that are its own, as hooks the generic operations call (handlers.ts
 * names no kind).
 */
import { Context } from "../context";
import { FieldViolation } from "../errors";
import { Params } from "../params";
import type { ResourceKind } from "../../provider/kind";
import { KINDS, Kind, Rec, Store } from "../store";

const isKind = (collection: string): collection is Kind => (KINDS as readonly string[]).includes(collection);

/**
 * Where a kind the package manages is served and what it answers, from the kind's description
 * (resources/<domain>/<kind>/description.ts): its collection, domain, noun, message and the
 * collection of its parent are written there once, for the provider and the emulator alike.
 */
export function servedAs(
  description: Pick<ResourceKind, "collection" | "domain" | "noun" | "message" | "parentCollection">,
): Pick<ResourceDef, "kind" | "domain" | "singular" | "message" | "parentKind"> {
  const { collection, parentCollection } = description;
  if (!isKind(collection) || !isKind(parentCollection))
    throw new Error(`the emulator keeps no collection ${isKind(collection) ? parentCollection : collection}`);
  return {
    kind: collection,
    domain: description.domain,
    singular: description.noun,
    message: description.message,
    parentKind: parentCollection,
  };
}

export type Operation = "list" | "get" | "create" | "update" | "delete";

export interface ListFilters {
  predicates: Array<(rec: Rec) => boolean>;
  /** Canonical text of the filters (a cache key). */
  signature: unknown[];
}

export interface ResourceDef {
  kind: Kind;
  /** First path segment (`iam`, `registry`, …); the collection's path segment is the kind. */
  domain: string;
  /** Singular name for messages and ResourceInfo. */
  singular: string;
  /** Kind of the parent named in a create path. */
  parentKind: Kind;
  /** The documented message of a record. */
  message: string;
  /** The documented create body, when it is not the record's message. */
  createBody?: string;
  operations: Operation[];
  /**
   * The uid is one opaque segment that does not say where the record lives (a role's): access
   * follows the group it was defined on (its parent), and records without a parent are built
   * in: visible to every caller, never changed.
   */
  placedByParent?: boolean;
  /** Names are unique among siblings (ALREADY_EXISTS otherwise). */
  uniqueNames: boolean;
  /** Fields the seed spec requires on create besides the documented ones. */
  alsoRequired?: string[];
  /** The kind's own rules on the writable values a record would hold. */
  check?: (values: Record<string, unknown>) => FieldViolation[];
  render: (rec: Rec, store: Store) => Record<string, unknown>;
  /** The answer to a create, when it shows more than a read does (an invite's code). */
  renderCreated?: (rec: Rec, store: Store) => Record<string, unknown>;
  filters?: (params: Params, store: Store) => ListFilters;
  /** A new record's uid under its parent (default: the parent's uid, `/`, a new segment). */
  newUid?: (parentUid: string) => string;
  /**
   * The record's uid IS its parent's (one record per parent: an account association is its
   * group's): a second create under the parent is ALREADY_EXISTS, and the uidp filters place it
   * where its parent is (children_of a group lists its child groups' records).
   */
  keyedByParent?: boolean;
  /** A DELETE of a missing record succeeds (AIP-135), for a caller who may delete there. */
  idempotentDelete?: boolean;
  /** References and uniqueness beyond names, before a create or update is written. */
  beforeWrite?: (ctx: Context, parentUid: string, values: Record<string, unknown>, self?: Rec) => void;
  /** Read-only data a new record starts with (derived from the values). */
  initialData?: (ctx: Context, values: Record<string, unknown>, now: number) => Record<string, unknown>;
  /** Blockers (throw) and cascades of a delete; the record itself is removed by the caller. */
  onDelete?: (ctx: Context, rec: Rec) => void;
}

export const iso = (ms: number) => new Date(ms).toISOString();

/** Writable stored values plus uid, name and times, as the message's fields (nothing undocumented). */
export function renderStored(rec: Rec, fields: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const all: Record<string, unknown> = {
    uid: rec.uid,
    name: rec.name,
    createTime: iso(rec.createTime),
    updateTime: iso(rec.updateTime),
    ...rec.data,
    ...extra,
  };
  const out: Record<string, unknown> = {};
  for (const field of fields) if (all[field] !== undefined) out[field] = all[field];
  return out;
}
