/**
 * For tests parametrised over the managed kinds: where each kind's records live and how record
 * number `i` of a kind is made directly through the API (out of band) and declared in a program,
 * under a fresh group, with what the kind needs made first. Derived from each kind's description
 * (tools/host/exampleRecords.ts): a kind of the kind list has its case with no line here.
 */
import type { Kind, ResourceKind } from "../../core/model/kind";
import { KINDS } from "../../resources/kinds";
import { ExampleRecords, collectionPath } from "../../tools/host/exampleRecords";
import type { Harness } from "../../tools/host/resourceHarness";

/** One direct API call (out of band), failing the test on an error answer. */
export async function made(h: Harness, path: string, body: unknown): Promise<{ uid: string } & Record<string, any>> {
  const answer = await h.api("POST", path, body);
  if (answer.status !== 200) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** `count` records made in small parallel batches, in index order batch by batch. */
export async function many(count: number, make: (i: number) => Promise<{ uid: string }>): Promise<string[]> {
  const uids: string[] = [];
  for (let start = 0; start < count; start += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - start) }, (_, k) => make(start + k)));
    uids.push(...batch.map((r) => r.uid));
  }
  return uids;
}

export interface Place {
  /** Where the kind's records are created: `POST {collection}/{parent}`. */
  parent: string;
  /** The create body of record `i`. */
  body(i: number): Record<string, unknown>;
  /** The resource inputs that declare record `i`. */
  inputs(i: number): Record<string, unknown>;
}

export interface KindCase {
  /** The collection's path (v2beta1). */
  collection: string;
  /** Records 0 to `count - 1` can be made under the place this prepares below `group`. */
  place(h: Pick<Harness, "api">, group: string, count: number): Promise<Place>;
}

/** `props` without the write-only members (`oidc.clientSecret`): nothing reads them back to compare. */
function withoutWriteOnly(kind: Kind, props: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(props);
  for (const path of kind.writeOnly) {
    const keys = path.split(".");
    let at: unknown = out;
    for (const key of keys.slice(0, -1)) at = (at as Record<string, unknown> | undefined)?.[key];
    if (typeof at === "object" && at !== null) delete (at as Record<string, unknown>)[keys[keys.length - 1]];
  }
  return out;
}

/**
 * The case of `kind` among `kinds` (which its example's references name): record `i` is its
 * example told apart by one natural key field, made (or, for a reference, its own record `i` made
 * first) under the group a test gives; write-only members left out of both the body and the inputs.
 */
export function kindCase(kind: ResourceKind, kinds: readonly ResourceKind[]): KindCase {
  return {
    collection: collectionPath(kind),
    place: async (h, group, count) => {
      const records = new ExampleRecords(h.api, kinds, group);
      const described = records.kind(kind.typeName);
      const variation = records.variation(described);
      const declared: Array<Record<string, unknown>> = [];
      for (let start = 0; start < count; start += 20)
        declared.push(
          ...(
            await Promise.all(
              Array.from({ length: Math.min(20, count - start) }, (_, k) =>
                records.inputs(described, start + k, variation),
              ),
            )
          ).map((inputs) => withoutWriteOnly(described, inputs)),
        );
      return {
        parent: String(declared[0][described.parentField]),
        body: (i) => records.body(described, declared[i]),
        inputs: (i) => declared[i],
      };
    },
  };
}

const described = KINDS.map((registered) => registered.provider.kind!);

/** Per kind (by type name) but those that are part of another's record (never listed or adopted). */
export const KIND_CASES: Record<string, KindCase> = Object.fromEntries(
  described.filter((kind) => !kind.partOf).map((kind) => [kind.typeName, kindCase(kind, described)]),
);

let groups = 0;
/** A fresh group under the root, for one test's records. */
export async function freshGroup(h: Harness, what: string): Promise<string> {
  return (await made(h, `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: `${what.toLowerCase()}-${groups++}` })).uid;
}
