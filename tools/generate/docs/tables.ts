/**
 * The tables of a docs page, from the native provider's package schema: a property's type in
 * words (a named type links to its section under "Supporting types"), the inputs, outputs,
 * arguments and results, and the named types a page uses, each with its members' words.
 */
import type { PackageSchema, PropertySpec } from "../../../native/schema";
import { Shape, shapeOf, tokenParts } from "./schemaShapes";
import { headingSlug } from "./markdown";

/** A table cell: one line, pipes escaped. */
export const cell = (text: string | undefined) => (text ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

const code = (text: string) => `\`${text}\``;

/** Enums with more values than this are listed once, on the enums page, and linked from every page using them. */
const LONG_ENUM = 20;

/** The page under docs/ listing every long enum's values. */
export const ENUMS_PAGE = "api/enums.md";

/** A long enum's values, once for every type token holding the same values (in order), headed by the first name. */
export interface LongEnum {
  readonly heading: string;
  readonly tokens: readonly string[];
  readonly values: readonly string[];
}

/** The long enums of the schema, types with the same values as one, sorted by heading. */
export function longEnums(schema: PackageSchema): LongEnum[] {
  const byValues = new Map<string, { tokens: string[]; values: string[] }>();
  for (const [token, type] of Object.entries(schema.types).sort(([a], [b]) =>
    tokenParts(a).name.localeCompare(tokenParts(b).name),
  )) {
    if (!("enum" in type) || type.enum.length <= LONG_ENUM) continue;
    const values = type.enum.map((entry) => String(entry.value));
    const key = JSON.stringify(values);
    const group = byValues.get(key) ?? { tokens: [], values };
    group.tokens.push(token);
    byValues.set(key, group);
  }
  return [...byValues.values()]
    .map((group) => ({ heading: tokenParts(group.tokens[0]).name, ...group }))
    .sort((a, b) => a.heading.localeCompare(b.heading));
}

/** The enums page: each long enum's values, under a heading named after its first type. */
export function enumsPage(schema: PackageSchema, note: string): string {
  const lines = ["# Enums", "", note, "", "The enums too long to repeat on each page that uses them.", ""];
  for (const group of longEnums(schema))
    lines.push(
      `## ${group.heading}`,
      "",
      `${group.tokens.map(code).join(", ")}: an enum (a string) of ${group.values.length} values.`,
      "",
      ...group.values.map((value) => `- ${code(value)}`),
      "",
    );
  return lines.join("\n");
}

function shapeText(shape: Shape): string {
  switch (shape.of) {
    case "array":
      return `list of ${shapeText(shape.items)}`;
    case "map":
      return `map of ${shapeText(shape.values)}`;
    case "object":
    case "enum": {
      const { name } = tokenParts(shape.token);
      return `[${name}](#${headingSlug(name)})`;
    }
    default:
      return shape.of;
  }
}

export const typeText = (spec: PropertySpec, schema: PackageSchema) => shapeText(shapeOf(spec, schema));

/** The named types (objects and enums) a page's properties use, each once, in the order first met. */
export class NamedTypes {
  /** Type token → the dotted path of the first property holding it (`claimMatch`), for its members' words. */
  readonly paths = new Map<string, string>();

  constructor(private readonly schema: PackageSchema) {}

  visit(spec: PropertySpec, path: string): void {
    this.visitShape(shapeOf(spec, this.schema), path);
  }

  private visitShape(shape: Shape, path: string): void {
    if (shape.of === "array") return this.visitShape(shape.items, path);
    if (shape.of === "map") return this.visitShape(shape.values, path);
    if (shape.of !== "object" && shape.of !== "enum") return;
    if (this.paths.has(shape.token)) return;
    this.paths.set(shape.token, path);
    if (shape.of === "object")
      for (const [member, spec] of Object.entries(shape.properties)) this.visit(spec, `${path}.${member}`);
  }

  /** A link to the enums page's section listing the long enum `token`'s values. */
  private enumLink(token: string, enumsLink: string): string {
    const group = longEnums(this.schema).find((entry) => entry.tokens.includes(token));
    if (!group) throw new Error(`${token} is not a long enum`);
    return `[${group.heading}](${enumsLink}#${headingSlug(group.heading)})`;
  }

  /**
   * The "Supporting types" section's subsections; `words` gives a member's words by its dotted path,
   * `enumsLink` is the enums page's path relative to the page.
   */
  sections(words: (path: string) => string | undefined, enumsLink: string): string[] {
    const sections: string[] = [];
    for (const [token, path] of this.paths) {
      const { name } = tokenParts(token);
      const type = this.schema.types[token];
      if ("enum" in type) {
        const values = type.enum.map((entry) => code(entry.value)).join(", ");
        sections.push(
          `### ${name}`,
          "",
          type.enum.length > LONG_ENUM
            ? `An enum (a string) of ${type.enum.length} values: ${this.enumLink(token, enumsLink)} lists them.`
            : `An enum (a string) of ${type.enum.length} values: ${values}.`,
          "",
        );
        continue;
      }
      const required = new Set(type.required ?? []);
      sections.push(
        `### ${name}`,
        "",
        "| Property | Type | Required | Description |",
        "|---|---|---|---|",
        ...Object.entries(type.properties).map(
          ([member, spec]) =>
            `| ${code(member)} | ${typeText(spec, this.schema)} | ${required.has(member) ? "required" : "optional"} | ${cell(
              words(`${path}.${member}`),
            )} |`,
        ),
        "",
      );
    }
    return sections;
  }
}
