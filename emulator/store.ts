/**
 * In-memory records with the indexes lists need: one sorted index per orderable field,
 * plus parent, name and reference look-ups. Every mutation is synchronous, so handlers that
 * validate and write in one turn of the event loop never interleave.
 */
import { SortedIndex, SortValue } from "./sortedIndex";
import { uidKey } from "./ids";

/** A collection's name (`groups`, `roleBindings`, …): which ones exist is the kinds registry's (kinds/registry.ts). */
export type CollectionName = string;

export interface Rec {
  uid: string;
  /** Sort key of the uid (see uidKey). */
  k: string;
  parentUid: string | null;
  name: string;
  createTime: number;
  updateTime: number;
  /** Kind-specific fields, stored as the API shows them. */
  data: Record<string, unknown>;
}

export type OrderField = "uid" | "name" | "createTime" | "updateTime";

function addTo(map: Map<string, Set<Rec>>, key: string, rec: Rec): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(rec);
}

function removeFrom(map: Map<string, Set<Rec>>, key: string, rec: Rec): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(rec);
  if (set.size === 0) map.delete(key);
}

export class Collection {
  readonly byUid = new Map<string, Rec>();
  readonly byParent = new Map<string, Set<Rec>>();
  readonly byName = new Map<string, Set<Rec>>();
  readonly byReference = new Map<string, Map<string, Set<Rec>>>();
  readonly indexes: Record<OrderField, SortedIndex<Rec>> = {
    uid: new SortedIndex<Rec>((r) => r.k),
    name: new SortedIndex<Rec>((r) => r.name),
    createTime: new SortedIndex<Rec>((r) => r.createTime),
    updateTime: new SortedIndex<Rec>((r) => r.updateTime),
  };
  /** Bumped on every change; list caches are keyed by it. */
  version = 0;
  /** Told of every record written or removed (the journal), once attached. */
  onWrite: ((op: "put" | "del", rec: Rec) => void) | null = null;

  /** `referenceFields`: data fields looked up by value (a binding's identityUid). */
  constructor(
    readonly kind: CollectionName,
    referenceFields: readonly string[] = [],
  ) {
    for (const field of referenceFields) this.byReference.set(field, new Map());
  }

  get size(): number {
    return this.byUid.size;
  }

  get(uid: string): Rec | undefined {
    return this.byUid.get(uid);
  }

  children(parentUid: string): Rec[] {
    return [...(this.byParent.get(parentUid) ?? [])];
  }

  named(name: string): Rec[] {
    return [...(this.byName.get(name) ?? [])];
  }

  referencing(field: string, value: string): Rec[] {
    return [...(this.byReference.get(field)?.get(value) ?? [])];
  }

  private addSecondary(rec: Rec): void {
    if (rec.parentUid !== null) addTo(this.byParent, rec.parentUid, rec);
    addTo(this.byName, rec.name, rec);
    for (const [field, map] of this.byReference) {
      const value = rec.data[field];
      if (typeof value === "string") addTo(map, value, rec);
    }
  }

  private removeSecondary(rec: Rec): void {
    if (rec.parentUid !== null) removeFrom(this.byParent, rec.parentUid, rec);
    removeFrom(this.byName, rec.name, rec);
    for (const [field, map] of this.byReference) {
      const value = rec.data[field];
      if (typeof value === "string") removeFrom(map, value, rec);
    }
  }

  add(rec: Rec): void {
    this.byUid.set(rec.uid, rec);
    for (const index of Object.values(this.indexes)) index.insert(rec);
    this.addSecondary(rec);
    this.version++;
    this.onWrite?.("put", rec);
  }

  addMany(recs: Rec[]): void {
    for (const rec of recs) {
      this.byUid.set(rec.uid, rec);
      this.addSecondary(rec);
    }
    for (const index of Object.values(this.indexes)) index.addMany(recs);
    this.version++;
    if (this.onWrite) for (const rec of recs) this.onWrite("put", rec);
  }

  remove(rec: Rec): void {
    if (this.byUid.get(rec.uid) !== rec) return;
    this.byUid.delete(rec.uid);
    for (const index of Object.values(this.indexes)) index.remove(rec);
    this.removeSecondary(rec);
    this.version++;
    this.onWrite?.("del", rec);
  }

  /** Changes a record in place, keeping every index consistent with the new values. */
  update(rec: Rec, mutate: (rec: Rec) => void): void {
    const { name, updateTime } = this.indexes;
    name.remove(rec);
    updateTime.remove(rec);
    this.removeSecondary(rec);
    mutate(rec);
    name.insert(rec);
    updateTime.insert(rec);
    this.addSecondary(rec);
    this.version++;
    this.onWrite?.("put", rec);
  }
}

export interface StoredRec {
  uid: string;
  parentUid: string | null;
  name: string;
  createTime: number;
  updateTime: number;
  data: Record<string, unknown>;
}

/** A record as stored (without its sort key). */
export function stored({ uid, parentUid, name, createTime, updateTime, data }: Rec): StoredRec {
  return { uid, parentUid, name, createTime, updateTime, data };
}

export function makeRec(stored: StoredRec): Rec {
  return { ...stored, k: uidKey(stored.uid) };
}

export class Store {
  readonly collections: Readonly<Record<CollectionName, Collection>>;
  private listeners: Array<() => void> = [];
  /**
   * Answer advisory events in the short form of the seed scope (`{type, time}`) instead of
   * the documented events, for clients that still read that form.
   */
  legacyAdvisoryEvents = false;

  /** One collection per kind, each with the data fields its records are looked up by. */
  constructor(kinds: Iterable<{ kind: CollectionName; references?: Record<string, CollectionName> }>) {
    const collections: Record<CollectionName, Collection> = {};
    for (const { kind, references } of kinds) collections[kind] = new Collection(kind, Object.keys(references ?? {}));
    this.collections = collections;
  }

  get kinds(): CollectionName[] {
    return Object.keys(this.collections);
  }

  of(kind: CollectionName): Collection {
    if (!Object.prototype.hasOwnProperty.call(this.collections, kind))
      throw new Error(`the emulator keeps no collection ${kind}`);
    return this.collections[kind];
  }

  /** Every record written or removed from now on goes to writer (the journal). */
  attachWriter(writer: (kind: CollectionName, op: "put" | "del", rec: StoredRec) => void): void {
    for (const kind of this.kinds) this.collections[kind].onWrite = (op, rec) => writer(kind, op, stored(rec));
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  changed(): void {
    for (const listener of this.listeners) listener();
  }

  snapshot(): Record<CollectionName, StoredRec[]> {
    const out = {} as Record<CollectionName, StoredRec[]>;
    for (const kind of this.kinds) {
      out[kind] = this.collections[kind].indexes.uid.items.map(stored);
    }
    return out;
  }

  load(snapshot: Partial<Record<CollectionName, StoredRec[]>>): void {
    for (const kind of this.kinds) {
      const recs = snapshot[kind];
      if (recs?.length) this.collections[kind].addMany(recs.map(makeRec));
    }
  }
}

export function sortValue(rec: Rec, field: OrderField): SortValue {
  return field === "uid" ? rec.k : rec[field];
}
