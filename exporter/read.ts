/**
 * Reading what an export declares: every record of every managed kind below one group (one
 * paginated List per kind, scoped with `uidp.descendants_of`), and the roles bindings refer to
 * that live outside it (built-in roles), by uid.
 */
import { z } from "zod";
import type { ApiClient } from "../provider/client";
import type { ApiRecord } from "../provider/kind";
import { isNotFound } from "../provider/errors";
import { listAll } from "../provider/pagination";
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
): Promise<Subtree> {
  const result: KindRecords[] = [];
  let total = 0;
  for (const exported of kinds) {
    const { kind } = exported;
    const records = await listAll(client, {
      domain: kind.domain,
      collection: kind.collection,
      query: { "uidp.descendants_of": under },
      schema: anyRecord,
    });
    total += records.length;
    progress(`read ${records.length} ${kind.collection} (${total} records so far)`);
    result.push({ exported, records: records.sort((a, b) => compareText(a.uid, b.uid)) });
  }
  return { under, kinds: result };
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
