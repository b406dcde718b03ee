/**
 * The service's patterns are RE2: linear-time matching, no lookarounds or backreferences.
 * Every pattern field is compiled with re2js when written (an invalid one is a violation
 * naming the field) and matched with it, whole value against whole pattern.
 */
import { RE2JS } from "re2js";
import { FieldViolation } from "./errors";

const compiled = new Map<string, RE2JS>();

function compile(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

export function patternViolations(field: string, pattern: unknown): FieldViolation[] {
  if (typeof pattern !== "string") return [];
  if (pattern === "") return [{ field, description: "must not be empty" }];
  try {
    compile(pattern);
    return [];
  } catch (error) {
    return [{ field, description: `is not a valid RE2 pattern: ${(error as Error).message}` }];
  }
}

/** True when the whole value matches the whole pattern; a pattern that does not compile matches nothing. */
export function fullMatch(pattern: string, value: string): boolean {
  try {
    return compile(pattern).matches(value);
  } catch {
    return false;
  }
}
