/**
 * What a collection is: where it is served, which message it answers with, where its records
 * live, and the rules that are its own, as hooks the generic operations call (handlers.ts
 * names no kind).
 */
import { Context } from "../context";
import { FieldViolation } from "../errors";
import type { Messages } from "../messages";
import { Params } from "../params";
import { CollectionName, Rec, Store } from "../store";

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
  kinds: Kinds;
}

export type Verb = "LIST" | "CREATE" | "UPDATE" | "DELETE";

export interface ResourceDef {
  kind: CollectionName;
  /** First path segment (`iam`, `registry`, …); the collection's path segment is the kind. */
  domain: string;
  /** Singular name for messages and ResourceInfo. */
  singular: string;
  /** Collection of the parent named in a create path. */
  parentKind: CollectionName;
  /** The documented message of a record. */
  message: string;
  /** The documented create body, when it is not the record's message. */
  createBody?: string;
  operations: Operation[];
  /** The capability each verb needs, as the document's enum names it (default `CAP_<DOMAIN>_<COLLECTION>_<VERB>`). */
  capabilities: Record<Verb, string>;
  /** The built-in editor role may create, update and delete records of the kind (viewer only lists). */
  editable?: boolean;
  /** Data fields naming a record of another kind: looked up by value, and deleted with the record they name. */
  references?: Record<string, CollectionName>;
  /** Kinds whose records below one of this kind keep it from being deleted, with the words that name them. */
  blockedBy?: Array<[CollectionName, string]>;
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
  /**
   * What a delete does beyond the generic one (which refuses while `blockedBy` records remain and
   * removes the records below it and those whose `references` name it); the record itself is
   * removed by the caller.
   */
  onDelete?: (ctx: Context, rec: Rec) => void;
}

/** Every collection the emulator keeps, by kind. */
export type Kinds = Readonly<Record<CollectionName, ResourceDef>>;

/**
 * What a kind's own file says: only where it differs from the generic collection its API
 * document entry describes (a kind the document does not serve says where it lives itself).
 */
export type KindRules = Partial<Omit<ResourceDef, "kind">>;

/** The four verbs' capabilities named `<prefix>_<VERB>`. */
export const crud = (prefix: string): Record<Verb, string> => ({
  LIST: `${prefix}_LIST`,
  CREATE: `${prefix}_CREATE`,
  UPDATE: `${prefix}_UPDATE`,
  DELETE: `${prefix}_DELETE`,
});

export const iso = (ms: number) => new Date(ms).toISOString();
