/**
 * Request bodies against their documented message: types, enums, formats, unknown and
 * required fields come from the documents (see messages.ts); here is what Create and Update
 * (PATCH) make of a valid body. Read-only fields in a body are ignored (AIP-203), so a client
 * may send back what it read. PATCH without updateMask changes the fields present; with
 * updateMask exactly the listed ones (set from the body, cleared when absent; the rest of the
 * body is ignored), `*` = all, and a nested path (`claimMatch.subject`) changes one field of a
 * message field. A field a create requires is not required in an update body, unless the
 * stricter reading is asked for (PatchOptions.requireFields).
 */
import { DocSchema } from "./apiDocument";
import { FieldViolation, invalidArgument } from "./errors";
import { Messages } from "./messages";

const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

export function requireObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw invalidArgument([{ field: "body", description: "must be a JSON object" }]);
  return body as Record<string, unknown>;
}

export interface BodyRules {
  /** The documented request message. */
  message: DocSchema;
  /** Fields the seed spec requires besides the documented ones. */
  alsoRequired?: string[];
  /** Rules of the kind, on the writable values the record will hold. */
  check?: (values: Record<string, unknown>) => FieldViolation[];
}

function fieldsOf(messages: Messages, schema: DocSchema): Map<string, DocSchema> {
  return new Map(Object.entries(messages.resolve(schema).properties ?? {}));
}

/**
 * The value a writable field takes when a create leaves it out, or a mask clears it: the zero
 * value of scalars; enums and messages stay unset (their kind renders its own default).
 */
function emptyOf(messages: Messages, field: DocSchema): unknown {
  const resolved = messages.resolve(field);
  if (resolved.enum) return undefined;
  switch (resolved.type) {
    case "string":
      return "";
    case "boolean":
      return false;
    case "array":
      return [];
    default:
      return undefined;
  }
}

/**
 * The body as the documented message sees it: null fields are absent (proto JSON), read-only
 * fields are dropped, and what remains is checked, every violation collected.
 */
function writableOf(
  messages: Messages,
  rules: BodyRules,
  body: Record<string, unknown>,
  violations: FieldViolation[],
  requireFields: boolean,
): Record<string, unknown> {
  const fields = fieldsOf(messages, rules.message);
  // fromEntries defines own properties, so a "__proto__" key stays a key (and is reported).
  const given = Object.fromEntries(
    Object.entries(body).filter(([key, value]) => {
      const field = fields.has(key) ? fields.get(key) : undefined;
      return !(field && (field.readOnly || value === null));
    }),
  );
  const found = messages.violations(rules.message, given);
  violations.push(
    ...(requireFields ? found : found.filter((v) => v.description !== "is required" || v.field.includes("."))),
  );
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) if (fields.has(key)) out[key] = value;
  return out;
}

export function validateCreate(messages: Messages, rules: BodyRules, rawBody: unknown): Record<string, unknown> {
  const body = requireObject(rawBody);
  const violations: FieldViolation[] = [];
  const given = writableOf(messages, rules, body, violations, true);
  const values: Record<string, unknown> = {};
  for (const [key, field] of fieldsOf(messages, rules.message)) {
    if (field.readOnly) continue;
    if (own(given, key)) values[key] = given[key];
    else {
      const empty = emptyOf(messages, field);
      if (empty !== undefined) values[key] = empty;
    }
  }
  for (const key of rules.alsoRequired ?? [])
    if ((values[key] ?? "") === "" && !violations.some((v) => v.field === key))
      violations.push({ field: key, description: "is required" });
  runChecks(rules, values, violations);
  if (violations.length) throw invalidArgument(violations);
  return values;
}

const topOf = (field: string) => field.split(/[.[]/)[0];

/** The kind's own rules, on every field whose type was right (one violation per field). */
function runChecks(rules: BodyRules, values: Record<string, unknown>, violations: FieldViolation[]): void {
  if (!rules.check) return;
  const failed = new Set(violations.map((v) => topOf(v.field)));
  for (const violation of rules.check(values)) if (!failed.has(topOf(violation.field))) violations.push(violation);
}

export interface PatchOptions {
  /** The mask's field paths; undefined = no mask. */
  mask: string[] | undefined;
  /** The record's writable values now, for nested mask paths and the kind's rules. */
  current: Record<string, unknown>;
  /**
   * The stricter reading of the vendor's documents: every documented required field in every
   * update body, and the whole body valid even where a mask leaves it out. Off, the spec's
   * update rules hold: a PATCH needs only what it changes.
   */
  requireFields: boolean;
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The changes a PATCH makes, by top-level field (a nested mask path merges into its field). */
export function validatePatch(
  messages: Messages,
  rules: BodyRules,
  rawBody: unknown,
  options: PatchOptions,
): Record<string, unknown> {
  const body = requireObject(rawBody);
  const fields = fieldsOf(messages, rules.message);
  const found: FieldViolation[] = [];
  const given = writableOf(messages, rules, body, found, options.requireFields);
  // The spec: with a mask, the body's other fields are ignored, so only what the mask names
  // must be valid. The stricter reading (requireFields) checks the whole body.
  const masked =
    options.mask && !options.mask.includes("*") && !options.requireFields
      ? new Set(options.mask.map((path) => path.split(".")[0]).flatMap((named) => [named, camel(named)]))
      : undefined;
  const violations = masked ? found.filter((v) => masked.has(topOf(v.field))) : found;
  const writable = [...fields].filter(([, f]) => !f.readOnly).map(([k]) => k);
  const required = new Set([...(messages.resolve(rules.message).required ?? []), ...(rules.alsoRequired ?? [])]);
  let changes: Record<string, unknown> = {};
  if (options.mask === undefined) changes = given;
  else {
    const paths = options.mask.includes("*") ? writable : options.mask;
    for (const path of paths) {
      const [named, ...rest] = path.split(".");
      // A mask names a field by its documented JSON name (`sync_config` is documented in
      // snake_case) or by the camelCase spelling of its proto name.
      const top = fields.has(named) ? named : camel(named);
      const field = fields.has(top) ? fields.get(top) : undefined;
      if (!field) {
        violations.push({
          field: "updateMask",
          description: `unknown field "${path}"; updatable fields: ${writable.join(", ")}`,
        });
        continue;
      }
      if (field.readOnly) {
        violations.push({ field: "updateMask", description: `field "${path}" is read-only` });
        continue;
      }
      if (rest.length === 0) {
        if (own(given, top)) changes[top] = given[top];
        else if (required.has(top))
          violations.push({ field: top, description: "is required (listed in updateMask but absent from the body)" });
        else if (!violations.some((v) => v.field === top)) changes[top] = emptyOf(messages, field);
        continue;
      }
      const inner = fieldsOf(messages, field);
      const sub = rest.join(".");
      if (rest.length > 1 || !inner.has(sub) || inner.get(sub)?.readOnly) {
        violations.push({ field: "updateMask", description: `unknown or read-only field "${path}"` });
        continue;
      }
      const base = (own(changes, top) ? changes[top] : options.current[top]) as Record<string, unknown> | undefined;
      const merged: Record<string, unknown> = { ...(base ?? {}) };
      const source = given[top] as Record<string, unknown> | undefined;
      if (source && own(source, sub) && source[sub] !== null) merged[sub] = source[sub];
      else delete merged[sub];
      changes[top] = merged;
    }
  }
  const after = { ...options.current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete after[key];
    else after[key] = value;
  }
  runChecks(rules, after, violations);
  if (violations.length) throw invalidArgument(violations);
  return changes;
}
