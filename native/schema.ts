/**
 * The Pulumi package schema of the native provider `platform`, generated from the kinds'
 * descriptions (resources/kinds.ts): each kind's inputs from its zod input schema (the same one
 * check validates with), its outputs from the API document's message of the record, its secrets
 * and replace-on-change fields from the description, and the provider's configuration from the
 * settings the kinds read (provider/settings.ts). Nothing here is written per kind.
 *
 * NOT DONE (issue 24): descriptions in the project's own words, the look-ups as functions (the
 * provider answers get<Kind>/get<Collection> invokes, the schema does not declare them yet),
 * enums as enum types, map inputs the zod schema does not express (they come out as Any), and
 * ScimToken, which carries no description.
 */
import { z } from "zod";
import { ApiDocument, DocSchema, loadApiDocument } from "../emulator/apiDocument";
import { inputSchema } from "../provider/check";
import type { Kind } from "../provider/kind";
import { SETTING_SOURCES } from "../provider/settings";
import { KINDS } from "../resources/kinds";

export const PACKAGE_NAME = "platform";

/** A property as a Pulumi package schema spells it. */
export interface PropertySpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export interface ResourceSpec {
  description?: string;
  properties: Record<string, PropertySpec>;
  required: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
}

export interface PackageSchema {
  name: string;
  version: string;
  displayName: string;
  description: string;
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  resources: Record<string, ResourceSpec>;
  types: Record<string, ObjectTypeSpec>;
  language: Record<string, unknown>;
}

/** `platform:iam:Group`: the type token of a kind's resources. */
export function typeTokenOf(kind: Pick<Kind, "domain" | "typeName">): string {
  return `${PACKAGE_NAME}:${kind.domain}:${kind.typeName}`;
}

/** The kinds the native provider serves: those registered with their description (ScimToken has none yet). */
export function describedKinds(): Kind[] {
  return KINDS.flatMap((entry) => (entry.provider.kind ? [entry.provider.kind] : []));
}

const ANY: PropertySpec = { $ref: "pulumi.json#/Any" };
const pascal = (name: string) => name.replace(/(^|[._-])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
const PRIMITIVES = new Set(["string", "integer", "number", "boolean"]);

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
};

/**
 * A JSON Schema (zod's) as a Pulumi property; an object with properties becomes a named type
 * `platform:<domain>:<Owner><Property>` in `types`.
 */
function fromJsonSchema(schema: JsonSchema, name: string, domain: string, types: PackageSchema["types"]): PropertySpec {
  const description = schema.description ? { description: schema.description } : {};
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const specs = alternatives.map((alternative) => fromJsonSchema(alternative, name, domain, types));
    const same = specs.every(
      (spec) => spec.type !== undefined && PRIMITIVES.has(spec.type) && spec.type === specs[0].type,
    );
    return same ? { type: specs[0].type, ...description } : { ...ANY, ...description };
  }
  const type = Array.isArray(schema.type) ? undefined : schema.type;
  if (type && PRIMITIVES.has(type)) return { type: type as PropertySpec["type"], ...description };
  if (schema.enum?.every((value) => typeof value === "string") || typeof schema.const === "string")
    return { type: "string", ...description };
  if (type === "array") {
    return {
      type: "array",
      items: schema.items ? fromJsonSchema(schema.items, name, domain, types) : ANY,
      ...description,
    };
  }
  if (type === "object" && schema.properties && Object.keys(schema.properties).length > 0) {
    const token = `${PACKAGE_NAME}:${domain}:${name}`;
    const properties: Record<string, PropertySpec> = {};
    for (const [key, value] of Object.entries(schema.properties))
      properties[key] = fromJsonSchema(value, `${name}${pascal(key)}`, domain, types);
    types[token] = { type: "object", properties, ...(schema.required?.length ? { required: schema.required } : {}) };
    return { $ref: `#/types/${token}`, ...description };
  }
  if (type === "object" && typeof schema.additionalProperties === "object")
    return {
      type: "object",
      additionalProperties: fromJsonSchema(schema.additionalProperties, name, domain, types),
      ...description,
    };
  return { ...ANY, ...description };
}

/** A field of the API document as a Pulumi property (the outputs the service answers). */
function fromDocSchema(
  schema: DocSchema,
  name: string,
  domain: string,
  doc: ApiDocument,
  types: PackageSchema["types"],
  seen: Set<string> = new Set(),
): PropertySpec {
  if (schema.ref) {
    const target = doc.schemas[schema.ref];
    if (!target || seen.has(schema.ref)) return ANY;
    return fromDocSchema(
      target,
      pascal(schema.ref.split(".").slice(1).join(".")),
      domain,
      doc,
      types,
      new Set([...seen, schema.ref]),
    );
  }
  if (schema.enum) return { type: "string" };
  if (schema.type === "string" || schema.type === "boolean" || schema.type === "integer") return { type: schema.type };
  if (schema.type === "array")
    return { type: "array", items: schema.items ? fromDocSchema(schema.items, name, domain, doc, types, seen) : ANY };
  if (schema.map)
    return { type: "object", additionalProperties: fromDocSchema(schema.map, name, domain, doc, types, seen) };
  if (schema.properties) {
    const token = `${PACKAGE_NAME}:${domain}:${name}`;
    if (!types[token]) {
      const properties: Record<string, PropertySpec> = {};
      types[token] = { type: "object", properties };
      for (const [key, value] of Object.entries(schema.properties))
        properties[key] = fromDocSchema(value, `${name}${pascal(key)}`, domain, doc, types, seen);
    }
    return { $ref: `#/types/${token}` };
  }
  return ANY;
}

/** The resource spec of one kind. */
export function resourceSpecOf(kind: Kind, doc: ApiDocument, types: PackageSchema["types"]): ResourceSpec {
  const inputs = z.toJSONSchema(inputSchema(kind), { io: "input", unrepresentable: "any" }) as JsonSchema;
  const secretRoots = new Set((kind.secrets ?? []).map((path) => path.split(".")[0]));
  const inputProperties: Record<string, PropertySpec> = {};
  for (const [key, value] of Object.entries(inputs.properties ?? {})) {
    inputProperties[key] = {
      ...fromJsonSchema(value, `${kind.typeName}${pascal(key)}`, kind.domain, types),
      ...(secretRoots.has(key) ? { secret: true } : {}),
      ...(kind.replaceOn.includes(key) ? { replaceOnChanges: true } : {}),
    };
  }
  // The outputs: every field of the record (by its input name where the wire spells it otherwise),
  // the inputs the record answers or the state keeps, and whether the record was taken over.
  const inputNames = Object.fromEntries(Object.entries(kind.wireNames ?? {}).map(([input, wire]) => [wire, input]));
  const message = doc.schemas[kind.message];
  const properties: Record<string, PropertySpec> = {};
  for (const [wire, field] of Object.entries(message?.properties ?? {})) {
    const key = inputNames[wire] ?? wire;
    properties[key] =
      inputProperties[key] ?? fromDocSchema(field, `${kind.typeName}${pascal(key)}`, kind.domain, doc, types);
  }
  for (const key of [...kind.compared, ...kind.companions.map((c) => c.input), ...kind.localInputs])
    if (inputProperties[key] && !properties[key]) properties[key] = inputProperties[key];
  properties.adopted = { type: "boolean", description: "The record existed and was taken over rather than created." };
  for (const key of secretRoots) if (properties[key]) properties[key] = { ...properties[key], secret: true };
  // Outputs never carry replaceOnChanges: it is a property of inputs.
  for (const [key, value] of Object.entries(properties)) {
    if (value.replaceOnChanges) {
      const { replaceOnChanges: _r, ...rest } = value;
      properties[key] = rest;
    }
  }
  return {
    description: `A ${kind.noun} of the Platform API (${kind.message}).`,
    properties,
    required: properties.uid ? ["uid"] : [],
    inputProperties,
    requiredInputs: inputs.required ?? [],
  };
}

/** The provider's configuration: each setting the kinds read, under its config key's name. */
function configVariables(): Record<string, PropertySpec> {
  const variables: Record<string, PropertySpec> = {};
  for (const [, source] of Object.entries(SETTING_SOURCES)) {
    const name = source.config.slice(`${PACKAGE_NAME}:`.length);
    const secret = name === "token" || name === "identityToken";
    variables[name] = {
      type: "string",
      description: `Also read from the environment variable ${source.env}.`,
      ...(secret ? { secret: true } : {}),
    };
  }
  return variables;
}

export function packageSchema(version: string, doc: ApiDocument = loadApiDocument()): PackageSchema {
  const types: PackageSchema["types"] = {};
  const resources: PackageSchema["resources"] = {};
  for (const kind of describedKinds()) resources[typeTokenOf(kind)] = resourceSpecOf(kind, doc, types);
  const variables = configVariables();
  return {
    name: PACKAGE_NAME,
    version,
    displayName: "Platform API v2",
    description: "Groups, identities, role bindings, repos and the other records of the Platform API v2.",
    config: { variables },
    provider: { description: "The Platform API the resources are managed through.", inputProperties: variables },
    resources,
    types,
    language: { nodejs: { respectSchemaVersion: true }, python: { respectSchemaVersion: true } },
  };
}
