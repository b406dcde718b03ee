/**
 * Reading what an export declares: every record of every managed kind below one group (one
 * paginated List per kind, scoped with `uidp.descendants_of`; for a kind keyed by its parent, such
 * as the group's own account association, the group's record too), and the roles bindings refer
 * to that live outside it (built-in roles), by uid.
 */
import { z } from "zod";
import type { ApiClient } from "../core/transport/client";
import type { ApiRecord } from "../core/model/kind";
import { isNotFound } from "../core/common/errors";
import { listAll } from "../core/transport/pagination";
import type { ExportedKind } from "./kinds";

export interface KindRecords {
  exported: ExportedKind;
  records: ApiRecord[];
}

export interface Subtree {
  /** The group below which everything was read; itself not declared. */
  under: string;
  kinds: KindRecords[];
}

const anyRecord = z.looseObject({ uid: z.string().min(1) }) as z.ZodType<ApiRecord>;

/** Reports progress on large trees: called after each kind with the running count. */
export type Progress = (line: string) => void;

export async function readSubtree(
  client: ApiClient,
  under: string,
  kinds: ExportedKind[],
  progress: Progress = () => undefined,
  concurrently = false,
): Promise<Subtree> {
  let total = 0;
  const readKind = async (exported: ExportedKind): Promise<KindRecords> => {
    const { kind } = exported;
    const list = (query: Record<string, string>) =>
      listAll(client, { domain: kind.domain, collection: kind.collection, query, schema: anyRecord });
    const records = await list({ "uidp.descendants_of": under });
    // A record keyed by its parent has the parent's uid: the group's own is not below the group.
    if (kind.keyedByParent) records.push(...(await list({ "uidp.ids": under })));
    total += records.length;
    progress(`read ${records.length} ${kind.collection} (${total} records so far)`);
    return { exported, records: records.sort((a, b) => compareText(a.uid, b.uid)) };
  };
  // Concurrently, the kinds' pages overlap (the client bounds what is in flight); the requests are the same.
  const result: KindRecords[] = [];
  if (concurrently) result.push(...(await Promise.all(kinds.map(readKind))));
  else for (const exported of kinds) result.push(await readKind(exported));
  for (const placed of result) {
    // The group exported below, and every record read of the kind's parent collection.
    const { parentCollection } = placed.exported.kind;
    const candidates = [
      under,
      ...result
        .filter((k) => k.exported.kind.collection === parentCollection)
        .flatMap((k) => k.records.map((r) => r.uid)),
    ];
    await placeRecords(client, placed, candidates, `no group below ${under} lists it as its own`);
  }
  return { under, kinds: result };
}

/**
 * The records of one kind with these uids, as an export reads them (one List filtered by
 * `uidp.ids` per chunk of uids): a uid the service does not answer is of no record of the kind.
 */
export async function readUids(
  client: ApiClient,
  exported: ExportedKind,
  uids: readonly string[],
): Promise<ApiRecord[]> {
  const { kind } = exported;
  const records: ApiRecord[] = [];
  // Short enough for any server's URL limit, whatever the uids.
  for (let i = 0; i < uids.length; i += UIDS_PER_LIST) {
    const query = { "uidp.ids": [...uids.slice(i, i + UIDS_PER_LIST)] };
    records.push(
      ...(await listAll(client, { domain: kind.domain, collection: kind.collection, query, schema: anyRecord })),
    );
  }
  return records.sort((a, b) => compareText(a.uid, b.uid));
}

const UIDS_PER_LIST = 50;

/**
 * Records whose uid does not tell where they were created (a custom role's) get their parent
 * field from the List of the kind's children of each candidate parent; `unplaced` says why a
 * record no candidate lists is an error.
 */
export async function placeRecords(
  client: ApiClient,
  placed: KindRecords,
  candidates: readonly string[],
  unplaced: string,
): Promise<void> {
  const { kind } = placed.exported;
  const records = placed.records.filter((record) => kind.toOutputs(record)[kind.parentField] === undefined);
  if (records.length === 0 || !kind.parentCollection) return;
  const parentOf = new Map<string, string>();
  for (const candidate of new Set(candidates)) {
    const children = await listAll(client, {
      domain: kind.domain,
      collection: kind.collection,
      query: { "uidp.children_of": candidate },
      schema: anyRecord,
    });
    for (const child of children) parentOf.set(child.uid, candidate);
  }
  for (const record of records) {
    const parent = parentOf.get(record.uid);
    if (parent === undefined) throw new Error(`${kind.noun} ${record.uid}: ${unplaced}`);
    record[kind.parentField] = parent;
  }
}

/** The group an export starts from: it must exist (a List below a missing group would read as empty). */
export async function readGroup(client: ApiClient, uid: string): Promise<void> {
  try {
    await client.request({ method: "GET", domain: "iam", path: `groups/${uid}` });
  } catch (error) {
    if (isNotFound(error)) throw new Error(`there is no group ${uid} (--under names the group to export below)`);
    throw error;
  }
}

/** A role by uid, or undefined when the service says there is no such role. */
export async function readRole(client: ApiClient, uid: string): Promise<{ uid: string; name: string } | undefined> {
  try {
    const role = await client.request<{ uid?: unknown; name?: unknown }>({
      method: "GET",
      domain: "iam",
      path: `roles/${uid}`,
    });
    return typeof role?.name === "string" ? { uid, name: role.name } : undefined;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
