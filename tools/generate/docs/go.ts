/**
 * A docs program in Go, on the SDK generated from the native provider's schema: `iam.NewGroup`
 * with `&iam.GroupArgs{…}`, values wrapped as the SDK's input types (`pulumi.String`,
 * `pulumi.StringArray`, a message input as `&iam.IdentityClaimMatchArgs{…}`), look-ups as
 * `…Output` functions (`Lookup…` where the name is a resource's reader's, as Go's code generator
 * names them). Laid out as gofmt lays it out: tabs, and the values of consecutive one-line
 * fields aligned (a test runs gofmt on every page's program).
 */
import type { PackageSchema, PropertySpec } from "../../../native/schema";
import { Program, ProgramLookup, Value, camelCase } from "./program";
import { Shape, memberSpec, shapeOf, tokenParts } from "./schemaShapes";

/** Names a program's variables cannot take: Go's keywords and the names the program uses itself. */
const TAKEN = new Set(
  (
    "break case chan const continue default defer else fallthrough for func go goto if import interface map package " +
    "range return select struct switch type var ctx cfg err pulumi config main"
  ).split(" "),
);

/** The Go SDK's name of a property (a struct field): its first letter capitalized. */
export const goName = (name: string) => name[0].toUpperCase() + name.slice(1);

/** A value before layout: one line, or a composite literal of fields or elements. */
type Expr = string | { readonly open: string; readonly fields: ReadonlyArray<readonly [string | undefined, Expr]> };

const multiline = (expr: Expr) => typeof expr !== "string";

/** `expr` as gofmt writes it, its continuation lines indented by `indent` tabs. */
function layout(expr: Expr, indent: number): string {
  if (typeof expr === "string") return expr;
  const inner = "\t".repeat(indent + 1);
  const lines: string[] = [];
  // gofmt aligns the values of consecutive one-line key: value fields; a multi-line one stands alone.
  let run: Array<[string, string]> = [];
  const flush = () => {
    const width = Math.max(0, ...run.map(([key]) => key.length));
    for (const [key, text] of run) lines.push(`${inner}${`${key}:`.padEnd(width + 1)} ${text},`);
    run = [];
  };
  for (const [key, value] of expr.fields) {
    const text = layout(value, indent + 1);
    if (key !== undefined && !multiline(value)) {
      run.push([key, text]);
      continue;
    }
    flush();
    lines.push(`${inner}${key === undefined ? "" : `${key}: `}${text},`);
  }
  flush();
  return `${expr.open}{\n${lines.join("\n")}\n${"\t".repeat(indent)}}`;
}

/** Go's literal of a string: its JSON spelling is a valid interpreted string literal. */
const quoted = (text: string) => JSON.stringify(text);

const SCALARS: Record<string, { wrap: string; array: string; map: string }> = {
  string: { wrap: "pulumi.String", array: "pulumi.StringArray", map: "pulumi.StringMap" },
  boolean: { wrap: "pulumi.Bool", array: "pulumi.BoolArray", map: "pulumi.BoolMap" },
  integer: { wrap: "pulumi.Int", array: "pulumi.IntArray", map: "pulumi.IntMap" },
  number: { wrap: "pulumi.Float64", array: "pulumi.Float64Array", map: "pulumi.Float64Map" },
};

export interface GoNames {
  /** The Go package name of a module: the last segment of its import path. */
  readonly modules: ReadonlySet<string>;
  /** The SDK's function name of each function token (`Lookup…` or `Get…`). */
  readonly functionName: (token: string) => string;
}

class GoWriter {
  readonly used = new Set<string>();
  configVariables = new Map<string, boolean>();

  constructor(
    private readonly schema: PackageSchema,
    private readonly names: GoNames,
  ) {}

  variable(name: string): string {
    const camel = camelCase(name);
    return TAKEN.has(camel) || this.names.modules.has(camel) ? `${camel}Value` : camel;
  }

  /** The SDK type name of a named type: `iam.IdentityClaimMatch`. */
  private typeName(token: string, suffix = ""): string {
    const { module, name } = tokenParts(token);
    this.used.add(module);
    return `${module}.${name}${suffix}`;
  }

  /** The array or map type of elements of `shape`. */
  private collection(shape: Shape, kind: "array" | "map"): string {
    if (shape.of in SCALARS) return SCALARS[shape.of][kind];
    if (shape.of === "object" || shape.of === "enum")
      return this.typeName(shape.token, kind === "array" ? "Array" : "Map");
    if (shape.of === "array" && shape.items.of in SCALARS)
      return kind === "array" ? `${SCALARS[shape.items.of].array}Array` : `${SCALARS[shape.items.of].array}Map`;
    if (shape.of === "map" && shape.values.of in SCALARS)
      return kind === "array" ? `${SCALARS[shape.values.of].map}Array` : `${SCALARS[shape.values.of].map}Map`;
    throw new Error(`no Go collection type of ${JSON.stringify(shape)} for an example`);
  }

  value(v: Value, shape: Shape, where: string): Expr {
    if ("config" in v) {
      const name = this.variable(v.config);
      // A secret is read as an Output (cfg.RequireSecret), a plain value as a string to wrap.
      return this.configVariables.get(v.config) ? name : `pulumi.String(${name})`;
    }
    if ("ref" in v) {
      const target = this.variable(v.ref);
      return this.lookups.has(v.ref) ? `${target}.${goName(v.field)}()` : `${target}.${goName(v.field)}`;
    }
    if ("literal" in v) {
      if (shape.of === "enum") {
        if (typeof v.literal !== "string" || !shape.values.includes(v.literal))
          throw new Error(`${where}: ${String(v.literal)} is no value of ${shape.token}`);
        // The SDK's constant where Go's code generator names it `<Enum>_<VALUE>`, else a conversion.
        return /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(v.literal)
          ? `${this.typeName(shape.token)}_${v.literal}`
          : `${this.typeName(shape.token)}(${quoted(v.literal)})`;
      }
      const scalar = SCALARS[shape.of] ?? SCALARS[typeof v.literal === "string" ? "string" : typeof v.literal];
      return `${scalar.wrap}(${typeof v.literal === "string" ? quoted(v.literal) : String(v.literal)})`;
    }
    if ("list" in v) {
      if (shape.of !== "array") throw new Error(`${where}: a list where the schema has ${shape.of}`);
      const items = v.list.map((item, i) => this.value(item, shape.items, `${where}[${i}]`));
      const type = this.collection(shape.items, "array");
      if (items.every((item) => typeof item === "string")) return `${type}{${items.join(", ")}}`;
      return { open: type, fields: items.map((item) => [undefined, item] as const) };
    }
    if (shape.of === "object")
      return {
        open: `&${this.typeName(shape.token, "Args")}`,
        fields: this.fields(v.entries, shape.properties, where),
      };
    if (shape.of !== "map") throw new Error(`${where}: an object where the schema has ${shape.of}`);
    const type = this.collection(shape.values, "map");
    const entries = v.entries.map(([entry, inner]) => [quoted(entry), this.value(inner, shape.values, where)] as const);
    if (entries.every(([, text]) => typeof text === "string"))
      return `${type}{${entries.map(([entry, text]) => `${entry}: ${text as string}`).join(", ")}}`;
    return { open: type, fields: entries };
  }

  fields(
    entries: ReadonlyArray<readonly [string, Value]>,
    properties: Readonly<Record<string, PropertySpec>>,
    owner: string,
  ): Array<readonly [string, Expr]> {
    return entries.map(
      ([name, v]) =>
        [
          goName(name),
          this.value(v, shapeOf(memberSpec(properties, name, owner), this.schema), `${owner}.${name}`),
        ] as const,
    );
  }

  /** The names of the program's look-ups: a field of their answer is a method of its Output. */
  lookups = new Set<string>();

  lookup(lookup: ProgramLookup): string {
    const { fn } = lookup;
    const spec = this.schema.functions[fn.token];
    if (!spec) throw new Error(`the schema has no function ${fn.token}`);
    this.used.add(fn.domain);
    const name = `${fn.domain}.${this.names.functionName(fn.token)}Output`;
    const args = layout({ open: `${name}Args`, fields: this.fields(lookup.args, spec.inputs.properties, fn.token) }, 1);
    return `${name}(ctx, ${lookup.args.length === 0 ? `${name}Args{}` : args}, nil)`;
  }
}

/** The program as a `main` package, importing each module of the SDK it uses from `importBase`. */
export function goProgram(program: Program, schema: PackageSchema, importBase: string, names: GoNames): string {
  const writer = new GoWriter(schema, names);
  const body: string[] = [];
  if (program.config.length > 0) {
    body.push(`cfg := config.New(ctx, "")`);
    for (const { key, secret } of program.config) {
      writer.configVariables.set(key, secret);
      body.push(`${writer.variable(key)} := cfg.${secret ? "RequireSecret" : "Require"}(${quoted(key)})`);
    }
  }
  for (const lookup of program.lookups) writer.lookups.add(lookup.name);
  for (const lookup of program.lookups) body.push(`${writer.variable(lookup.name)} := ${writer.lookup(lookup)}`);
  for (const resource of program.resources) {
    const { kind } = resource;
    const token = `${schema.name}:${kind.domain}:${kind.typeName}`;
    const spec = schema.resources[token];
    if (!spec) throw new Error(`the schema has no resource ${token}`);
    writer.used.add(kind.domain);
    const args = layout(
      {
        open: `&${kind.domain}.${kind.typeName}Args`,
        fields: writer.fields(resource.inputs, spec.inputProperties, token),
      },
      1,
    );
    body.push(
      `${writer.variable(resource.name)}, err := ${kind.domain}.New${kind.typeName}(ctx, ${quoted(resource.name)}, ${args})`,
      "if err != nil {\n\t\treturn err\n\t}",
    );
  }
  for (const out of program.exports) {
    const from = writer.variable(out.from);
    const field = writer.lookups.has(out.from) ? `${goName(out.field)}()` : goName(out.field);
    body.push(`ctx.Export(${quoted(out.name)}, ${from}.${field})`);
  }
  body.push("return nil");
  // One block, sorted, as gofmt sorts it.
  const imports = [
    "github.com/pulumi/pulumi/sdk/v3/go/pulumi",
    ...(program.config.length > 0 ? ["github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"] : []),
    ...[...writer.used].map((module) => `${importBase}/${module}`),
  ]
    .sort()
    .map(quoted);
  return [
    "package main",
    "",
    "import (",
    ...imports.map((line) => `\t${line}`),
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...body.map((statement) => `\t\t${statement.replace(/\n/g, "\n\t")}`),
    "\t})",
    "}",
    "",
  ].join("\n");
}
