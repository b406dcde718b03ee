/**
 * TypeScript type text from the two sources of a kind's shapes: the JSON Schema zod writes for
 * its inputs (draft 2020-12, `z.toJSONSchema`), and the API document's fields for what the
 * service answers. Input types wrap every member in `pulumi.Input` as Pulumi's own SDKs do.
 */
import type { FieldShape } from "../../core/model/kind";

export type { JsonSchema } from "../../core/model/jsonSchema";
import type { JsonSchema } from "../../core/model/jsonSchema";

/** A member name as a property key: bare when it is an identifier. */
export const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

/** The lines of `text` wrapped at word boundaries to fit `width`, each keeping its indentation (an example's). */
function wrapped(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraphLine of text.split("\n")) {
    // A line's indentation (a code example's) is kept, on its continuation lines too.
    const indent = /^ */.exec(paragraphLine)![0];
    let line = "";
    for (const word of paragraphLine.slice(indent.length).split(" ")) {
      if (line && indent.length + line.length + 1 + word.length > width) {
        lines.push(indent + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line ? indent + line : line);
  }
  return lines;
}

/** A doc comment for `text` at `indent`, or nothing; lines fit the project's 120 columns. */
export function docComment(text: string | undefined, indent: string): string {
  if (!text) return "";
  const lines = wrapped(text.replace(/\*\//g, "*\\/"), 120 - indent.length - 8);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} *${line ? ` ${line}` : ""}`).join("\n")}\n${indent} */\n`;
}

/**
 * The documented enums one generated module names: each is a `type` alias written once, named
 * after the enum (`capabilities.Capability` is `Capability`), and every use of the same value
 * set refers to it. Uses are placeholders until the module is whole, so that names are chosen
 * knowing every enum it holds (two `…Type` enums become `ReferenceType` and `SeverityType`).
 */
export class ModuleEnums {
  private readonly used = new Set<string>();
  /** Documented enums by their values, sorted and joined: how a check's value set finds its enum. */
  private readonly byValues = new Map<string, string[]>();

  constructor(private readonly schemas: Readonly<Record<string, FieldShape>>) {
    for (const [ref, shape] of Object.entries(schemas))
      if (shape.enum) {
        const key = valuesKey(shape.enum);
        this.byValues.set(key, [...(this.byValues.get(key) ?? []), ref]);
      }
  }

  /** The type of documented enum `ref` (a placeholder until `resolve`). */
  named(ref: string): string {
    this.used.add(ref);
    return `${MARK}${ref}${MARK}`;
  }

  /**
   * The type of the values a check takes (an enum of an input): the documented enum with exactly
   * these values, or with these and its zero value (which a program leaves out); undefined when
   * no one documented enum has them.
   */
  ofValues(values: readonly unknown[]): string | undefined {
    if (!values.every((value): value is string => typeof value === "string")) return undefined;
    const same = this.byValues.get(valuesKey(values)) ?? [];
    if (same.length === 1) return this.named(same[0]);
    if (same.length > 1) return undefined;
    const lessZero = Object.entries(this.schemas).filter(
      ([, shape]) =>
        shape.enum &&
        shape.default !== undefined &&
        !values.includes(shape.default) &&
        valuesKey(shape.enum.filter((value) => value !== shape.default)) === valuesKey(values),
    );
    if (lessZero.length !== 1) return undefined;
    const [ref, shape] = lessZero[0];
    return `Exclude<${this.named(ref)}, ${JSON.stringify(shape.default)}>`;
  }

  /**
   * `text` with each enum's placeholder replaced by its alias, and the aliases' declarations;
   * `taken` are the module's other names, which an alias never takes.
   */
  resolve(text: string, taken: ReadonlySet<string>): { text: string; declarations: string } {
    const names = aliasNames([...this.used].sort(), taken);
    const declarations = [...names]
      .map(
        ([ref, name]) =>
          `/** The API document's enum ${ref}. */\ntype ${name} = ${literalUnion(this.schemas[ref].enum ?? [])};\n`,
      )
      .join("\n");
    const resolved = text.replace(new RegExp(`${MARK}([^${MARK}]+)${MARK}`, "g"), (_all, ref: string) =>
      names.get(ref)!,
    );
    return { text: resolved, declarations };
  }
}

/** Marks an enum's placeholder: a character no type text holds. */
const MARK = "\u0000";

const valuesKey = (values: readonly string[]) => JSON.stringify([...values].sort());

const capitalized = (word: string) => word[0].toUpperCase() + word.slice(1);

/**
 * Each enum's alias: the shortest tail of its dotted name, PascalCased, that no other enum of
 * the module shares and no taken name is; the whole name when no tail is.
 */
export function aliasNames(refs: readonly string[], taken: ReadonlySet<string>): Map<string, string> {
  const names = new Map<string, string>();
  const tail = (ref: string, segments: number) => ref.split(".").slice(-segments).map(capitalized).join("");
  for (let segments = 1; names.size < refs.length; segments++) {
    const pending = refs.filter((ref) => !names.has(ref));
    const chosen = new Set(names.values());
    const counts = new Map<string, number>();
    for (const ref of pending) counts.set(tail(ref, segments), (counts.get(tail(ref, segments)) ?? 0) + 1);
    for (const ref of pending) {
      const name = tail(ref, segments);
      const whole = segments >= ref.split(".").length;
      const free = counts.get(name) === 1 && !taken.has(name) && !chosen.has(name);
      if (free) names.set(ref, name);
      else if (whole) names.set(ref, `${name}Enum`);
    }
  }
  return names;
}

export interface TypeContext {
  /** Words on members of message fields, by dotted path (KindDocs.fields). */
  docs: Readonly<Record<string, string>>;
  /** Wrap members in pulumi.Input (an Args type) or not (an output type). */
  input: boolean;
  /** Members left out, by dotted path: the write-only ones in what the service answers. */
  omitted?: ReadonlySet<string>;
  /** The module's named enums; without it every enum is written out as its values. */
  enums?: ModuleEnums;
}

const literalUnion = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value)).join(" | ");

const wrap = (text: string, context: TypeContext) => (context.input ? `pulumi.Input<${text}>` : text);

/** A list of `item`, parenthesized when it is a union: `("A" | "B")[]`, not `"A" | "B"[]`. */
function arrayOf(item: string): string {
  let depth = 0;
  for (const char of item) {
    if ("{<([".includes(char)) depth++;
    else if ("}>)]".includes(char)) depth--;
    else if (char === "|" && depth === 0) return `(${item})[]`;
  }
  return `${item}[]`;
}

/** The type of a JSON Schema (an input's, from zod), its members documented from `path`. */
export function jsonType(schema: JsonSchema, context: TypeContext, path: string, indent: string): string {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((variant) => jsonType(variant, context, path, indent)).join(" | ");
  if (schema.enum) return context.enums?.ofValues(schema.enum) ?? literalUnion(schema.enum);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return arrayOf(wrap(schema.items ? jsonType(schema.items, context, path, indent) : "unknown", context));
    case "object": {
      if (schema.properties && Object.keys(schema.properties).length > 0)
        return objectType(
          Object.entries(schema.properties).map(([name, member]) => ({
            name,
            optional: !(schema.required ?? []).includes(name),
            text: jsonType(member, context, `${path}.${name}`, `${indent}  `),
          })),
          context,
          path,
          indent,
        );
      const value = typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
      return `Record<string, ${wrap(value ? jsonType(value, context, path, indent) : "unknown", context)}>`;
    }
    default:
      return "unknown";
  }
}

interface Member {
  name: string;
  optional: boolean;
  text: string;
}

function objectType(members: Member[], context: TypeContext, path: string, indent: string): string {
  const lines = members.map(
    (member) =>
      `${docComment(context.docs[`${path}.${member.name}`], `${indent}  `)}${indent}  ${key(member.name)}${
        member.optional ? "?" : ""
      }: ${wrap(member.text, context)};`,
  );
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** How deep answered messages are spelled out; below, a message is `Record<string, unknown>`. */
const MAX_DEPTH = 6;

/**
 * The type of a field the service answers, from the API document: every member of a message
 * may be absent from an answer. Enums are the union of their documented values.
 */
export function documentedType(
  shape: FieldShape,
  schemas: Readonly<Record<string, FieldShape>>,
  context: TypeContext,
  path: string,
  indent: string,
  depth = 0,
): string {
  if (shape.ref) {
    const target = schemas[shape.ref];
    if (!target) throw new Error(`the API document has no ${shape.ref} (at ${path})`);
    if (target.enum && context.enums) return context.enums.named(shape.ref);
    return documentedType(target, schemas, context, path, indent, depth);
  }
  if (shape.enum) return literalUnion(shape.enum);
  switch (shape.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return arrayOf(shape.items ? documentedType(shape.items, schemas, context, path, indent, depth) : "unknown");
    default: {
      if (shape.map) return `Record<string, ${documentedType(shape.map, schemas, context, path, indent, depth)}>`;
      const properties = Object.entries(shape.properties ?? {}).filter(
        ([name]) => !context.omitted?.has(`${path}.${name}`),
      );
      if (properties.length === 0 || depth >= MAX_DEPTH) return "Record<string, unknown>";
      return objectType(
        properties.map(([name, member]) => ({
          name,
          optional: true,
          text: documentedType(member, schemas, context, `${path}.${name}`, `${indent}  `, depth + 1),
        })),
        context,
        path,
        indent,
      );
    }
  }
}
