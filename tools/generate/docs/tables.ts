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

/** Enums with more values than this are folded on the page. */
const LONG_ENUM = 20;

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

  /** The "Supporting types" section's subsections; `words` gives a member's words by its dotted path. */
  sections(words: (path: string) => string | undefined): string[] {
    const sections: string[] = [];
    for (const [token, path] of this.paths) {
      const { name } = tokenParts(token);
      const type = this.schema.types[token];
      if ("enum" in type) {
        const values = type.enum.map((entry) => code(entry.value)).join(", ");
        // A long enum (the capabilities) stays folded, as it would push the rest of the page away.
        sections.push(
          `### ${name}`,
          "",
          type.enum.length > LONG_ENUM
            ? `An enum (a string) of ${type.enum.length} values.\n\n<details><summary>The values</summary>\n\n${values}.\n\n</details>`
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
