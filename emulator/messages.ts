/**
 * The documented messages compiled into JSON Schema validators (ajv + ajv-formats): one
 * validator checks request bodies and answers alike. Objects admit only their documented
 * fields (maps admit any key), so an unknown field -- `toString` and `__proto__` included,
 * since JSON.parse makes them own keys -- is a violation naming it.
 */
import Ajv, { ErrorObject, ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { ApiDocument, DocSchema } from "./apiDocument";
import { FieldViolation } from "./errors";

type JsonSchema = Record<string, unknown>;

function toJsonSchema(schema: DocSchema): JsonSchema {
  if (schema.ref) return { $ref: `#/definitions/${schema.ref}` };
  const out: JsonSchema = {};
  if (schema.type) out.type = schema.type;
  if (schema.enum) out.enum = schema.enum;
  if (schema.readOnly) out.readOnly = true;
  // Proto JSON writes 64-bit integers as decimal strings.
  if (schema.format === "int64" && schema.type === "string") out.pattern = "^-?[0-9]+$";
  else if (schema.format) out.format = schema.format;
  if (schema.type === "array" && schema.items) out.items = toJsonSchema(schema.items);
  if (schema.type === "object" || schema.properties) {
    out.type = "object";
    if (schema.properties)
      out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, toJsonSchema(v)]));
    if (schema.required?.length) out.required = schema.required;
    out.additionalProperties = schema.map ? toJsonSchema(schema.map) : false;
  }
  return out;
}

/** A JSON pointer into a body ("/claimMatch/claims/team") as a field path ("claimMatch.claims.team"). */
export function fieldPath(pointer: string, child?: string): string {
  const segments = pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (child !== undefined) segments.push(child);
  let out = "";
  for (const segment of segments) out += /^\d+$/.test(segment) ? `[${segment}]` : out ? `.${segment}` : segment;
  return out;
}

function describe(error: ErrorObject): FieldViolation {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { field: fieldPath(error.instancePath, String(params.missingProperty)), description: "is required" };
    case "additionalProperties":
      return {
        field: fieldPath(error.instancePath, String(params.additionalProperty)),
        description: "unknown field",
      };
    case "type": {
      const type = String(params.type);
      const article = /^[aeiou]/.test(type) ? "an" : "a";
      return { field: fieldPath(error.instancePath) || "body", description: `must be ${article} ${type}` };
    }
    case "enum": {
      const allowed = (params.allowedValues as string[]) ?? [];
      const shown = allowed.slice(0, 8).join(", ") + (allowed.length > 8 ? `, … (${allowed.length} values)` : "");
      return { field: fieldPath(error.instancePath), description: `must be one of the documented values: ${shown}` };
    }
    case "format":
      return {
        field: fieldPath(error.instancePath),
        description:
          params.format === "date-time"
            ? "must be an RFC 3339 timestamp"
            : params.format === "byte"
              ? "must be base64"
              : `must be a ${String(params.format)} value`,
      };
    case "pattern":
      return { field: fieldPath(error.instancePath), description: "must be a decimal integer" };
    default:
      return { field: fieldPath(error.instancePath) || "body", description: error.message ?? "is invalid" };
  }
}

export class Messages {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly doc: ApiDocument) {
    this.ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(this.ajv);
    const definitions = Object.fromEntries(Object.entries(doc.schemas).map(([k, v]) => [k, toJsonSchema(v)]));
    this.ajv.addSchema({ $id: "api", definitions });
  }

  /** The documented message (or an inline message of an operation). */
  schema(ref: string): DocSchema {
    const schema = this.doc.schemas[ref];
    if (!schema) throw new Error(`the API document has no message ${ref}`);
    return schema;
  }

  /** Follows `ref`s to the schema they name. */
  resolve(schema: DocSchema): DocSchema {
    let current = schema;
    for (let hops = 0; current.ref && hops < 16; hops++) current = this.schema(current.ref);
    return current;
  }

  validator(schema: DocSchema): ValidateFunction {
    const key = schema.ref ?? JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      const json = schema.ref ? { $ref: `api#/definitions/${schema.ref}` } : rebase(toJsonSchema(schema));
      validate = this.ajv.compile(json);
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** Every violation of the message by value, one per field. */
  violations(schema: DocSchema, value: unknown): FieldViolation[] {
    const validate = this.validator(schema);
    if (validate(value)) return [];
    const out: FieldViolation[] = [];
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      const violation = describe(error);
      if (seen.has(violation.field)) continue;
      seen.add(violation.field);
      out.push(violation);
    }
    return out;
  }
}

/** Inline schemas point into the shared definitions by the document's id. */
function rebase(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/definitions\//g, '"api#/definitions/')) as JsonSchema;
}

const compiled = new WeakMap<ApiDocument, Messages>();

/** Compiling the documents takes a moment; every emulator in a process shares one compilation. */
export function messagesOf(doc: ApiDocument): Messages {
  let messages = compiled.get(doc);
  if (!messages) compiled.set(doc, (messages = new Messages(doc)));
  return messages;
}
