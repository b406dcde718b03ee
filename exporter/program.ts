/**
 * The TypeScript and JavaScript writer: a program model (exporter/model.ts) as `index.ts` (or
 * CommonJS `index.js`) on the package's classes, `new platform.<domain>.<Type>(name, args, opts)`.
 * A resource's logical name is its variable's name (the model's names are safe identifiers,
 * exporter/identifiers.ts), references are Outputs (`parentUid: team.uid`), secrets are read with
 * `config.requireSecret`, and every text, key and comment is written so that it reads back as the
 * same value.
 */
import { isSafeIdentifier } from "./identifiers";
import { NamedValue, ProgramModel, ResourceOutput, SecretConfig, isComputed, valuesIn } from "./model";
import { jsString, oneLine } from "./text";

export interface TypeScriptOptions {
  /** CommonJS JavaScript instead of TypeScript. */
  js: boolean;
}

export function writeTypeScript(model: ProgramModel, options: TypeScriptOptions): string {
  const lines = model.header.map(comment);
  const usesConfig = model.resources.some((resource) =>
    [...valuesIn(resource.values)].some((value) => value instanceof SecretConfig),
  );
  if (options.js) {
    if (usesConfig) lines.push('const pulumi = require("@pulumi/pulumi");');
    lines.push('const platform = require("platform-pulumi");');
  } else {
    if (usesConfig) lines.push('import * as pulumi from "@pulumi/pulumi";');
    lines.push('import * as platform from "platform-pulumi";');
  }
  lines.push("");
  if (usesConfig) lines.push("const config = new pulumi.Config();");
  const named = model.constants.filter((constant) => constant.comment !== undefined);
  for (const constant of model.constants.filter((c) => c.comment === undefined))
    lines.push(`const ${variable(constant.name)} = ${jsString(constant.value)};`);
  lines.push(model.retainOnDelete ? "const opts = { retainOnDelete: true };" : "const opts = {};");
  if (named.length > 0) lines.push("");
  for (const constant of named)
    lines.push(`const ${variable(constant.name)} = ${jsString(constant.value)}; ${comment(constant.comment!)}`);

  for (const resource of model.resources) {
    const fields = Object.entries(resource.values).map(
      ([field, value]) => `    ${property(field)}: ${literal(value, "    ")},`,
    );
    lines.push(
      "",
      ...resource.comments.map(comment),
      `const ${variable(resource.name)} = new platform.${resource.kind.domain}.${resource.kind.typeName}(`,
      `  ${jsString(resource.name)},`,
      "  {",
      ...fields,
      "  },",
      "  opts,",
      ");",
    );
  }
  lines.push("");
  return lines.join("\n");
}

/** The model's names are the program's variables: one that is not a safe identifier is a fault of the model. */
function variable(name: string): string {
  if (!isSafeIdentifier(name)) throw new Error(`the program model names a variable "${name}", which is not safe`);
  return name;
}

/** A `//` comment that ends at the end of its line, whatever the text holds. */
function comment(text: string): string {
  return text === "" ? "//" : `// ${oneLine(text)}`;
}

/** A computed value as the expression that computes it. */
function expression(value: unknown): string | undefined {
  if (value instanceof ResourceOutput) return `${variable(value.resource)}.${value.output}`;
  if (value instanceof NamedValue) return variable(value.name);
  if (value instanceof SecretConfig) return `config.requireSecret(${jsString(value.key)})`;
  return undefined;
}

/** A value as a TypeScript literal, objects and arrays one member a line, keys unquoted where they can be. */
function literal(value: unknown, indent: string): string {
  if (isComputed(value)) return expression(value)!;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${indent}  ${literal(v, `${indent}  `)},`).join("\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const members = entries.map(([k, v]) => `${indent}  ${property(k)}: ${literal(v, `${indent}  `)},`);
    return `{\n${members.join("\n")}\n${indent}}`;
  }
  return jsString(value);
}

/**
 * A key of an object literal that makes a key of that name. `__proto__: v` and `"__proto__": v`
 * set the object's prototype instead (and the entry is gone); only a computed key makes the key.
 */
export function property(key: string): string {
  if (key === "__proto__") return `[${jsString(key)}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : jsString(key);
}
