/**
 * What a property of the native provider's package schema (native/schema.ts) holds, with its
 * named types looked up: the Python and Go renderers write a value by it (an object type is an
 * Args class there), and the pages' tables name it.
 */
import type { PackageSchema, PropertySpec } from "../../../native/schema";

export type Shape =
  | { readonly of: "string" | "integer" | "number" | "boolean" }
  | { readonly of: "array"; readonly items: Shape }
  | { readonly of: "map"; readonly values: Shape }
  | {
      readonly of: "object";
      readonly token: string;
      readonly properties: Readonly<Record<string, PropertySpec>>;
      readonly required: readonly string[];
    }
  | { readonly of: "enum"; readonly token: string; readonly values: readonly string[] }
  | { readonly of: "any" };

/** `platform:iam:IdentityClaimMatch` → its module (`iam`) and name (`IdentityClaimMatch`). */
export function tokenParts(token: string): { module: string; name: string } {
  const [, module, name] = token.split(":");
  if (!module || !name) throw new Error(`${token} is not a type token of the form <package>:<module>:<name>`);
  return { module, name };
}

export function shapeOf(spec: PropertySpec, schema: PackageSchema): Shape {
  if (spec.$ref?.startsWith("#/types/")) {
    const token = spec.$ref.slice("#/types/".length);
    const type = schema.types[token];
    if (!type) throw new Error(`the schema refers to ${token}, which it does not define`);
    if ("enum" in type) return { of: "enum", token, values: type.enum.map((entry) => entry.value) };
    return { of: "object", token, properties: type.properties, required: type.required ?? [] };
  }
  if (spec.$ref) return { of: "any" };
  switch (spec.type) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
      return { of: spec.type };
    case "array":
      return { of: "array", items: spec.items ? shapeOf(spec.items, schema) : { of: "any" } };
    case "object":
      return {
        of: "map",
        values: spec.additionalProperties ? shapeOf(spec.additionalProperties, schema) : { of: "any" },
      };
    default:
      return { of: "any" };
  }
}

/** The property `name` of an object shape's members, or an error naming what the example got wrong. */
export function memberSpec(
  properties: Readonly<Record<string, PropertySpec>>,
  name: string,
  owner: string,
): PropertySpec {
  const spec = properties[name];
  if (!spec) throw new Error(`${owner} has no property ${name} (an example sets it)`);
  return spec;
}
