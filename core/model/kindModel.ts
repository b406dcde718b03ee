/**
 * A kind as the generated files see it: its inputs (from its zod schema, adopt and adoptUid
 * included, as check validates them), its outputs (the inputs, the documented message's fields,
 * the extra outputs the provider adds) with their types, docs, secrets and maps. The class, the
 * README row and the package schema are all written from this one model.
 */
import { z } from "zod";
import { inputSchema } from "./check";
import type { FieldShape, ResourceKind } from "./kind";
import { mapValueSchema } from "./mapSchema";
import type { JsonSchema } from "./jsonSchema";
import { secretProperties } from "./kindSecrets";

/** Words every kind's generic inputs and outputs carry (the core gives every kind these). */
export const GENERIC_DOCS: Readonly<Record<string, string>> = {
  uid: "The record's uid, as the API names it. Same as `id`.",
  adopted: "true when the record existed and was taken over (`adopt` or `adoptUid`) rather than created.",
  adopt:
    "Take over an existing record with the same natural key instead of failing with ALREADY_EXISTS (one PATCH then\n" +
    "brings it to the declared values). Never sent to the API. Defaults to the stack-wide `platform:adopt`\n" +
    "(PLATFORM_ADOPT), off unless set.",
  adoptUid:
    "Take over exactly this existing record at create instead of creating one: it is read by its uid and must sit\n" +
    "under the declared parent with the values that cannot change in place; one PATCH brings the others to the\n" +
    "declared values. For records no key tells apart (an exported program names them so). Never sent to the API.",
};

export interface ModelField {
  name: string;
  /** Present in every answer the program sees (the uid, a required input). */
  required: boolean;
  doc: string | undefined;
  /** An input's JSON Schema, or an answered field's documented shape. */
  json?: JsonSchema;
  documented?: FieldShape;
  /** Holds a map somewhere inside (its keys need the SDK's escaping: core/program/programMaps.ts). */
  holdsMap: boolean;
}

export interface KindModel {
  kind: ResourceKind;
  inputs: ModelField[];
  outputs: ModelField[];
  /** Top-level properties holding a secret. */
  secrets: string[];
  /**
   * The documented message's own fields, by wire name, for the look-ups' record type; none for
   * a part of another kind's record (`partOf`), which is never looked up, read alone or adopted.
   */
  record?: Array<[string, FieldShape]>;
  /** The record's members every answer holds: its uid and the message's required fields. */
  recordRequired?: readonly string[];
}

/** The JSON Schema of a kind's inputs, maps written as objects of their values' schema. */
export function inputJsonSchema(kind: ResourceKind): JsonSchema {
  const options: z.core.ToJSONSchemaParams = {
    io: "input",
    unrepresentable: "any",
    override: (context) => {
      const value = mapValueSchema(context.zodSchema as unknown as z.ZodType);
      if (!value) return;
      const { $schema: _drop, ...entries } = z.toJSONSchema(value, options) as Record<string, unknown>;
      Object.assign(context.jsonSchema, { type: "object", additionalProperties: entries });
    },
  };
  return z.toJSONSchema(inputSchema(kind), options) as JsonSchema;
}

function jsonHoldsMap(schema: JsonSchema): boolean {
  if (typeof schema.additionalProperties === "object") return true;
  return [
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.items ? [schema.items] : []),
    ...Object.values(schema.properties ?? {}),
  ].some(jsonHoldsMap);
}

function shapeHoldsMap(
  shape: FieldShape,
  schemas: Readonly<Record<string, FieldShape>>,
  seen = new Set<string>(),
): boolean {
  if (shape.ref) {
    if (seen.has(shape.ref)) return false;
    seen.add(shape.ref);
    const target = schemas[shape.ref];
    return target ? shapeHoldsMap(target, schemas, seen) : false;
  }
  if (shape.map) return true;
  return [...(shape.items ? [shape.items] : []), ...Object.values(shape.properties ?? {})].some((member) =>
    shapeHoldsMap(member, schemas, seen),
  );
}

export function kindModel(kind: ResourceKind, schemas: Readonly<Record<string, FieldShape>>): KindModel {
  const docs = { ...GENERIC_DOCS, ...kind.docs?.fields };
  const outputsMessage = kind.outputsFrom?.message ?? kind.message;
  const message = schemas[outputsMessage];
  if (!message?.properties) throw new Error(`${kind.typeName}: the API document has no message ${outputsMessage}`);
  const json = inputJsonSchema(kind);
  const required = new Set(json.required ?? []);
  // An input the kind fills in when left out is in every answer.
  const defaulted = new Set(Object.keys(kind.inputDefaults ?? {}));
  const inputs: ModelField[] = Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    required: required.has(name),
    doc: docs[name],
    json: schema,
    holdsMap: jsonHoldsMap(schema),
  }));
  const inputNames = Object.fromEntries(Object.entries(kind.wireNames ?? {}).map(([input, wire]) => [wire, input]));
  const generic = new Set(["adopt", "adoptUid"]);
  // A part of another's record has no uid of its own (its id is its parent field's) and is never adopted.
  const ownRecord = kind.partOf === undefined;
  const outputs: ModelField[] = [
    ...(ownRecord ? [{ name: "uid", required: true, doc: docs.uid, json: { type: "string" }, holdsMap: false }] : []),
    ...inputs
      .filter((input) => !generic.has(input.name))
      .map((input) => (defaulted.has(input.name) ? { ...input, required: true } : input)),
  ];
  const add = (name: string, shape: FieldShape) => {
    if (outputs.some((output) => output.name === name)) return;
    outputs.push({
      name,
      required: false,
      doc: docs[name],
      documented: shape,
      holdsMap: shapeHoldsMap(shape, schemas),
    });
  };
  // A part of another kind's record (a SCIM token) answers its own outputs, not that record's
  // fields: those of the message it names, if any.
  const answered: Array<[string, FieldShape]> = kind.outputsFrom?.fields
    ? kind.outputsFrom.fields.map((wire): [string, FieldShape] => {
        const shape = message.properties![wire];
        if (!shape) throw new Error(`${kind.typeName}: the API document's ${outputsMessage} has no field ${wire}`);
        return [wire, shape];
      })
    : kind.partOf && !kind.outputsFrom
      ? []
      : Object.entries(message.properties);
  for (const [wire, shape] of answered) add(inputNames[wire] ?? wire, shape);
  for (const [name, shape] of Object.entries(kind.extraOutputs ?? {})) add(name, shape);
  if (ownRecord) add("adopted", { type: "boolean" });
  const secrets = secretProperties(kind);
  if (!ownRecord) return { kind, inputs, outputs, secrets };
  const record = schemas[kind.message];
  if (!record?.properties) throw new Error(`${kind.typeName}: the API document has no message ${kind.message}`);
  return {
    kind,
    inputs,
    outputs,
    secrets,
    record: Object.entries(record.properties),
    recordRequired: ["uid", ...(record.required ?? [])],
  };
}
