/**
 * What a collection is: where it is served, which message it answers with, where its records
 * live, and the rules that are its own, as hooks the generic operations call (handlers.ts
 * names no kind).
 */
import { Context } from "../context";
import { FieldViolation } from "../errors";
import type { Messages } from "../messages";
import { Params } from "../params";
import type { ResourceKind } from "../../core/model/kind";
import { KINDS, Kind, Rec, Store } from "../store";

const isKind = (collection: string): collection is Kind => (KINDS as readonly string[]).includes(collection);

/**
 * Where a kind the package manages is served and what it answers, from the kind's description
 * (resources/<domain>/<kind>/description.ts): its collection, domain, noun, message and the
 * collection of its parent are written there once, for the provider and the emulator alike.
 */
export function servedAs(
  description: Pick<
    ResourceKind,
    "collection" | "domain" | "noun" | "message" | "parentCollection" | "writeOnly" | "onlyAtCreate" | "placedByParent"
  >,
): Pick<
  ResourceDef,
  "kind" | "domain" | "singular" | "message" | "parentKind" | "writeOnly" | "onlyAtCreate" | "placedByParent"
> {
  const { collection, parentCollection } = description;
  if (!isKind(collection) || !isKind(parentCollection))
    throw new Error(`the emulator keeps no collection ${isKind(collection) ? parentCollection : collection}`);
  return {
    kind: collection,
    domain: description.domain,
    singular: description.noun,
    message: description.message,
    parentKind: parentCollection,
    ...(description.writeOnly ? { writeOnly: description.writeOnly } : {}),
    ...(description.onlyAtCreate ? { onlyAtCreate: description.onlyAtCreate } : {}),
    ...(description.placedByParent ? { placedByParent: true } : {}),
  };
}

export type Operation = "list" | "get" | "create" | "update" | "delete";

export interface ListFilters {
  predicates: Array<(rec: Rec) => boolean>;
  /** Canonical text of the filters (a cache key). */
  signature: unknown[];
}

/** What an answer reads: the records it hydrates from and the documents it follows. */
export interface AnswerContext {
  store: Store;
  messages: Messages;
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
  /**
   * What the service answers for a documented field the record does not hold (a group's
   * `description: ""`); the record answers every other documented field it holds by itself
   * (kinds/answer.ts).
   */
  defaults?: Record<string, unknown>;
  /**
   * Documented fields the answer derives instead of reading them from the record: references
   * hydrated from other records (a role binding's identity), fields under another name (a
   * mapping's identityProviderUid is its parent). A derived value is answered as given;
   * `undefined` leaves the field out.
   */
  derived?: (rec: Rec, ctx: AnswerContext) => Record<string, unknown>;
  /** Documented members the service keeps and never answers (`oidc.clientSecret`), as dotted paths. */
  writeOnly?: readonly string[];
  /** Documented fields only the answer to the create shows (an invite's code). */
  onlyAtCreate?: readonly string[];
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
