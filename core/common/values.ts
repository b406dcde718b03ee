/**
 * Values as the dynamic-provider host carries them, and how two of them compare.
 *
 * - `undefined` anywhere in a value crashes a host call, so every result is stripped of it.
 * - During preview, values not known yet arrive as the SDK's `unknownValue` string.
 * - A program that leaves an optional field out means the same as the service's "", false, {}, [] or null.
 */
import { isDeepStrictEqual } from "node:util";

export type Props = Record<string, unknown>;

/**
 * The wire form of a value not known yet (preview): the SDK's `runtime.unknownValue`, spelled out
 * because its module loads the SDK's RPC layer (60 MB) into every CLI command; a test pins the two equal.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** An untyped value as messages show it: strings as they are, anything else as JSON. */
export function shown(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

/**
 * `out[key] = value` as an own property whatever the key: a map's key may be `__proto__`, which
 * plain assignment takes as the prototype (dropping the entry, or grafting a prototype on).
 */
export function setOwn(out: Props, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

export function isObject(value: unknown): value is Props {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (isObject(value)) return Object.values(value).some(containsUnknown);
  return false;
}

/** A deep copy without `undefined` (the host cannot carry it); array holes become null. */
export function stripUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => (v === undefined ? null : stripUndefined(v))) as T;
  if (value !== null && typeof value === "object") {
    const out: Props = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) setOwn(out, key, stripUndefined(v));
    return out as T;
  }
  return value;
}

/** Whether `value` holds `undefined` (or an array hole) anywhere: what stripUndefined would remove. */
export function holdsUndefined(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) {
    // An index loop, not some(): some() skips holes, which the host cannot carry either.
    for (let i = 0; i < value.length; i++) if (holdsUndefined(value[i])) return true;
    return false;
  }
  if (value !== null && typeof value === "object") {
    for (const key in value) if (Object.hasOwn(value, key) && holdsUndefined((value as Props)[key])) return true;
  }
  return false;
}

/**
 * `value` itself when it holds no `undefined`, else stripUndefined's copy. For values built
 * fresh on every read (a record just parsed): a scan allocates nothing, a deep copy a whole
 * record, and a refresh of N resources pays it N times.
 */
export function withoutUndefined<T>(value: T): T {
  return holdsUndefined(value) ? stripUndefined(value) : value;
}

/** Whether canonical(value) is undefined ("not set"), without building the canonical form. */
export function isUnset(value: unknown): boolean {
  if (value === undefined || value === null || value === "" || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) {
    for (const key of Object.keys(value)) if (!isUnset(value[key])) return false;
    return true;
  }
  return false;
}

/**
 * The comparable form of a value: "", false, null, absent, {} and [] all mean "not set" (the
 * API's strings, booleans and repeated fields have no presence: the service answers "", false
 * and [] for a field never set).
 */
export function canonical(value: unknown): unknown {
  if (value === undefined || value === null || value === "" || value === false) return undefined;
  if (Array.isArray(value)) return value.length ? value.map((v) => canonical(v) ?? null) : undefined;
  if (isObject(value)) {
    const out: Props = {};
    for (const [key, v] of Object.entries(value)) {
      const c = canonical(v);
      if (c !== undefined) setOwn(out, key, c);
    }
    return Object.keys(out).length ? out : undefined;
  }
  return value;
}

/** Equal once canonical (key order never matters). */
export function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(canonical(a), canonical(b));
}

/** The given fields of `props` that are not undefined. */
export function pick(props: Props, fields: readonly string[]): Props {
  const out: Props = {};
  for (const field of fields) if (props[field] !== undefined) out[field] = props[field];
  return out;
}

/** The parent group's uid: everything before the last segment (none for a root group). */
export function parentOfUid(uid: string): string | undefined {
  const at = uid.lastIndexOf("/");
  return at > 0 ? uid.slice(0, at) : undefined;
}

/** An answer's JSON, or undefined when it is not JSON (the caller's schema then says what was wrong). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The value at a dotted path of members (`oidc.clientSecret`), or undefined when any step is missing. */
export function valueAt(props: Props, path: string): unknown {
  let current: unknown = props;
  for (const key of path.split(".")) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * `target` with the value at each of `paths` copied from `source`, where `source` has one and
 * `target` holds the message it belongs in (a message the target lacks is not made up).
 */
export function withValuesAt(target: Props, source: Props, paths: readonly string[]): Props {
  let out = target;
  for (const path of paths) {
    const value = valueAt(source, path);
    if (value === undefined) continue;
    const keys = path.split(".");
    const set = (into: Props, at: number): Props | undefined => {
      if (at === keys.length - 1) return { ...into, [keys[at]]: value };
      const inner = into[keys[at]];
      if (!isObject(inner)) return undefined;
      const copied = set(inner, at + 1);
      return copied && { ...into, [keys[at]]: copied };
    };
    out = set(out, 0) ?? out;
  }
  return out;
}

/** `props` without the values at `paths` (copies along each path; `props` is left alone). */
export function withoutValuesAt(props: Props, paths: readonly string[]): Props {
  let out = props;
  for (const path of paths) {
    const keys = path.split(".");
    const drop = (from: Props, at: number): Props => {
      if (!(keys[at] in from)) return from;
      const { [keys[at]]: inner, ...rest } = from;
      if (at === keys.length - 1) return rest;
      return isObject(inner) ? { ...rest, [keys[at]]: drop(inner, at + 1) } : from;
    };
    out = drop(out, 0);
  }
  return out;
}
