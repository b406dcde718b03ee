/**
 * Map keys Pulumi's Node.js SDK cannot carry, and how they cross it anyway.
 *
 * A map input (an identity's `claims`, an overlay's `annotations`, an association's `clientIds`)
 * may hold any key, `__proto__` included: the service keeps it, JSON carries it. The SDK does
 * not: it copies every object it sends or receives by assignment (`obj[key] = value`, in the
 * program's serializer, in the provider host's deserializer, in google-protobuf's
 * Struct.toJavaScript), and assigning `__proto__` sets the prototype instead of a key, so the
 * key is silently dropped on each of those hops. The engine itself keeps it.
 *
 * So wherever a value crosses the SDK, such a key travels escaped: `__proto__` as `__proto__~`,
 * and a key already spelled `__proto__~…` gains one more `~`, so every key maps back to itself.
 * The resource classes escape the program's inputs and unescape the outputs they hand it
 * (core/program/programMaps.ts); the provider unescapes what the host hands it and escapes what it
 * hands back (`withHostKeys`). The state holds the escaped spelling; the service and the
 * program see the real key. Exactly one escape per crossing: escaping is not idempotent.
 */

import type { Lifecycle } from "./lifecycle";
import type { Props } from "../common/values";

const PROTO = "__proto__";
/** `__proto__` followed by any number of `~`: the keys the escape touches. */
const FAMILY = /^__proto__~*$/;

const inFamily = (key: string) => key.startsWith(PROTO) && FAMILY.test(key);

export const escapeKey = (key: string): string => (inFamily(key) ? `${key}~` : key);
export const unescapeKey = (key: string): string => (inFamily(key) && key !== PROTO ? key.slice(0, -1) : key);

/** Whether any key at any depth of `value` is one the escape touches (a scan that allocates nothing). */
function holdsFamilyKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsFamilyKey);
  if (value === null || typeof value !== "object") return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (inFamily(key) || holdsFamilyKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** `value` with every key renamed, at any depth; objects are rebuilt with own keys only (never a prototype). */
function renamedDeep(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renamedDeep(item, rename));
  if (value === null || typeof value !== "object") return value;
  // fromEntries defines own properties: a "__proto__" key stays a key.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), renamedDeep(item, rename)]));
}

/**
 * `value` as the SDK can carry it. The same object when nothing needs escaping (most values:
 * a refresh of N resources then copies nothing).
 */
export function toHostKeys<T>(value: T): T {
  return holdsFamilyKey(value) ? (renamedDeep(value, escapeKey) as T) : value;
}

/** `value` with the keys the SDK carried escaped back to their real spelling. */
export function fromHostKeys<T>(value: T): T {
  return holdsFamilyKey(value) ? (renamedDeep(value, unescapeKey) as T) : value;
}

/**
 * A provider's operations as the host calls them: what the host hands in is unescaped before
 * the operation sees it, what the operation hands back is escaped (a PartlyWrittenError's
 * properties escape themselves: core/runtime/resourceError.ts).
 */
export function withHostKeys(ops: Lifecycle): Lifecycle {
  // The host's values are untyped (`any`): typed here as the property bags they are.
  const real = (props: unknown) => fromHostKeys(props as Props);
  const hosted = (props: unknown) => toHostKeys(props as Props);
  return {
    ...ops,
    check: (olds, news) =>
      ops.check(real(olds), real(news)).then((result) => ({
        ...result,
        ...(result.inputs === undefined ? {} : { inputs: hosted(result.inputs) }),
      })),
    diff: (id, olds, news) => ops.diff(id, real(olds), real(news)),
    create: (inputs) => ops.create(real(inputs)).then((result) => ({ ...result, outs: hosted(result.outs) })),
    read: (id, props) =>
      ops.read(id, props === undefined ? undefined : real(props)).then((result) => ({
        ...result,
        ...(result.props === undefined ? {} : { props: hosted(result.props) }),
        ...(result.inputs === undefined ? {} : { inputs: hosted(result.inputs) }),
      })),
    update: (id, olds, news) =>
      ops.update(id, real(olds), real(news)).then((result) => ({
        ...result,
        ...(result.outs === undefined ? {} : { outs: hosted(result.outs) }),
      })),
    delete: (id, props) => ops.delete(id, real(props)),
  };
}
