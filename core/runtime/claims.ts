/**
 * One record, one resource: the records of one kind that resources of this provider process hold,
 * and the creates of one natural key run one at a time.
 *
 * A record a resource has created, adopted (by key or by `adoptUid`), claimed after a lost create
 * answer or taken over after ALREADY_EXISTS is held, and so is the record of every resource the
 * engine diffs or updates (it is in the state); a held record is never a candidate for another
 * resource's create. A delete frees its record, and a create that fails frees what it took unless
 * the engine keeps the resource (a record written in part).
 *
 * Creates of the same kind and natural key (twins: two identical invites, two subscriptions to one
 * sink) run one after the other, from the look before the POST to the claim: so when one of them
 * searches for the record its lost answer may have made, every record a twin made is either held
 * (its answer arrived) or was made before this create was sent (its answer was lost, and it is no
 * proof of this create's). The engine sends creates in parallel; twins are rare, so serialising
 * them costs only the twins.
 *
 * The dynamic-provider host and the native plugin each serve every resource of a run from one
 * process, which is what this sees; another process (a second stack, a second provider resource,
 * another `pulumi up` at the same moment) is not seen.
 */
import type { Kind } from "../model/kind";
import { Props, isObject } from "../common/values";

export interface Claims {
  /** Whether a resource of this process holds the record. */
  held(uid: string): boolean;
  /** Takes the record for a resource; false (nothing taken) when another holds it already. */
  take(uid: string): boolean;
  /** Marks the record of a resource in the state held (it is diffed or updated). */
  hold(uid: string): void;
  /** Frees the record (deleted, or its create failed). */
  release(uid: string): void;
  /** Runs `fn` once every earlier create of the same natural key has ended: twins one at a time. */
  alone<T>(inputs: Props, fn: () => Promise<T>): Promise<T>;
}

/** `value` as JSON with every object's keys sorted: twins declared in any key order say the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

export function claims(kind: Kind): Claims {
  const holding = new Set<string>();
  // The last create of each natural key, settled or not: the next one starts when it ends.
  const queues = new Map<string, Promise<void>>();
  const keyOf = (inputs: Props) =>
    stableJson([kind.parentField, ...kind.keyFields].map((field) => inputs[field] ?? null));
  return {
    held: (uid) => holding.has(uid),
    take(uid) {
      if (holding.has(uid)) return false;
      holding.add(uid);
      return true;
    },
    hold: (uid) => void holding.add(uid),
    release: (uid) => void holding.delete(uid),
    alone(inputs, fn) {
      const key = keyOf(inputs);
      const before = queues.get(key) ?? Promise.resolve();
      const run = before.then(fn);
      const ended = run.then(
        () => undefined,
        () => undefined,
      );
      queues.set(key, ended);
      void ended.then(() => {
        if (queues.get(key) === ended) queues.delete(key);
      });
      return run;
    },
  };
}
