/**
 * Checks across fields that a schema of single fields cannot say, for a kind's `rules`.
 * No validation library here: kinds load this at module load.
 */
import type { CheckFailure } from "./kind";
import { isObject } from "../common/values";

/**
 * Exactly one of `exact` and `pattern` in `object` (at `at`), or at most one when not required.
 * A value not known yet counts as set.
 */
export function oneOf(object: unknown, at: string, exact: string, pattern: string, required: boolean): CheckFailure[] {
  if (!isObject(object)) return [];
  const has = (key: string) => object[key] !== undefined && object[key] !== null;
  if (has(exact) && has(pattern))
    return [{ property: `${at}.${exact}`, reason: `set either ${exact} or ${pattern}, not both` }];
  if (required && !has(exact) && !has(pattern))
    return [{ property: `${at}.${exact}`, reason: `is required (or ${pattern})` }];
  return [];
}
