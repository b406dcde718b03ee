/**
 * The organization against every source of "managed", record by record: what changed since a
 * source last applied it, what is gone, what no source manages, what two sources manage, and what
 * an interrupted `up` left pending.
 */
import type { ApiRecord } from "../core/model/kind";
import { typeTokenOf } from "../native/kinds";
import type { Ignored } from "./ignore";
import type { FieldChange, Managed, SourceRead } from "./managed";
import type { Organization } from "./organization";

interface Where {
  source: string;
  urn?: string;
  address?: string;
}

export interface ChangedEntry extends Where {
  uid: string;
  type: string;
  /** The names of the groups from the one read below down to the record's parent, `/`-joined. */
  parent: string;
  fields: FieldChange[];
}

export interface DeletedEntry extends Where {
  uid: string;
  type: string;
  parent: string;
}

export interface UnmanagedEntry {
  uid: string;
  type: string;
  /** The record's name, or how its kind labels a record without one (a role binding). */
  name: string;
  /** The names of the groups from the one read below down to the record's parent, `/`-joined. */
  parent: string;
}

export interface ConflictEntry {
  uid: string;
  type: string;
  sources: Where[];
}

export interface PendingEntry extends Where {
  uid: string | null;
  type: string;
  urn: string;
  operation: string;
  /** The way back from an interrupted `up` (docs/guides/interrupted-up.md), in order. */
  way: string[];
}

export interface Coverage {
  managed: number;
  records: number;
  kinds: Record<string, { managed: number; records: number }>;
}

export interface DriftReport {
  under: string;
  requests: number;
  coverage: Coverage;
  changed: ChangedEntry[];
  deleted: DeletedEntry[];
  unmanaged: UnmanagedEntry[];
  conflicts: ConflictEntry[];
  pending: PendingEntry[];
  /** Each source with what it manages here and what it skipped (other providers' resources), by type. */
  sources: Array<{ source: string; managed: number; skipped: Record<string, number> }>;
  /** Records no source manages that the ignore file keeps out of `unmanaged`. */
  ignored: number;
}

/** A source holds records that are not below the group read: another organization's, never counted as deleted. */
export class ForeignRecordsError extends Error {
  constructor(under: string, foreign: Managed[]) {
    const bySource = new Map<string, Managed[]>();
    for (const m of foreign) bySource.set(m.source, [...(bySource.get(m.source) ?? []), m]);
    const lines = [...bySource].map(
      ([source, records]) =>
        `  ${source}: ${records.length} record(s), e.g. ` +
        records
          .slice(0, 3)
          .map((m) => `${m.type} ${m.uid}${m.urn ? ` (${m.urn})` : m.address ? ` (${m.address})` : ""}`)
          .join(", "),
    );
    super(
      `these sources manage records that are not below ${under}, so no report was made:\n${lines.join("\n")}\n` +
        "Each is a stack or state of another organization, or --under names a group below the one it manages: " +
        "give --under the group all the sources build below, or leave that source out",
    );
    this.name = "ForeignRecordsError";
  }
}

export const WAY_BACK = [
  "pulumi cancel --yes",
  "pulumi refresh --clear-pending-creates --yes",
  "PLATFORM_ADOPT=true pulumi up --refresh --yes",
];

const keyOf = (type: string, uid: string) => `${type} ${uid}`;
const where = (m: Managed): Where => ({
  source: m.source,
  ...(m.urn !== undefined ? { urn: m.urn } : {}),
  ...(m.address !== undefined ? { address: m.address } : {}),
});

const GROUP = "platform:iam:Group";

function isBelow(under: string, m: Managed): boolean {
  const below = (uid: string) => uid.startsWith(`${under}/`);
  // The group itself, which the stack that builds below it often declares too.
  if (m.type === GROUP && m.uid === under) return true;
  // A record keyed by its parent has the parent's uid: the group's own is below it too.
  if (m.uid.includes("/")) return below(m.uid) || (m.kind.keyedByParent === true && m.uid === under);
  // A role's uid is one segment: its parent says where it lives.
  return m.parent !== undefined && (m.parent === under || below(m.parent));
}

export function compareOrganization(org: Organization, sources: readonly SourceRead[], ignored: Ignored): DriftReport {
  const managed = sources.flatMap((s) => s.managed);
  const foreign = managed.filter((m) => !isBelow(org.under, m));
  if (foreign.length > 0) throw new ForeignRecordsError(org.under, foreign);

  const live = new Map<string, ApiRecord>([[keyOf(GROUP, org.under), org.group]]);
  const groupNames = new Map<string, string>([[org.under, org.name]]);
  /** Every record read that has a name, by uid: what a label of uids (a role binding's) is told in. */
  const names = new Map<string, string>([[org.under, org.name]]);
  for (const { exported, records } of org.kinds) {
    const type = typeTokenOf(exported.kind);
    for (const record of records) {
      live.set(keyOf(type, record.uid), record);
      if (exported.kind.collection === "groups" && typeof record.name === "string")
        groupNames.set(record.uid, record.name);
      if (typeof record.name === "string") names.set(record.uid, record.name);
    }
  }
  const byKey = new Map<string, Managed[]>();
  for (const m of managed) byKey.set(keyOf(m.type, m.uid), [...(byKey.get(keyOf(m.type, m.uid)) ?? []), m]);

  const changed: ChangedEntry[] = [];
  const deleted: DeletedEntry[] = [];
  const conflicts: ConflictEntry[] = [];
  for (const [key, holders] of byKey) {
    const { uid, type } = holders[0];
    if (holders.length > 1) conflicts.push({ uid, type, sources: holders.map(where) });
    const record = live.get(key);
    for (const m of holders) {
      if (!record) {
        deleted.push({ uid, type, parent: pathOf(m.parent ?? org.under, org.under, groupNames), ...where(m) });
        continue;
      }
      const fields = m.changes(record);
      const parent = m.kind.toOutputs(record)[m.kind.parentField] ?? m.parent;
      if (fields.length > 0)
        changed.push({
          uid,
          type,
          parent: pathOf(typeof parent === "string" ? parent : org.under, org.under, groupNames),
          ...where(m),
          fields,
        });
    }
  }

  const unmanaged: UnmanagedEntry[] = [];
  const kinds: Coverage["kinds"] = {};
  let ignoredCount = 0;
  for (const { exported, records } of org.kinds) {
    const { kind } = exported;
    const type = typeTokenOf(kind);
    const counts = { managed: 0, records: records.length };
    for (const record of records) {
      if (byKey.has(keyOf(type, record.uid))) {
        counts.managed++;
        continue;
      }
      const outputs = kind.toOutputs(record);
      const name = typeof record.name === "string" ? record.name : undefined;
      if (ignored.matches({ uid: record.uid, type, name })) {
        ignoredCount++;
        continue;
      }
      const parent = outputs[kind.parentField];
      unmanaged.push({
        uid: record.uid,
        type,
        name: name ?? kind.label(namedUids(outputs, names)),
        parent: pathOf(typeof parent === "string" ? parent : org.under, org.under, groupNames),
      });
    }
    kinds[type] = counts;
  }
  const pending: PendingEntry[] = sources.flatMap((s) => s.pending.map((p) => ({ ...p, way: [...WAY_BACK] })));
  const totals = Object.values(kinds);
  return {
    under: org.under,
    requests: org.requests,
    coverage: {
      managed: totals.reduce((n, k) => n + k.managed, 0),
      records: totals.reduce((n, k) => n + k.records, 0),
      kinds,
    },
    changed: sortedByUid(changed),
    deleted: sortedByUid(deleted),
    unmanaged: unmanaged.sort(
      (a, b) => compare(a.parent, b.parent) || compare(a.type, b.type) || compare(a.uid, b.uid),
    ),
    conflicts: sortedByUid(conflicts),
    pending,
    sources: sources.map((s) => ({ source: s.source, managed: s.managed.length, skipped: s.skipped })),
    ignored: ignoredCount,
  };
}

/** The group names from the one read below down to `parent`. */
function pathOf(parent: string, under: string, names: Map<string, string>): string {
  const steps: string[] = [];
  let uid = parent;
  while (true) {
    steps.unshift(names.get(uid) ?? uid.split("/").pop()!);
    if (uid === under || !uid.startsWith(`${under}/`)) break;
    uid = uid.slice(0, uid.lastIndexOf("/"));
  }
  return steps.join("/");
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortedByUid = <T extends { uid: string; type: string }>(entries: T[]) =>
  entries.sort((a, b) => compare(a.uid, b.uid) || compare(a.type, b.type));

/**
 * A record's outputs for its label: each `…Uid` field of a record read is told by that record's
 * name (`role "deploy" for identity "ci" on group "team-a"`, not three uids); a uid of a record not
 * read (a built-in role) stays as it is.
 */
function namedUids(outputs: Record<string, unknown>, names: ReadonlyMap<string, string>): Record<string, unknown> {
  const named: Record<string, unknown> = { ...outputs, uid: undefined };
  for (const [field, value] of Object.entries(outputs))
    if (field.endsWith("Uid") && typeof value === "string" && names.has(value)) named[field] = names.get(value);
  return named;
}
