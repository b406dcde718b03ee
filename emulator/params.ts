/**
 * Query parameters, accepted in the spec's snake_case and in camelCase
 * (`uidp.descendantsOf`, `pageSize`…): both are folded to snake_case here, once.
 */
import { invalidField } from "./errors";

export type Params = Map<string, string[]>;

export function toSnake(name: string): string {
  return name
    .split(".")
    .map((part) => part.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase())
    .join(".");
}

export function normalizeParams(search: URLSearchParams): Params {
  const params: Params = new Map();
  for (const [key, value] of search) {
    const name = toSnake(key);
    const values = params.get(name);
    if (values) values.push(value);
    else params.set(name, [value]);
  }
  return params;
}

/**
 * The raw query as the request log shows it: repeated keys become arrays. Every name is an own
 * key, `__proto__` too (assigning it would set the object's prototype instead).
 */
export function rawQuery(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of search) {
    const prior = Object.hasOwn(out, key) ? out[key] : undefined;
    if (Array.isArray(prior)) prior.push(value);
    else
      Object.defineProperty(out, key, {
        value: prior === undefined ? value : [prior, value],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

export function getString(params: Params, name: string): string | undefined {
  const values = params.get(name);
  return values?.length ? values[values.length - 1] : undefined;
}

/** Repeated parameters may come as repeated keys or as comma-separated lists. */
export function getList(params: Params, name: string): string[] | undefined {
  const values = params.get(name);
  if (!values) return undefined;
  const items = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  return items.length ? items : undefined;
}

export function getInt(params: Params, name: string): number | undefined {
  const raw = getString(params, name);
  if (raw === undefined || raw === "") return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw invalidField(name, `must be a non-negative integer, got "${raw}"`);
  const value = Number(raw);
  if (value < 0 || !Number.isSafeInteger(value))
    throw invalidField(name, `must be a non-negative integer, got "${raw}"`);
  return value;
}

export function getBool(params: Params, name: string): boolean | undefined {
  const raw = getString(params, name);
  if (raw === undefined || raw === "") return undefined;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw invalidField(name, `must be true or false, got "${raw}"`);
}

export function getTime(params: Params, name: string): number | undefined {
  const raw = getString(params, name);
  if (raw === undefined || raw === "") return undefined;
  const ms = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(ms))
    throw invalidField(name, `must be an RFC 3339 timestamp, got "${raw}"`);
  return ms;
}

/** A stored value as text: strings as they are, numbers and booleans printed, anything else "". */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}
