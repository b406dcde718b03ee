/**
 * The Python writer: a program model (exporter/model.ts) as `__main__.py` on the native
 * provider's generated Python SDK (`pulumi_platform`: `platform.iam.Group("team", parent_uid=…)`).
 *
 * The SDK's shapes come from the provider's package schema (native/schema.ts), the one the SDK is
 * generated from: an object type is its `…Args` class (`claim_match=platform.iam.IdentityClaimMatchArgs(
 * issuer=…)`), with the generator's own spelling of each property (exporter/pythonNames.ts); a
 * map is a dict whose keys are written as they are (the SDK translates no key of a map); a
 * reference is the other resource's attribute (`team.uid`), a secret `config.require_secret(…)`.
 * Every text is a string literal that reads back as the same string: quotes, backslashes, line
 * breaks and every character Python would not print as itself escaped, anything else (accents,
 * characters beyond the BMP) as it is.
 */
import type { PackageSchema, PropertySpec } from "../native/schema";
import { typeTokenOf } from "../native/kinds";
import { isObject } from "../core/common/values";
import { ModelResource, NamedValue, ProgramModel, ResourceOutput, SecretConfig, isComputed, valuesIn } from "./model";
import { Names } from "./identifiers";
import { initParameterName, pythonName, PYTHON_NAMING } from "./pythonNames";

/** The names the program declares besides its resources. */
const PROGRAM_NAMES = ["pulumi", "platform", "config", "opts"];

/**
 * What Python would not print as itself in a string (its `str.isprintable`): controls, format
 * characters, unassigned code points, separators but the space.
 */
const UNPRINTABLE = /[\p{C}\p{Z}]/gu;

function escaped(char: string): string {
  if (char === " ") return char;
  const code = char.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}

/** A Python string literal that reads back as `text`. */
export function pythonString(text: string): string {
  const body = text
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    .replace(UNPRINTABLE, escaped);
  return `"${body}"`;
}

/** A `#` comment that ends at the end of its line, whatever the text holds. */
function comment(text: string): string {
  return text === "" ? "#" : `# ${text.replace(UNPRINTABLE, escaped)}`;
}

export function writePython(model: ProgramModel, schema: PackageSchema): string {
  const names = new Names(PROGRAM_NAMES, PYTHON_NAMING);
  const variables = new Map<string, string>();
  // Spelled from the texts the names were made of, so that `team-a ci` is team_a_ci (not teamACi's team_aci).
  for (const { name, text } of model.constants) variables.set(name, names.claim([text ?? name]));
  // A name Python gives a meaning to gets its type after it (`class_group`), as the logical names do.
  for (const { name, text, kind } of model.resources)
    variables.set(name, names.claim([text ?? name, `${text ?? name} ${kind.typeName}`]));
  const variable = (name: string) => {
    const found = variables.get(name);
    if (found === undefined) throw new Error(`the program model refers to "${name}", which it does not declare`);
    return found;
  };

  const lines = model.header.map(comment);
  if (lines.length > 0) lines.push("");
  lines.push("import pulumi", "import pulumi_platform as platform", "");
  const usesConfig = model.resources.some((resource) =>
    [...valuesIn(resource.values)].some((value) => value instanceof SecretConfig),
  );
  if (usesConfig) lines.push("config = pulumi.Config()");
  const named = model.constants.filter((constant) => constant.comment !== undefined);
  for (const constant of model.constants.filter((c) => c.comment === undefined))
    lines.push(`${variable(constant.name)} = ${pythonString(constant.value)}`);
  lines.push(`opts = pulumi.ResourceOptions(${model.retainOnDelete ? "retain_on_delete=True" : ""})`);
  if (named.length > 0) lines.push("");
  for (const constant of named)
    lines.push(`${variable(constant.name)} = ${pythonString(constant.value)}  ${comment(constant.comment!)}`);

  /** A value as the SDK takes it where the schema says `spec`. */
  function literal(value: unknown, spec: PropertySpec | undefined, indent: string): string {
    if (isComputed(value)) {
      if (value instanceof ResourceOutput) return `${variable(value.resource)}.${pythonName(value.output)}`;
      if (value instanceof NamedValue) return variable(value.name);
      return `config.require_secret(${pythonString(value.key)})`;
    }
    const type = spec?.$ref?.startsWith("#/types/") ? schema.types[spec.$ref.slice("#/types/".length)] : undefined;
    const inner = `${indent}    `;
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      return `[\n${value.map((item) => `${inner}${literal(item, spec?.items, inner)},`).join("\n")}\n${indent}]`;
    }
    if (isObject(value) && type?.type === "object") {
      const [, module, name] = spec!.$ref!.slice("#/types/".length).split(":");
      const members = Object.entries(value).map(
        ([key, item]) => `${inner}${pythonName(key)}=${literal(item, type.properties[key], inner)},`,
      );
      const call = `platform.${module}.${name}Args(`;
      return members.length === 0 ? `${call})` : `${call}\n${members.join("\n")}\n${indent})`;
    }
    if (isObject(value)) {
      // A map (or a value the schema does not type): its keys are data, sent as they are.
      const entries = Object.entries(value);
      if (entries.length === 0) return "{}";
      const members = entries.map(
        ([key, item]) => `${inner}${pythonString(key)}: ${literal(item, spec?.additionalProperties, inner)},`,
      );
      return `{\n${members.join("\n")}\n${indent}}`;
    }
    if (typeof value === "string") return pythonString(value);
    if (typeof value === "boolean") return value ? "True" : "False";
    if (typeof value === "number" && Number.isFinite(value)) return JSON.stringify(value);
    if (value === null) return "None";
    throw new Error(`a value of type ${typeof value} cannot be written in Python`);
  }

  const resourceLines = (resource: ModelResource): string[] => {
    const token = typeTokenOf(resource.kind);
    const spec = schema.resources[token];
    if (!spec) throw new Error(`the schema has no resource ${token}`);
    const args = Object.entries(resource.values).map(
      ([field, value]) => `    ${initParameterName(field)}=${literal(value, spec.inputProperties[field], "    ")},`,
    );
    return [
      "",
      ...resource.comments.map(comment),
      `${variable(resource.name)} = platform.${resource.kind.domain}.${resource.kind.typeName}(`,
      `    ${pythonString(resource.name)},`,
      ...args,
      "    opts=opts,",
      ")",
    ];
  };
  for (const resource of model.resources) lines.push(...resourceLines(resource));
  lines.push("");
  return lines.join("\n");
}
