/**
 * Finding an existing record by the kind's natural key (a name under its parent; group,
 * identity and role for a binding), for two uses:
 * - after a create whose answer never arrived: the one record whose user-set fields equal the
 *   request's and that was created since the request was sent, so a retry never duplicates and
 *   never takes over someone else's record;
 * - opt-in adoption (`adopt: true`, or `platform:adopt`): the record holding the key, taken
 *   over instead of failing with ALREADY_EXISTS.
 */
import type { ApiClient } from "./client";
import { inputsOf } from "./changes";
import type { ApiRecord, Kind } from "./kind";
import { lazily } from "./lazyZod";
import { listPages } from "./pagination";
import { Props, pick, sameValue, withoutValuesAt } from "./values";

/** A record found after a lost answer counts as ours only if created after the request (minus this much clock skew). */
export const CLOCK_SKEW_MS = 10 * 60 * 1000;

/** What a List answer's record must hold to be considered at all: a uid (the rest is the kind's). */
const anyRecord = lazily((z) => z.looseObject({ uid: z.string().min(1) }));

/**
 * The records holding the natural key of these inputs: a List by the key, every page of it
 * (a key filtered only by place, such as a subscription's, matches every record there), then
 * the key compared on each answer, so a service that filters loosely cannot hand over the
 * wrong record. One page at a time is held; only the matches are kept.
 */
export async function findByNaturalKey(
  client: ApiClient,
  kind: Kind,
  outputsOf: (record: ApiRecord) => Props,
  inputs: Props,
): Promise<ApiRecord[]> {
  const key = [kind.parentField, ...kind.keyFields];
  const found: ApiRecord[] = [];
  const pages = listPages(client, {
    domain: kind.domain,
    collection: kind.collection,
    query: kind.naturalKey(inputs),
    schema: anyRecord(),
  });
  for await (const page of pages)
    for (const item of page as ApiRecord[]) {
      const outs = outputsOf(item);
      if (key.every((field) => sameValue(outs[field], inputs[field]))) found.push(item);
    }
  return found;
}

/**
 * The record a create whose answer was lost made, if any: same key and fields, created since
 * `sentAt`. Write-only members (a client secret) are never answered, so they are not compared.
 */
export async function findCreated(
  client: ApiClient,
  kind: Kind,
  outputsOf: (record: ApiRecord) => Props,
  inputs: Props,
  sentAt: number,
): Promise<ApiRecord | undefined> {
  const wanted = withoutValuesAt(inputsOf(kind, pick(inputs, kind.compared)), kind.writeOnly);
  return (await findByNaturalKey(client, kind, outputsOf, inputs)).find((item) => {
    const created = Date.parse(typeof item.createTime === "string" ? item.createTime : "");
    const recent = Number.isNaN(created) || created >= sentAt - CLOCK_SKEW_MS;
    return recent && sameValue(withoutValuesAt(inputsOf(kind, outputsOf(item)), kind.writeOnly), wanted);
  });
}
