/**
 * The small program a docs page shows, as values, before any language: the stack config it reads,
 * the look-ups it calls, the resources it declares (each kind's own example from its description,
 * and those of the kinds it refers to, declared first) and what it exports. The renderers
 * (typescript.ts, python.ts, go.ts, yaml.ts) write the same program in each language.
 */
import type { ExampleValue, ResourceKind } from "../../../core/model/kind";
import type { NativeFunction } from "../../../native/functions";

/** A value once its references are resolved to the names the program declares. */
export type Value =
  | { readonly literal: string | number | boolean }
  | { readonly list: readonly Value[] }
  /** A message's members or a map's entries, in the example's order. */
  | { readonly entries: ReadonlyArray<readonly [string, Value]> }
  | { readonly config: string }
  /** A field of a declared resource or of a look-up's answer, by the name the program gives it. */
  | { readonly ref: string; readonly field: string };

export interface ProgramConfig {
  readonly key: string;
  readonly secret: boolean;
}

export interface ProgramLookup {
  /** The name the program keeps its answer under. */
  readonly name: string;
  readonly fn: NativeFunction;
  readonly args: ReadonlyArray<readonly [string, Value]>;
}

export interface ProgramResource {
  /** The resource's name (its logical name), which variables are named after. */
  readonly name: string;
  readonly kind: ResourceKind;
  readonly inputs: ReadonlyArray<readonly [string, Value]>;
}

export interface ProgramExport {
  /** The stack output's name. */
  readonly name: string;
  /** The resource or look-up it is read from, and its field. */
  readonly from: string;
  readonly field: string;
}

export interface Program {
  readonly config: readonly ProgramConfig[];
  readonly lookups: readonly ProgramLookup[];
  readonly resources: readonly ProgramResource[];
  readonly exports: readonly ProgramExport[];
}

/** `ci-viewer` as a camelCase identifier: `ciViewer`. */
export const camelCase = (name: string) =>
  name.replace(/[-_ .]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());

/** `parentUid` as Python's SDKs spell it: `parent_uid`. */
export const snakeCase = (name: string) =>
  camelCase(name)
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();

/** The kinds and functions a program's references name. */
export interface ProgramContext {
  readonly kinds: readonly ResourceKind[];
  readonly functions: ReadonlyMap<string, NativeFunction>;
  /** The package name type tokens start with: "platform". */
  readonly packageName: string;
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Collects a program as its parts are declared, each config key, look-up and resource once. */
class ProgramBuilder {
  private readonly config: ProgramConfig[] = [];
  private readonly lookups: ProgramLookup[] = [];
  private readonly resources: ProgramResource[] = [];

  constructor(private readonly context: ProgramContext) {}

  kindNamed(typeName: string): ResourceKind {
    const kind = this.context.kinds.find((candidate) => candidate.typeName === typeName);
    if (!kind) throw new Error(`an example refers to the kind ${typeName}, which the registry does not hold`);
    if (!kind.docs?.example) throw new Error(`${typeName}: its description has no docs.example`);
    return kind;
  }

  private useConfig(key: string, secret: boolean): Value {
    if (!this.config.some((entry) => entry.key === key)) this.config.push({ key, secret });
    return { config: key };
  }

  lookup(name: string, fn: NativeFunction, args: Readonly<Record<string, ExampleValue>>): string {
    if (!this.lookups.some((entry) => entry.name === name)) {
      const resolved = Object.entries(args).map(([arg, value]) => [arg, this.value(value, fn.token)] as const);
      this.lookups.push({ name, fn, args: resolved });
    }
    return name;
  }

  private functionOf(reference: string, from: string): NativeFunction {
    const [domain, name] = reference.split(".");
    const fn = this.context.functions.get(`${this.context.packageName}:${domain}:${name}`);
    if (!fn) throw new Error(`${from}: its example calls ${reference}, which is no function of the package`);
    return fn;
  }

  value(value: ExampleValue, from: string): Value {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return { literal: value };
    if (Array.isArray(value)) return { list: (value as readonly ExampleValue[]).map((item) => this.value(item, from)) };
    if (!isObject(value)) throw new Error(`${from}: an example value is neither a literal, a list nor an object`);
    if (typeof value.$config === "string") return this.useConfig(value.$config, value.secret === true);
    if (typeof value.$uidOf === "string") return { ref: this.resource(this.kindNamed(value.$uidOf)), field: "uid" };
    if (typeof value.$lookup === "string") {
      const lookup = value as unknown as { $lookup: string; args: Record<string, ExampleValue>; field: string };
      const fn = this.functionOf(lookup.$lookup, from);
      const named = typeof lookup.args.name === "string" ? lookup.args.name : fn.lookup.name.replace(/^get/, "");
      return { ref: this.lookup(camelCase(named), fn, lookup.args), field: lookup.field };
    }
    return {
      entries: Object.entries(value as Readonly<Record<string, ExampleValue>>).map(
        ([member, inner]) => [member, this.value(inner, from)] as const,
      ),
    };
  }

  /** Declares the kind's example resource (after those it refers to) and answers its name. */
  resource(kind: ResourceKind): string {
    const example = kind.docs!.example;
    const declared = this.resources.find((resource) => resource.kind === kind);
    if (declared) return declared.name;
    const inputs = Object.entries(example.inputs).map(
      ([input, value]) => [input, this.value(value, kind.typeName)] as const,
    );
    if (this.resources.some((resource) => resource.name === example.name))
      throw new Error(`${kind.typeName}: its example's name "${example.name}" is another example's`);
    this.resources.push({ name: example.name, kind, inputs });
    return example.name;
  }

  program(exports: readonly ProgramExport[]): Program {
    const declared = new Set([...this.resources.map((r) => r.name), ...this.lookups.map((l) => l.name)]);
    for (const out of exports)
      if (declared.has(out.name)) throw new Error(`an example exports ${out.name}, the name of another of its values`);
    return { config: this.config, lookups: this.lookups, resources: this.resources, exports };
  }
}

/** The program of a kind's page: its example resource, those it refers to, its exports. */
export function kindProgram(kind: ResourceKind, context: ProgramContext): Program {
  if (!kind.docs?.example) throw new Error(`${kind.typeName}: its description has no docs.example`);
  const builder = new ProgramBuilder(context);
  const name = builder.resource(kind);
  const exports = kind.docs.example.exports ?? ["uid"];
  return builder.program(exports.map((field) => ({ name: field, from: name, field })));
}

/**
 * The program of a look-up's page. A look-up of one record finds the kind's example by name
 * below the root (by uid, from config, where records have no name); a list look-up reads every
 * record below the root. Its answer's uid, or its list, is exported. `accepts` are the
 * arguments it takes.
 */
export function functionProgram(fn: NativeFunction, accepts: ReadonlySet<string>, context: ProgramContext): Program {
  const builder = new ProgramBuilder(context);
  const kind = context.kinds.find((candidate) => candidate.message === fn.message);
  const root: ExampleValue = { $config: "rootUid" };
  if (fn.list) {
    const name = builder.lookup(
      camelCase(`all-${fn.list}`),
      fn,
      accepts.has("descendantsOf") ? { descendantsOf: root } : {},
    );
    return builder.program([{ name: fn.list, from: name, field: fn.list }]);
  }
  const exampleName = kind?.docs?.example.inputs.name;
  const byName = typeof exampleName === "string" && accepts.has("name");
  const args: Record<string, ExampleValue> = byName
    ? { name: exampleName, ...(accepts.has("descendantsOf") ? { descendantsOf: root } : {}) }
    : { uid: { $config: `${camelCase(fn.noun)}Uid` } };
  const name = builder.lookup(camelCase(byName ? exampleName : fn.noun), fn, args);
  return builder.program([{ name: "uid", from: name, field: "uid" }]);
}
