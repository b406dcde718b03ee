/**
 * Records of any kind made from its description alone, for the suites that run every kind (the
 * request floors of bench/requests.ts, the cases of tests/support/kindCases.ts): the kind's
 * `docs.example` resolved under one group (the place), with what it refers to made first through
 * the API, record `i` told apart by one of its natural key's fields, and a change that updates it
 * in place (or, for a kind the API cannot update, replaces it). A new kind needs no line here.
 *
 * In an example, `{ $config: "rootUid" }` and `{ $uidOf: <the root's kind> }` (a group) name the
 * place; `{ $uidOf: T }` is T's own example made there (once, shared, as a program declares it);
 * `{ $lookup: "<domain>.get<T>", args, field }` is `field` of the first record T's List answers
 * with `args` as filters; another `$config` is a stand-in text.
 */
import { checkInputs } from "../../core/model/check";
import { completeKind } from "../../core/model/kind";
import type {
  ExampleConfig,
  ExampleLookup,
  ExampleUidOf,
  ExampleValue,
  Kind,
  ResourceKind,
} from "../../core/model/kind";

type Props = Record<string, unknown>;

/** One call to the API (a harness's `api`): its status and parsed body. */
export type Api = <T = any>(method: string, path: string, body?: unknown) => Promise<{ status: number; body: T }>;

/** `/<domain>/v2beta1/<collection>`: where a kind's records are created (below their parent) and read. */
export const collectionPath = (kind: Pick<ResourceKind, "domain" | "collection">) =>
  `/${kind.domain}/v2beta1/${kind.collection}`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
type Reference = ExampleConfig | ExampleUidOf | ExampleLookup;
const isReference = (value: unknown): value is Reference =>
  isObject(value) && Object.keys(value).some((key) => key.startsWith("$"));

/** The kind whose records every place is one of (a group): its example lives under `$config: rootUid`. */
export function rootKind(kinds: readonly ResourceKind[]): ResourceKind {
  const root = kinds.find((kind) => {
    const parent = kind.docs?.example.inputs[kind.parentField];
    return kind.collection === kind.parentCollection && isObject(parent) && parent.$config === "rootUid";
  });
  if (!root)
    throw new Error("no kind lives under `$config: rootUid` in a collection of its own: no place to make records in");
  return root;
}

/** A way to tell record `i` apart by one value: `at(i)` is that record's (a promise when it is made first). */
type Variation = (i: number) => unknown;

/** Ways a literal can differ by record, most readable first: a suffix, then its last number counted up. */
function literalVariations(value: ExampleValue): Variation[] {
  if (typeof value === "string") {
    const out: Variation[] = [(i) => `${value}-${i}`];
    const digits = /(\d+)(?!.*\d)/.exec(value);
    if (digits)
      out.push((i) => {
        // From one more than the example's, so that no record is the example's twin.
        const counted = String(Number(digits[1]) + i + 1).padStart(digits[1].length, "0");
        return value.slice(0, digits.index) + counted + value.slice(digits.index + digits[1].length);
      });
    return out;
  }
  if (typeof value === "number") return [(i) => value + i + 1];
  if (Array.isArray(value) && value.length > 0) {
    const last = value[value.length - 1] as ExampleValue;
    return literalVariations(last).map((vary) => (i) => [...value, vary(i)]);
  }
  if (isObject(value) && !isReference(value))
    return Object.entries(value).flatMap(([member, inner]) =>
      literalVariations(inner).map((vary) => (i) => ({ ...value, [member]: vary(i) })),
    );
  return [];
}

/** The records made under one place, and how to make more of any kind there. */
export class ExampleRecords {
  private readonly kinds: ReadonlyMap<string, Kind>;
  private readonly root: ResourceKind;
  /** Each kind's example record, made once: `$uidOf` it names. */
  private readonly examples = new Map<string, Promise<string>>();
  /** What was made, in order, for `remove`. */
  readonly made: Array<{ kind: Kind; uid: string }> = [];

  constructor(
    private readonly api: Api,
    kinds: readonly ResourceKind[],
    /** The uid of the group records are made in. */
    readonly place: string,
  ) {
    this.kinds = new Map(kinds.map((kind) => [kind.typeName, completeKind(kind)]));
    this.root = rootKind(kinds);
  }

  kind(typeName: string): Kind {
    const kind = this.kinds.get(typeName);
    if (!kind) throw new Error(`an example refers to ${typeName}, which is no kind of the kind list`);
    return kind;
  }

  private example(kind: Kind): Readonly<Record<string, ExampleValue>> {
    if (!kind.docs?.example)
      throw new Error(`${kind.typeName}: its description has no docs.example to make records from`);
    return kind.docs.example.inputs;
  }

  /** One value of an example, its references resolved (made or looked up). */
  async resolve(value: ExampleValue): Promise<unknown> {
    if (Array.isArray(value)) return Promise.all(value.map((item) => this.resolve(item as ExampleValue)));
    if (isReference(value)) {
      if ("$config" in value) return value.$config === "rootUid" ? this.place : `${value.$config}-example`;
      if ("$uidOf" in value) return this.exampleUid(value.$uidOf);
      return this.lookUp(value.$lookup, value.args, value.field);
    }
    if (!isObject(value)) return value;
    const out: Props = {};
    for (const [member, inner] of Object.entries(value)) out[member] = await this.resolve(inner);
    return out;
  }

  /** The uid `$uidOf: typeName` names: the place for the root's kind, else that kind's example record. */
  private exampleUid(typeName: string): Promise<string> {
    if (typeName === this.root.typeName) return Promise.resolve(this.place);
    let made = this.examples.get(typeName);
    if (!made) this.examples.set(typeName, (made = this.record(this.kind(typeName))));
    return made;
  }

  /** The kind a look-up `<domain>.get<Type>` answers records of. */
  private lookedUp(lookup: string): Kind {
    const [domain, name] = lookup.split(".");
    const kind = [...this.kinds.values()].find((k) => k.domain === domain && `get${k.typeName}` === name);
    if (!kind) throw new Error(`the look-up ${lookup} of an example answers no kind of the kind list`);
    return kind;
  }

  /** Each look-up's answer, asked once. */
  private readonly lookups = new Map<string, Promise<unknown>>();

  private lookUp(lookup: string, args: Props, field: string): Promise<unknown> {
    const key = JSON.stringify([lookup, args, field]);
    let found = this.lookups.get(key);
    if (!found) this.lookups.set(key, (found = this.askLookUp(lookup, args, field)));
    return found;
  }

  private async askLookUp(lookup: string, args: Props, field: string): Promise<unknown> {
    const kind = this.lookedUp(lookup);
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(args))
      query.set(name, String(await this.resolve(value as ExampleValue)));
    const answer = await this.api("GET", `${collectionPath(kind)}?${query.toString()}`);
    const found = (answer.body as Record<string, Props[] | undefined> | undefined)?.[kind.collection]?.[0];
    if (answer.status !== 200 || !found)
      throw new Error(
        `${lookup}(${JSON.stringify(args)}) found nothing: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    return found[field];
  }

  /**
   * How record `i` of the kind differs from its example: the first of its natural key's fields
   * (literals first) that can differ and still passes the kind's check; undefined for a kind
   * keyed by its parent alone (one per parent).
   */
  variation(kind: Kind): { field: string; at: Variation } | undefined {
    const example = this.example(kind);
    const fields = kind.keyFields.filter((field) => example[field] !== undefined);
    for (const field of fields.filter((f) => !isReference(example[f]))) {
      for (const at of literalVariations(example[field])) {
        if ([0, 1, 10].every((i) => this.passes(kind, field, at(i)))) return { field, at };
      }
    }
    for (const field of fields) {
      const value = example[field];
      if (isReference(value) && "$uidOf" in value) {
        const of = this.kind(value.$uidOf);
        return { field, at: (i) => this.record(of, i) };
      }
    }
    if (kind.keyedByParent) return undefined;
    throw new Error(
      `${kind.typeName}: no field of its natural key (${kind.keyFields.join(", ")}) can tell records apart`,
    );
  }

  /** Whether the kind's check takes `value` as the example's `field` (references stand in, unchecked). */
  private passes(kind: Kind, field: string, value: unknown): boolean {
    const { failures } = checkInputs(kind, { ...this.unresolved(kind), [field]: value });
    const about = (property: string) =>
      property === field || (property.startsWith(field) && /^[.[]/.test(property.slice(field.length)));
    return !failures.some((f) => about(f.property));
  }

  /** The example's inputs with stand-ins for references: what the check sees of them. */
  private unresolved(kind: Kind): Props {
    const standIn = (value: ExampleValue): unknown =>
      Array.isArray(value)
        ? value.map((item) => standIn(item as ExampleValue))
        : isObject(value)
          ? isReference(value)
            ? "stand-in"
            : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, standIn(v)]))
          : value;
    return Object.fromEntries(Object.entries(this.example(kind)).map(([field, value]) => [field, standIn(value)]));
  }

  /** The inputs that declare the kind's example record (record `i`, when given). */
  async inputs(kind: Kind, i?: number, variation = i === undefined ? undefined : this.variation(kind)): Promise<Props> {
    const inputs: Props = {};
    for (const [field, value] of Object.entries(this.example(kind))) inputs[field] = await this.resolve(value);
    if (i !== undefined && variation) inputs[variation.field] = await variation.at(i);
    return inputs;
  }

  /** The create body of the record `inputs` declare: no parent (in the path), local or companion input; wire names. */
  body(kind: Kind, inputs: Props): Props {
    const left = new Set([kind.parentField, ...kind.localInputs, ...kind.companions.map((c) => c.input)]);
    const body: Props = {};
    for (const [field, value] of Object.entries(inputs))
      if (!left.has(field)) body[kind.wireNames?.[field] ?? field] = value;
    return body;
  }

  /** Makes the kind's example record (record `i`, when given) in its parent through the API; its uid. */
  async record(kind: Kind, i?: number): Promise<string> {
    if (kind.partOf) throw new Error(`${kind.typeName} is part of another's record: it cannot be made by itself`);
    const inputs = await this.inputs(kind, i);
    const path = `${collectionPath(kind)}/${String(inputs[kind.parentField])}`;
    const answer = await this.api<{ uid: string }>("POST", path, this.body(kind, inputs));
    if (answer.status !== 200) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    this.made.push({ kind, uid: answer.body.uid });
    return answer.body.uid;
  }

  /**
   * A change of the example's inputs that the API applies in place, or for a kind whose every
   * writable field replaces, one that replaces it: the first field (given in the example as a
   * literal, then as a reference, then absent with a default to flip) whose changed value still
   * passes the check. A reference changes to another record of its kind, made here.
   */
  async change(kind: Kind): Promise<{ inPlace: boolean; change: Props }> {
    const inPlace = kind.writable.some((field) => !kind.replaceOn.includes(field));
    const example = this.example(kind);
    const fields = (inPlace ? kind.writable.filter((f) => !kind.replaceOn.includes(f)) : kind.replaceOn).filter(
      (field) => field !== kind.parentField,
    );
    const rank = (field: string) => (example[field] === undefined ? 2 : isReference(example[field]) ? 1 : 0);
    for (const field of [...fields].sort((a, b) => rank(a) - rank(b))) {
      const value = example[field];
      const passes = (changed: unknown) => this.passes(kind, field, changed);
      if (value === undefined) {
        const fallback = kind.inputDefaults?.[field];
        if (typeof fallback === "boolean" && passes(!fallback)) return { inPlace, change: { [field]: !fallback } };
        continue;
      }
      if (!isReference(value)) {
        const at = literalVariations(value).find((vary) => passes(vary(1)));
        if (at) return { inPlace, change: { [field]: at(1) } };
        continue;
      }
      if ("$config" in value) continue;
      const of = "$uidOf" in value ? this.kind(value.$uidOf) : this.lookedUp(value.$lookup);
      if (of.typeName === this.root.typeName || of.partOf) continue;
      const uid = await this.record(of, 1);
      const field$ = "$lookup" in value ? value.field : "uid";
      const answer = await this.api<Props>("GET", `${collectionPath(of)}/${uid}`);
      return { inPlace, change: { [field]: field$ === "uid" ? uid : answer.body[field$] } };
    }
    throw new Error(
      `${kind.typeName}: no field of its example (${fields.join(", ")}) can change ${inPlace ? "in place" : "by replacement"}`,
    );
  }

  /** Deletes what was made here, newest first (what a delete took along is already gone). */
  async remove(): Promise<void> {
    for (const { kind, uid } of this.made.splice(0).reverse())
      await this.api("DELETE", `${collectionPath(kind)}/${uid}`);
  }
}

/** A group of its own under `root` (the organization) for one sample's records, and that group's kind. */
export async function freshPlace(
  api: Api,
  kinds: readonly ResourceKind[],
  root: string,
  name: string,
): Promise<{ uid: string; remove: () => Promise<void> }> {
  const kind = rootKind(kinds);
  const answer = await api<{ uid: string }>("POST", `${collectionPath(kind)}/${root}`, { name });
  if (answer.status !== 200) throw new Error(`POST a place ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  const uid = answer.body.uid;
  return { uid, remove: async () => void (await api("DELETE", `${collectionPath(kind)}/${uid}`)) };
}
