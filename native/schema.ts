/**
 * The Pulumi package schema of the native provider `platform`, written from the same kind model
 * the classes and the README row are (core/model/kindModel.ts): each kind's inputs as check
 * validates them, its outputs, the words of its docs, its secrets, maps as maps and enums as
 * enum types; `replaceOnChanges` from the description; the look-ups the provider answers as
 * functions (native/functions.ts); the provider's configuration from the settings the kinds
 * read (core/transport/settings.ts). Nothing here is written per kind.
 */
import { z } from "zod";
import { ApiDocument, loadApiDocument } from "../emulator/apiDocument";
import type { FieldShape } from "../core/model/kind";
import { kindModel, ModelField } from "../core/model/kindModel";
import type { JsonSchema } from "../core/model/jsonSchema";
import { SETTING_SOURCES } from "../core/transport/settings";
import { NativeFunction, nativeFunctions } from "./functions";
import { importSection } from "./importDocs";
import { PACKAGE_NAME, describedKinds, typeTokenOf } from "./kinds";
import type { Kind } from "../core/model/kind";

export { PACKAGE_NAME, describedKinds, typeTokenOf } from "./kinds";

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

export interface EnumTypeSpec {
  type: "string";
  description?: string;
  enum: Array<{ value: string }>;
}

export interface ResourceSpec {
  description?: string;
  properties: Record<string, PropertySpec>;
  required: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
}

export interface FunctionSpec {
  description: string;
  inputs: { properties: Record<string, PropertySpec>; required?: string[] };
  outputs: { properties: Record<string, PropertySpec>; required?: string[] };
}

export interface PackageSchema {
  name: string;
  version: string;
  displayName: string;
  description: string;
  publisher: string;
  keywords: string[];
  homepage: string;
  repository: string;
  license: string;
  pluginDownloadURL: string;
  meta: { supportPack: boolean };
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  types: Record<string, ObjectTypeSpec | EnumTypeSpec>;
  language: Record<string, unknown>;
}

const ANY: PropertySpec = { $ref: "pulumi.json#/Any" };
const pascal = (name: string) => name.replace(/(^|[._-])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
const PRIMITIVES = new Set(["string", "integer", "number", "boolean"]);
const described = (text: string | undefined) => (text ? { description: text } : {});

/**
 * Writes properties into one schema's `types`: objects with properties become named object
 * types, string enums named enum types; a documented message or enum is named after itself,
 * an input's own after its owner and property (`platform:iam:IdentityClaimMatch`).
 */
class TypeWriter {
  readonly types: PackageSchema["types"] = {};

  constructor(private readonly schemas: Readonly<Record<string, FieldShape>>) {}

  private token(domain: string, name: string): string {
    return `${PACKAGE_NAME}:${domain}:${name}`;
  }

  private enumRef(token: string, values: readonly string[]): PropertySpec {
    if (!this.types[token]) this.types[token] = { type: "string", enum: values.map((value) => ({ value })) };
    return { $ref: `#/types/${token}` };
  }

  /** An input's JSON Schema (zod's, maps as objects of their values). */
  fromJson(schema: JsonSchema, name: string, domain: string): PropertySpec {
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) {
      const specs = alternatives.map((alternative) => this.fromJson(alternative, name, domain));
      const first = specs[0]?.type;
      const same = first !== undefined && PRIMITIVES.has(first) && specs.every((spec) => spec.type === first);
      return same ? { type: first } : ANY;
    }
    const strings = schema.enum?.every((value) => typeof value === "string") ? (schema.enum as string[]) : undefined;
    if (strings && strings.length > 0) return this.enumRef(this.token(domain, name), strings);
    if (typeof schema.const === "string") return { type: "string" };
    const type = Array.isArray(schema.type) ? undefined : schema.type;
    if (type && PRIMITIVES.has(type)) return { type: type as PropertySpec["type"] };
    if (type === "array")
      return { type: "array", items: schema.items ? this.fromJson(schema.items, `${name}Item`, domain) : ANY };
    if (type === "object" && schema.properties && Object.keys(schema.properties).length > 0) {
      const token = this.token(domain, name);
      const properties: Record<string, PropertySpec> = {};
      for (const [key, value] of Object.entries(schema.properties))
        properties[key] = this.fromJson(value, `${name}${pascal(key)}`, domain);
      this.types[token] = {
        type: "object",
        properties,
        ...(schema.required?.length ? { required: schema.required } : {}),
      };
      return { $ref: `#/types/${token}` };
    }
    if (type === "object" && typeof schema.additionalProperties === "object")
      return {
        type: "object",
        additionalProperties: this.fromJson(schema.additionalProperties, `${name}Value`, domain),
      };
    return ANY;
  }

  /** A field as the API's documents give it (what the service answers). */
  fromShape(shape: FieldShape, name: string, domain: string, seen: ReadonlySet<string> = new Set()): PropertySpec {
    if (shape.ref) {
      const target = this.schemas[shape.ref];
      if (!target || seen.has(shape.ref)) return ANY;
      const own = pascal(shape.ref.split(".").slice(1).join("."));
      return this.fromShape(target, own, domain, new Set([...seen, shape.ref]));
    }
    if (shape.enum && shape.enum.length > 0) return this.enumRef(this.token(domain, name), shape.enum);
    if (shape.type && PRIMITIVES.has(shape.type)) return { type: shape.type };
    if (shape.type === "array")
      return { type: "array", items: shape.items ? this.fromShape(shape.items, `${name}Item`, domain, seen) : ANY };
    if (shape.map)
      return { type: "object", additionalProperties: this.fromShape(shape.map, `${name}Value`, domain, seen) };
    if (shape.properties) {
      const token = this.token(domain, name);
      if (!this.types[token]) {
        const properties: Record<string, PropertySpec> = {};
        this.types[token] = { type: "object", properties };
        for (const [key, value] of Object.entries(shape.properties))
          properties[key] = this.fromShape(value, `${name}${pascal(key)}`, domain, seen);
      }
      return { $ref: `#/types/${token}` };
    }
    return ANY;
  }

  field(field: ModelField, owner: string, domain: string): PropertySpec {
    const name = `${owner}${pascal(field.name)}`;
    const spec = field.json
      ? this.fromJson(field.json, name, domain)
      : field.documented
        ? this.fromShape(field.documented, name, domain)
        : ANY;
    return { ...spec, ...described(field.doc) };
  }
}

/** The resource spec of one kind. */
export function resourceSpecOf(
  kind: Kind,
  writer: TypeWriter,
  schemas: Readonly<Record<string, FieldShape>>,
): ResourceSpec {
  const model = kindModel(kind, schemas);
  const secrets = new Set(model.secrets);
  const inputProperties: Record<string, PropertySpec> = {};
  for (const input of model.inputs)
    inputProperties[input.name] = {
      ...writer.field(input, kind.typeName, kind.domain),
      ...(secrets.has(input.name) ? { secret: true } : {}),
      ...(kind.replaceOn.includes(input.name) ? { replaceOnChanges: true } : {}),
    };
  const properties: Record<string, PropertySpec> = {};
  for (const output of model.outputs) {
    // An output that is an input has the input's type; replaceOnChanges is a property of inputs only.
    const { replaceOnChanges: _inputOnly, ...asInput } = inputProperties[output.name] ?? {};
    properties[output.name] = inputProperties[output.name]
      ? asInput
      : { ...writer.field(output, kind.typeName, kind.domain), ...(secrets.has(output.name) ? { secret: true } : {}) };
  }
  const summary = kind.docs?.summary.replace(/\n/g, " ");
  return {
    description: [summary, importSection(kind)].filter(Boolean).join("\n\n"),
    properties,
    required: model.outputs.filter((output) => output.required).map((output) => output.name),
    inputProperties,
    requiredInputs: model.inputs.filter((input) => input.required).map((input) => input.name),
  };
}

/** The function spec of one look-up: its arguments as it validates them, its answer as the API's documents give it. */
function functionSpecOf(
  fn: NativeFunction,
  writer: TypeWriter,
  schemas: Readonly<Record<string, FieldShape>>,
): FunctionSpec {
  const args = z.toJSONSchema(fn.lookup.args(), { io: "input", unrepresentable: "any" }) as JsonSchema;
  const argName = pascal(fn.lookup.name);
  const inputs: FunctionSpec["inputs"] = { properties: {} };
  for (const [key, value] of Object.entries(args.properties ?? {}))
    inputs.properties[key] = writer.fromJson(value, `${argName}${pascal(key)}`, fn.domain);
  if (args.required?.length) inputs.required = args.required;
  const message = schemas[fn.message];
  if (!message?.properties) throw new Error(`${fn.token}: the API document has no message ${fn.message}`);
  const recordName = `${pascal(fn.message.split(".").slice(1).join("."))}Record`;
  if (fn.list) {
    const record = writer.fromShape({ ...message, ref: undefined }, recordName, fn.domain);
    return {
      description: `Every ${fn.noun} the API lists with these filters (all visible ones without any), under \`${fn.list}\`.`,
      inputs,
      outputs: { properties: { [fn.list]: { type: "array", items: record } }, required: [fn.list] },
    };
  }
  const outputs: FunctionSpec["outputs"] = { properties: {}, required: ["uid"] };
  for (const [key, shape] of Object.entries(message.properties))
    outputs.properties[key] = writer.fromShape(shape, `${recordName}${pascal(key)}`, fn.domain);
  outputs.properties.uid = { type: "string" };
  return {
    description: `Exactly one ${fn.noun}, by uid or by exact name (scoped with childrenOf or descendantsOf); an error when none or several match.`,
    inputs,
    outputs,
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

/**
 * What the registry and the SDKs' package files say of the package, from package.json (one place):
 * its repository, home page and license; the plugin's releases are that repository's (`github://`,
 * the organization and the repository both named: the scheme's default repository would be
 * `pulumi-platform`, which is not this one).
 */
export function publishedMetadata(): Pick<
  PackageSchema,
  "publisher" | "homepage" | "repository" | "license" | "pluginDownloadURL"
> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's own manifest
  const manifest = require("../../package.json") as { homepage: string; license: string; repository: { url: string } };
  const repository = manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
  const [owner, name] = new URL(repository).pathname.split("/").filter(Boolean);
  return {
    publisher: owner,
    homepage: manifest.homepage.replace(/#.*$/, ""),
    repository,
    license: manifest.license,
    pluginDownloadURL: `github://api.github.com/${owner}/${name}`,
  };
}

export function packageSchema(version: string, doc: ApiDocument = loadApiDocument()): PackageSchema {
  const schemas = doc.schemas as Readonly<Record<string, FieldShape>>;
  const writer = new TypeWriter(schemas);
  const resources: PackageSchema["resources"] = {};
  for (const kind of describedKinds()) resources[typeTokenOf(kind)] = resourceSpecOf(kind, writer, schemas);
  const functions: PackageSchema["functions"] = {};
  for (const fn of nativeFunctions(PACKAGE_NAME).values()) functions[fn.token] = functionSpecOf(fn, writer, schemas);
  const variables = configVariables();
  const metadata = publishedMetadata();
  const description = "Groups, identities, role bindings, repos and the other records of the Platform API v2.";
  return {
    name: PACKAGE_NAME,
    version,
    displayName: "Platform API v2",
    description,
    ...metadata,
    keywords: ["pulumi", PACKAGE_NAME, "kind/native", "category/infrastructure", "iam", "oidc"],
    // The SDKs carry the schema's version (package files, the plugin version they ask the engine for).
    meta: { supportPack: true },
    config: { variables },
    provider: { description: "The Platform API the resources are managed through.", inputProperties: variables },
    resources,
    functions,
    types: writer.types,
    language: {
      nodejs: {
        packageName: `@${metadata.publisher}/${PACKAGE_NAME}`,
        packageDescription: description,
        respectSchemaVersion: true,
      },
      python: { packageName: `pulumi_${PACKAGE_NAME}`, respectSchemaVersion: true, pyproject: { enabled: true } },
      go: {
        importBasePath: `${metadata.repository.replace(/^https:\/\//, "")}/sdk/go/${PACKAGE_NAME}`,
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
    },
  };
}
