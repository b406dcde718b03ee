/**
 * TypeScript type text from the two sources of a kind's shapes: the JSON Schema zod writes for
 * its inputs (draft 2020-12, `z.toJSONSchema`), and the API document's fields for what the
 * service answers. Input types wrap every member in `pulumi.Input` as Pulumi's own SDKs do.
 */
import type { FieldShape } from "../../provider/kind";

export type { JsonSchema } from "../../provider/jsonSchema";
import type { JsonSchema } from "../../provider/jsonSchema";

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

export interface TypeContext {
  /** Words on members of message fields, by dotted path (KindDocs.fields). */
  docs: Readonly<Record<string, string>>;
  /** Wrap members in pulumi.Input (an Args type) or not (an output type). */
  input: boolean;
  /** Members left out, by dotted path: the write-only ones in what the service answers. */
  omitted?: ReadonlySet<string>;
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
  if (schema.enum) return literalUnion(schema.enum);
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
