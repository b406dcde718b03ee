/**
 * Finding an existing record by the kind's natural key (a name under its parent; group,
 * identity and role for a binding), for two uses:
 * - after a create whose answer never arrived: the record the create made, taken only on proof
 *   (findLostCreate), so a retry never duplicates and never takes over or deletes someone
 *   else's record;
 * - opt-in adoption (`adopt: true`, or `platform:adopt`): the record holding the key, taken
 *   over instead of failing with ALREADY_EXISTS.
 */
import type { ApiClient } from "../transport/client";
import { inputsOf } from "./changes";
import type { ApiRecord, Kind } from "../model/kind";
import { lazily } from "../common/lazyZod";
import { listPages } from "../transport/pagination";
import { Props, pick, sameValue, withoutValuesAt } from "../common/values";

/**
 * How far the service's clock may lag this machine's. After a lost create answer, a matching
 * record made this long before the request was sent may be the create's own (stamped by a
 * lagging clock) or another's made just before: it is neither taken nor ignored.
 */
export const CLOCK_SKEW_MS = 60 * 1000;

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

/** What the search after a lost create answer found among the records with the request's values. */
export interface LostCreateSearch {
  /** The record the lost create made, proven: the one such record made since the request was sent. */
  ours?: ApiRecord;
  /**
   * Records that may be the lost create's as well as another's (several made since the request
   * was sent, or one made around that time): none may be taken over or deleted on this evidence.
   */
  unproven: ApiRecord[];
}

/**
 * The record a create whose answer was lost made, if it can be proven, from the records holding
 * the key (every page): its user-set fields equal the request's (write-only members, never
 * answered, are not compared), it was not among the records listed before the create (`before`,
 * where the kind lists first), no resource of this process holds it (`held`: a twin's), its
 * creation time (kind.createdAtField, by the service's clock) is not before `sentAt`, and no other
 * record fits. A match made well before the request is
 * another's and ignored; one made within CLOCK_SKEW_MS before it, or with no time where the kind
 * tells one, cannot be told apart and is returned as unproven.
 */
export async function findLostCreate(
  client: ApiClient,
  kind: Kind,
  outputsOf: (record: ApiRecord) => Props,
  inputs: Props,
  sent: { at: number; before?: ReadonlySet<string>; held?: (uid: string) => boolean },
): Promise<LostCreateSearch> {
  const comparable = (values: Props) => withoutValuesAt(inputsOf(kind, values), kind.writeOnly);
  const wanted = comparable(pick(inputs, kind.compared));
  const since: ApiRecord[] = [];
  const unclear: ApiRecord[] = [];
  for (const item of await findByNaturalKey(client, kind, outputsOf, inputs)) {
    if (sent.before?.has(item.uid) || sent.held?.(item.uid) || !sameValue(comparable(outputsOf(item)), wanted))
      continue;
    const field = kind.createdAtField;
    if (field === null) {
      (sent.before ? since : unclear).push(item);
      continue;
    }
    const madeAt = Date.parse(typeof item[field] === "string" ? item[field] : "");
    if (madeAt >= sent.at) since.push(item);
    else if (Number.isNaN(madeAt) || madeAt >= sent.at - CLOCK_SKEW_MS) unclear.push(item);
  }
  return since.length === 1 && unclear.length === 0
    ? { ours: since[0], unproven: [] }
    : { unproven: [...since, ...unclear] };
}
