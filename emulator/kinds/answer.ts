/**
 * A stored record as its documented message answers it: the message's fields, taken from the
 * record (uid, name, times, stored data) unless its kind derives them, or else the service's
 * defaults. Nested messages keep only their documented members, so what the emulator keeps for
 * itself (a SCIM token's hash, a role's `builtin` mark) is never answered; the list of fields is
 * the document's, not the kind's.
 */
import type { DocSchema } from "../apiDocument";
import type { Messages } from "../messages";
import type { Rec } from "../store";
import { AnswerContext, iso, ResourceDef } from "./kind";

type Project = (value: unknown) => unknown;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * How a value of a documented field is answered: times the record keeps as milliseconds in
 * RFC 3339, message members the document does not name (or that are never answered) left out.
 * Nested projections are made on first use, so a message that contains itself compiles.
 */
function projection(messages: Messages, schema: DocSchema, path: string, hidden: ReadonlySet<string>): Project {
  const resolved = messages.resolve(schema);
  if (resolved.format === "date-time") return (value) => (typeof value === "number" ? iso(value) : value);
  if (resolved.type === "array" && resolved.items) {
    const items = lazy(() => projection(messages, resolved.items!, path, hidden));
    return (value) => (Array.isArray(value) ? value.map((item) => items()(item)) : value);
  }
  if (resolved.map) {
    const values = lazy(() => projection(messages, resolved.map!, path, hidden));
    return (value) =>
      isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, values()(v)])) : value;
  }
  if (resolved.properties) {
    const members = Object.entries(resolved.properties)
      .map(([name, member]) => [name, `${path}.${name}`, member] as const)
      .filter(([, memberPath]) => !hidden.has(memberPath))
      .map(
        ([name, memberPath, member]) => [name, lazy(() => projection(messages, member, memberPath, hidden))] as const,
      );
    return (value) => {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [name, project] of members) if (value[name] !== undefined) out[name] = project()(value[name]);
      return out;
    };
  }
  return (value) => value;
}

function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

interface Plan {
  fields: Array<[string, Project]>;
}

const plans = new WeakMap<Messages, Map<string, Plan>>();

/** The fields a kind answers in a message, with or without what only a create shows; compiled once per documents. */
function planOf(messages: Messages, def: ResourceDef, message: string, created: boolean): Plan {
  let byKind = plans.get(messages);
  if (!byKind) plans.set(messages, (byKind = new Map<string, Plan>()));
  const key = `${def.kind}:${message}:${created}`;
  let plan = byKind.get(key);
  if (!plan) {
    const hidden = new Set([...(def.writeOnly ?? []), ...(created ? [] : (def.onlyAtCreate ?? []))]);
    const fields = Object.entries(messages.resolve({ ref: message }).properties ?? {})
      .filter(([field]) => !hidden.has(field))
      .map(([field, schema]): [string, Project] => [field, projection(messages, schema, field, hidden)]);
    byKind.set(key, (plan = { fields }));
  }
  return plan;
}

export interface AnswerOptions {
  /** The answer to the record's create: with what only it shows (an invite's code). */
  created?: boolean;
  /**
   * Another message than the kind's own: the record hydrated into another's answer (a role
   * binding's role is its iam.RoleBindingRole).
   */
  as?: string;
}

/** The record's answer as its kind's message (or `as`) documents it. */
export function answerOf(
  ctx: AnswerContext,
  def: ResourceDef,
  rec: Rec,
  { created = false, as = def.message }: AnswerOptions = {},
): Record<string, unknown> {
  const own: Record<string, unknown> = {
    uid: rec.uid,
    name: rec.name,
    createTime: rec.createTime,
    updateTime: rec.updateTime,
  };
  const derived = def.derived?.(rec, ctx) ?? {};
  const out: Record<string, unknown> = {};
  for (const [field, project] of planOf(ctx.messages, def, as, created).fields) {
    // A derived field is the kind's whole answer for it (undefined leaves it out).
    if (Object.prototype.hasOwnProperty.call(derived, field)) {
      if (derived[field] !== undefined) out[field] = derived[field];
      continue;
    }
    const stored = Object.prototype.hasOwnProperty.call(own, field) ? own[field] : rec.data[field];
    const value = stored ?? def.defaults?.[field];
    if (value !== undefined) out[field] = project(stored ?? structuredClone(value));
  }
  return out;
}
