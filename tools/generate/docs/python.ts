/**
 * A docs program in Python, on the SDK generated from the native provider's schema
 * (`import pulumi_platform as platform`): classes with snake_case keyword arguments, a message
 * input as its `…Args` class, an enum value as its text, look-ups as `get_…_output`. Laid out
 * as black lays out calls: on one line when it fits, else the arguments on their own line, else
 * one a line with a trailing comma.
 */
import type { PackageSchema, PropertySpec } from "../../../native/schema";
import { Program, ProgramLookup, Value, snakeCase } from "./program";
import { Shape, memberSpec, shapeOf, tokenParts } from "./schemaShapes";

const WIDTH = 88;
const INDENT = "    ";

/** An expression before layout: text, or brackets holding items. */
type Expr = string | { readonly open: string; readonly items: readonly Expr[]; readonly close: string };

function flat(expr: Expr): string {
  return typeof expr === "string" ? expr : `${expr.open}${expr.items.map(flat).join(", ")}${expr.close}`;
}

/** `expr` starting at column `column` of a line indented by `indent`. */
function layout(expr: Expr, indent: string, column: number): string {
  const one = flat(expr);
  if (typeof expr === "string" || (column + one.length <= WIDTH && !one.includes("\n"))) return one;
  const inner = indent + INDENT;
  const joined = expr.items.map(flat).join(", ");
  if (inner.length + joined.length <= WIDTH) return `${expr.open}\n${inner}${joined}\n${indent}${expr.close}`;
  const lines = expr.items.map((item) => `${inner}${layout(item, inner, inner.length)},`);
  return `${expr.open}\n${lines.join("\n")}\n${indent}${expr.close}`;
}

/** A keyword argument: `name=value`, laid out as one item. */
function keyword(name: string, value: Expr): Expr {
  return typeof value === "string" ? `${name}=${value}` : { ...value, open: `${name}=${value.open}` };
}

/** Python's literal of a JSON-able scalar. */
function scalar(value: string | number | boolean): string {
  if (typeof value === "boolean") return value ? "True" : "False";
  return JSON.stringify(value);
}

class PythonWriter {
  constructor(private readonly schema: PackageSchema) {}

  value(v: Value, shape: Shape, where: string): Expr {
    if ("config" in v) return snakeCase(v.config);
    if ("ref" in v) return `${snakeCase(v.ref)}.${snakeCase(v.field)}`;
    if ("literal" in v) {
      // An enum's value as its text: the SDK's enums are str enums, and its member names are
      // mangled from the values (CAP_IAM_GROUPS_LIST is CA_P_IA_M_GROUP_S_LIST).
      if (shape.of === "enum" && !shape.values.includes(String(v.literal)))
        throw new Error(`${where}: ${String(v.literal)} is no value of ${shape.token}`);
      return scalar(v.literal);
    }
    if ("list" in v) {
      const items = shape.of === "array" ? shape.items : ({ of: "any" } as const);
      return { open: "[", items: v.list.map((item, i) => this.value(item, items, `${where}[${i}]`)), close: "]" };
    }
    if (shape.of === "object") {
      const { module, name } = tokenParts(shape.token);
      return {
        open: `platform.${module}.${name}Args(`,
        items: v.entries.map(([member, inner]) =>
          keyword(
            snakeCase(member),
            this.value(inner, shapeOf(memberSpec(shape.properties, member, where), this.schema), `${where}.${member}`),
          ),
        ),
        close: ")",
      };
    }
    const values = shape.of === "map" ? shape.values : ({ of: "any" } as const);
    return {
      open: "{",
      items: v.entries.map(([entry, inner]) => {
        const text = this.value(inner, values, `${where}.${entry}`);
        return typeof text === "string"
          ? `${JSON.stringify(entry)}: ${text}`
          : { ...text, open: `${JSON.stringify(entry)}: ${text.open}` };
      }),
      close: "}",
    };
  }

  keywords(entries: ReadonlyArray<readonly [string, Value]>, properties: Record<string, PropertySpec>, owner: string) {
    return entries.map(([name, v]) =>
      keyword(
        snakeCase(name),
        this.value(v, shapeOf(memberSpec(properties, name, owner), this.schema), `${owner}.${name}`),
      ),
    );
  }

  lookup(lookup: ProgramLookup): Expr {
    const { fn } = lookup;
    const spec = this.schema.functions[fn.token];
    if (!spec) throw new Error(`the schema has no function ${fn.token}`);
    return {
      open: `platform.${fn.domain}.${snakeCase(fn.lookup.name)}_output(`,
      items: this.keywords(lookup.args, spec.inputs.properties, fn.token),
      close: ")",
    };
  }
}

export function pythonProgram(program: Program, schema: PackageSchema): string {
  const writer = new PythonWriter(schema);
  const lines = ["import pulumi", "import pulumi_platform as platform", ""];
  const assign = (name: string, expr: Expr) => {
    const head = `${name} = `;
    lines.push(head + layout(expr, "", head.length));
  };
  if (program.config.length > 0) {
    lines.push("config = pulumi.Config()");
    for (const { key, secret } of program.config)
      lines.push(`${snakeCase(key)} = config.${secret ? "require_secret" : "require"}(${JSON.stringify(key)})`);
    lines.push("");
  }
  for (const lookup of program.lookups) assign(snakeCase(lookup.name), writer.lookup(lookup));
  if (program.lookups.length > 0) lines.push("");
  for (const resource of program.resources) {
    const { kind } = resource;
    const token = `${schema.name}:${kind.domain}:${kind.typeName}`;
    const spec = schema.resources[token];
    if (!spec) throw new Error(`the schema has no resource ${token}`);
    assign(snakeCase(resource.name), {
      open: `platform.${kind.domain}.${kind.typeName}(`,
      items: [JSON.stringify(resource.name), ...writer.keywords(resource.inputs, spec.inputProperties, token)],
      close: ")",
    });
  }
  if (program.resources.length > 0) lines.push("");
  for (const out of program.exports)
    lines.push(`pulumi.export(${JSON.stringify(out.name)}, ${snakeCase(out.from)}.${snakeCase(out.field)})`);
  return `${lines.join("\n")}\n`;
}
