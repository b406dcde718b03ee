/**
 * Body validation shared by every resource: types, required fields, unknown fields,
 * read-only fields, and how PATCH picks the fields it changes (no mask: those present;
 * updateMask: exactly those listed). Violations are collected so one answer lists them all.
 */
import { FieldViolation, invalidArgument } from "./errors";

export type FieldType = "string" | "boolean" | "stringArray" | "object" | "objectArray" | "stringMap";

export interface FieldSpec {
  type: FieldType;
  readOnly?: boolean;
  required?: boolean;
  /** Value a field takes on create when absent, and when cleared through an update mask. */
  empty?: unknown;
  /** Extra rule; returns violations (field paths included) for the value. */
  // Runs after the type rule accepted the value, so each check declares the type it was promised.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  check?: (value: any) => FieldViolation[];
}

export type FieldSpecs = Record<string, FieldSpec>;

function typeError(type: FieldType, value: unknown): string | null {
  switch (type) {
    case "string":
      return typeof value === "string" ? null : "must be a string";
    case "boolean":
      return typeof value === "boolean" ? null : "must be a boolean";
    case "stringArray":
      return Array.isArray(value) && value.every((v) => typeof v === "string") ? null : "must be an array of strings";
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value) ? null : "must be an object";
    case "objectArray":
      return Array.isArray(value) && value.every((v) => v !== null && typeof v === "object" && !Array.isArray(v))
        ? null
        : "must be an array of objects";
    case "stringMap":
      return value !== null &&
        typeof value === "object" &&
        !Array.isArray(value) &&
        Object.values(value).every((v) => typeof v === "string")
        ? null
        : "must be an object of strings";
  }
}

function emptyOf(spec: FieldSpec): unknown {
  if (spec.empty !== undefined) return structuredClone(spec.empty);
  switch (spec.type) {
    case "string":
      return "";
    case "boolean":
      return false;
    case "stringArray":
    case "objectArray":
      return [];
    default:
      return undefined;
  }
}

function fieldName(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function requireObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw invalidArgument([{ field: "body", description: "must be a JSON object" }]);
  return body as Record<string, unknown>;
}

/** Checks a body and returns the writable fields it sets, typed. */
function checkFields(
  specs: FieldSpecs,
  body: Record<string, unknown>,
  violations: FieldViolation[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const spec = specs[key];
    if (!spec) {
      violations.push({ field: key, description: "unknown field" });
      continue;
    }
    // Read-only fields are ignored (AIP-203), so clients may send back what they read.
    if (spec.readOnly || value === null) continue;
    const problem = typeError(spec.type, value);
    if (problem) violations.push({ field: key, description: problem });
    else out[key] = value;
  }
  return out;
}

function checkRules(specs: FieldSpecs, values: Record<string, unknown>, violations: FieldViolation[]): void {
  for (const [key, value] of Object.entries(values)) {
    const spec = specs[key];
    if (!spec || value === undefined) continue;
    if (spec.required && (value === "" || value === undefined))
      violations.push({ field: key, description: "is required" });
    else if (spec.check) violations.push(...spec.check(value));
  }
}

export function validateCreate(specs: FieldSpecs, rawBody: unknown): Record<string, unknown> {
  const body = requireObject(rawBody);
  const violations: FieldViolation[] = [];
  const given = checkFields(specs, body, violations);
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    if (spec.readOnly) continue;
    if (key in given) values[key] = given[key];
    else if (spec.required) {
      if (!violations.some((v) => v.field === key)) violations.push({ field: key, description: "is required" });
    } else {
      const empty = emptyOf(spec);
      if (empty !== undefined) values[key] = empty;
    }
  }
  checkRules(specs, values, violations);
  if (violations.length) throw invalidArgument(violations);
  return values;
}

/**
 * The changes a PATCH makes. Without a mask: the writable fields present in the body.
 * With updateMask=a,b: exactly a and b (set from the body, or cleared when absent), "*" = all.
 */
export function validatePatch(
  specs: FieldSpecs,
  rawBody: unknown,
  updateMask: string[] | undefined,
): Record<string, unknown> {
  const body = requireObject(rawBody);
  const violations: FieldViolation[] = [];
  const given = checkFields(specs, body, violations);
  let changes: Record<string, unknown>;
  if (updateMask === undefined) {
    changes = given;
  } else {
    const writable = Object.keys(specs).filter((k) => !specs[k].readOnly);
    // A nested path (claimMatch.subject) takes its whole top-level message from the body.
    const fields = updateMask.includes("*")
      ? writable
      : [...new Set(updateMask.map((f) => fieldName(f.split(".")[0])))];
    changes = {};
    for (const field of fields) {
      const spec = specs[field];
      if (!spec)
        violations.push({
          field: "updateMask",
          description: `unknown field "${field}"; updatable fields: ${writable.join(", ")}`,
        });
      else if (spec.readOnly) violations.push({ field: "updateMask", description: `field "${field}" is read-only` });
      else if (field in given) changes[field] = given[field];
      else if (!violations.some((v) => v.field === field)) {
        if (spec.required)
          violations.push({ field, description: "is required (listed in updateMask but absent from the body)" });
        else changes[field] = emptyOf(spec);
      }
    }
  }
  checkRules(specs, changes, violations);
  if (violations.length) throw invalidArgument(violations);
  return changes;
}
