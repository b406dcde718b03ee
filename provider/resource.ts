/**
 * What the managed resources (Group, Identity, RoleBinding) share as Pulumi dynamic providers.
 * Each resource describes itself declaratively (a ResourceKind: its input schema, collection,
 * parent field, writable fields, output mapping); defineProvider turns that into the object the
 * dynamic-provider host calls: configure, check, diff, create, read, update, delete.
 *
 * What the host imposes, handled here once:
 * - `undefined` anywhere in a returned value crashes the host call, so every result is stripped.
 * - During preview, values not known yet arrive as a sentinel string: they pass check untouched
 *   and count as changes in diff.
 * - `olds` in diff and update are the previous OUTPUTS (server fields included), so only the
 *   fields a user can set are compared, with "" and absent meaning the same.
 * - The engine shows a thrown error's message alone: every message says what was being done,
 *   to which record, what the API answered and, where it helps, what to do.
 */
import { z } from "zod";
import { ApiClient, Query, sharedClient } from "./client";
import { ApiError, Code, UnknownOutcomeError, isAlreadyExists, isApiError, isNotFound } from "./errors";
import { callBudgetMs, withCallDeadline } from "./deadline";
import { safeMessage } from "./messages";
import { configureFromPulumi } from "./settings";
import { formatPath } from "./zodIssues";

export type Props = Record<string, unknown>;

export interface CheckFailure {
  property: string;
  reason: string;
}

/** The wire form of a value not known yet (preview); equals @pulumi/pulumi's runtime `unknownValue`. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** `/`-separated non-empty segments: the uid of a group or of anything that lives in one. */
export const PATH_UID = /^[^/\s]+(\/[^/\s]+)*$/;
/** One segment: a role's uid. */
export const SEGMENT_UID = /^[^/\s]+$/;

export interface ResourceKind {
  /** The class name users know: "Group". */
  typeName: string;
  /** How messages name one record: "group". */
  noun: string;
  /** The API collection: "groups". */
  collection: "groups" | "identities" | "roleBindings";
  /** A strict object schema of the inputs (without `__provider`). */
  inputs: z.ZodObject;
  /** Rules across fields (exactly one of a value and its pattern), run even when a field failed. */
  rules?(inputs: Props): CheckFailure[];
  /** The input naming the parent group: it goes in the create path, never in a body. */
  parentField: string;
  /** Inputs sent in the create body and in every PATCH body (the mask's vocabulary). */
  writable: readonly string[];
  /**
   * Writable fields that are messages of their own (an identity's claimMatch): the mask names
   * their changed members (`claimMatch.subject`) rather than the whole field.
   */
  nested?: readonly string[];
  /** Inputs whose change replaces the record instead of updating it. */
  replaceOn: readonly string[];
  /** Every field of the API's record, plus the inputs the record answers (the parent's uid). */
  toOutputs(record: ApiRecord): Props;
  /** "group \"team\"": how messages name the record described by these props. */
  label(props: Props): string;
  /** The list filters that find the record a create with these inputs would have made. */
  adoptionQuery(inputs: Props): Query;
  /** Why a delete was refused (FAILED_PRECONDITION), and what to do about it. */
  explainDeleteRefusal?(error: ApiError): string;
  /** What to do when a record like this one already exists. */
  alreadyExistsHint: string;
}

export type ApiRecord = Props & { uid: string };

const recordSchema = z.looseObject({ uid: z.string().min(1) });

// ---- values -------------------------------------------------------------------------------

/** An untyped value as messages show it: strings as they are, anything else as JSON. */
export function shown(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** A deep copy without `undefined` (the host cannot carry it); array holes become null. */
export function stripUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => (v === undefined ? null : stripUndefined(v))) as T;
  if (value !== null && typeof value === "object") {
    const out: Props = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = stripUndefined(v);
    return out as T;
  }
  return value;
}

/** The comparable form of a value: "", null, absent and {} all mean "not set"; key order ignored. */
export function canonical(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return undefined;
  if (Array.isArray(value)) return value.map((v) => canonical(v) ?? null);
  if (typeof value === "object") {
    const out: Props = {};
    for (const key of Object.keys(value).sort()) {
      const v = canonical((value as Props)[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return value;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** The fields among `fields` whose new value differs from the old one (or is not known yet). */
export function changedFields(olds: Props, news: Props, fields: readonly string[]): string[] {
  return fields.filter((field) => containsUnknown(news[field]) || !sameValue(olds[field], news[field]));
}

/** The updateMask query value: exactly these fields, comma-separated. */
export function updateMask(fields: readonly string[]): string {
  return fields.join(",");
}

const isObject = (value: unknown): value is Props =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The mask paths of the `changed` fields: a field that is a message of its own (`nested`) and
 * was one before too is named by its changed members (`claimMatch.subject`, sorted), so the
 * service leaves the members that did not change alone; maps and scalars are named whole.
 */
export function maskPaths(
  olds: Props,
  news: Props,
  changed: readonly string[],
  nested: readonly string[] = [],
): string[] {
  return changed.flatMap((field) => {
    const [before, after] = [olds[field], news[field]];
    if (!nested.includes(field) || !isObject(before) || !isObject(after)) return [field];
    const members = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    const differing = members.filter((m) => containsUnknown(after[m]) || !sameValue(before[m], after[m]));
    return differing.length ? differing.map((m) => `${field}.${m}`) : [field];
  });
}

/**
 * A PATCH body: every writable field the program declares for the record, changed or not, so
 * each field the API documents as required in an update body (a group's or identity's name) is
 * there; a field the program leaves out stays out (when the mask names it, the service clears it).
 */
export function updateBody(kind: ResourceKind, news: Props): Props {
  return stripUndefined(pick(news, kind.writable));
}

/** The parent group's uid: everything before the last segment (none for a root group). */
export function parentOfUid(uid: string): string | undefined {
  const at = uid.lastIndexOf("/");
  return at > 0 ? uid.slice(0, at) : undefined;
}

function pick(props: Props, fields: readonly string[]): Props {
  const out: Props = {};
  for (const field of fields) if (props[field] !== undefined) out[field] = props[field];
  return out;
}

/** The user-settable values of a record, as a program would write them (empty optional fields left out). */
export function inputsOf(kind: ResourceKind, outputs: Props): Props {
  const out: Props = {};
  for (const field of [kind.parentField, ...kind.writable]) {
    const value = canonical(outputs[field]);
    if (value !== undefined) out[field] = outputs[field];
  }
  return stripUndefined(out);
}

// ---- check --------------------------------------------------------------------------------

/** Paths (as key arrays) of every value that is not known yet. */
function unknownPaths(value: unknown, at: PropertyKey[] = [], found: PropertyKey[][] = []): PropertyKey[][] {
  if (value === UNKNOWN) found.push(at);
  else if (Array.isArray(value)) value.forEach((v, i) => unknownPaths(v, [...at, i], found));
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) unknownPaths(v, [...at, k], found);
  return found;
}

const startsWith = (path: readonly PropertyKey[], prefix: readonly PropertyKey[]) =>
  prefix.every((key, i) => path[i] === key);

/** The keys a strict object schema accepts at `path`, for "unknown property" failures. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    while (current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
    current = current instanceof z.ZodObject ? (current.shape as Record<string, z.ZodType>)[String(key)] : undefined;
    if (!current) return undefined;
  }
  while (current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
  return current instanceof z.ZodObject ? Object.keys(current.shape) : undefined;
}

/** zod's messages start with a generic "Invalid input: "; the property already says where. */
const reasonOf = (message: string) => message.replace(/^Invalid input: /, "");

export function checkInputs(kind: ResourceKind, news: Props): { inputs: Props; failures: CheckFailure[] } {
  // A key holding undefined is an absent key (and the host cannot carry undefined back).
  const { __provider: _provider, ...given } = stripUndefined(news ?? {});
  const unknowns = unknownPaths(given);
  const failures: CheckFailure[] = [];
  const parsed = kind.inputs.safeParse(given);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      const accepted = keysAt(kind.inputs, issue.path);
      for (const key of issue.keys) {
        failures.push({
          property: formatPath([...issue.path, key]),
          reason: `unknown property${accepted ? `; ${formatPath(issue.path) || kind.typeName} takes ${accepted.join(", ")}` : ""}`,
        });
      }
      continue;
    }
    // A value still unknown (preview) is checked when it is known, at the next check.
    if (unknowns.some((u) => startsWith(issue.path, u))) continue;
    failures.push({ property: formatPath(issue.path), reason: reasonOf(issue.message) });
  }
  failures.push(...(kind.rules?.(given) ?? []));
  const seen = new Set<string>();
  const unique = failures.filter(
    (f) => !seen.has(`${f.property}\0${f.reason}`) && !!seen.add(`${f.property}\0${f.reason}`),
  );
  return { inputs: given, failures: unique };
}

/**
 * Exactly one of `exact` and `pattern` in `object` (at `at`), or at most one when not required.
 * A value not known yet counts as set.
 */
export function oneOf(object: unknown, at: string, exact: string, pattern: string, required: boolean): CheckFailure[] {
  if (object === null || typeof object !== "object" || Array.isArray(object)) return [];
  const has = (key: string) => (object as Props)[key] !== undefined && (object as Props)[key] !== null;
  if (has(exact) && has(pattern))
    return [{ property: `${at}.${exact}`, reason: `set either ${exact} or ${pattern}, not both` }];
  if (required && !has(exact) && !has(pattern))
    return [{ property: `${at}.${exact}`, reason: `is required (or ${pattern})` }];
  return [];
}

/** zod error options: "is required" when absent, "must be <expected>" otherwise. */
export function expecting(expected: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${expected}`) };
}

/** A uid input: a path of segments (groups, identities) or a single segment (roles). */
export function uidSchema(what: string, form: "path" | "segment") {
  const [pattern, shape] =
    form === "path" ? [PATH_UID, `segments separated by /, e.g. "acme/team"`] : [SEGMENT_UID, "one segment, without /"];
  return z.string(expecting(`${what}'s uid (a string)`)).regex(pattern, `must be ${what}'s uid: ${shape}`);
}

// ---- errors -------------------------------------------------------------------------------

/** A failure the engine will show as its message alone. */
export class ResourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(safeMessage(message), options);
    this.name = "ResourceError";
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function failed(operation: string, what: string, error: unknown, hint?: string): ResourceError {
  return new ResourceError(`${operation} ${what} failed: ${messageOf(error)}${hint ? `. ${hint}` : ""}`, {
    cause: error,
  });
}

// ---- the provider -------------------------------------------------------------------------

/**
 * How many POSTs a create sends at most when their answers keep getting lost. Each loss is
 * followed by a search, so a retry never duplicates; six makes a create through a network
 * that loses one answer in ten fail once in a million, where three failed a 150-create run
 * one time in seven (tests/reliability/faultStorm.test.ts).
 */
export const MAX_CREATE_ATTEMPTS = 6;
/** A record found after a lost answer counts as ours only if created after the request (minus this much clock skew). */
const CLOCK_SKEW_MS = 10 * 60 * 1000;

export interface DynamicProvider {
  configure(req: { config: { get(key: string): string | undefined } }): Promise<void>;
  check(olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }>;
  diff(
    id: string,
    olds: Props,
    news: Props,
  ): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props?: Props): Promise<{ id: string; props: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

export function defineProvider(kind: ResourceKind, client: () => ApiClient = sharedClient): DynamicProvider {
  const compared = [kind.parentField, ...kind.writable];

  // Runs for every record read or written (a refresh of N resources, N times): a plain uid check
  // instead of a schema.
  const outputsOf = (record: unknown, inputs: Props = {}): Props => {
    const uid = record !== null && typeof record === "object" ? (record as Props).uid : undefined;
    if (typeof uid !== "string" || uid === "")
      throw new ResourceError(
        `the API answered a ${kind.noun} without a uid: ${JSON.stringify(record)?.slice(0, 200)}`,
      );
    // The server's values win; inputs fill in only what it leaves out.
    return stripUndefined({ ...pick(inputs, compared), ...kind.toOutputs(record as ApiRecord) });
  };

  const itemPath = (uid: string) => `${kind.collection}/${uid}`;

  /** The record a create whose answer was lost made, if any: same parent and fields, created since. */
  async function findCreated(inputs: Props, sentAt: number): Promise<ApiRecord | undefined> {
    const answer = await client().request<Props>({
      method: "GET",
      domain: "iam",
      path: kind.collection,
      query: { ...kind.adoptionQuery(inputs), page_size: 200 },
    });
    const items = Array.isArray(answer?.[kind.collection]) ? (answer[kind.collection] as unknown[]) : [];
    const wanted = inputsOf(kind, pick(inputs, compared));
    return items
      .map((item) => recordSchema.safeParse(item).data)
      .find((item) => {
        if (!item) return false;
        const created = Date.parse(typeof item.createTime === "string" ? item.createTime : "");
        const recent = Number.isNaN(created) || created >= sentAt - CLOCK_SKEW_MS;
        return recent && sameValue(inputsOf(kind, outputsOf(item)), wanted);
      });
  }

  async function post(inputs: Props, what: string): Promise<unknown> {
    const request = {
      method: "POST" as const,
      domain: "iam" as const,
      path: itemPath(String(inputs[kind.parentField])),
      body: stripUndefined(pick(inputs, kind.writable)),
    };
    const sentAt = Date.now();
    let answerLost = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await client().request(request);
      } catch (error) {
        const lost = error instanceof UnknownOutcomeError;
        // After a lost answer, ALREADY_EXISTS may be our own first request: look before refusing.
        if (!lost && !(answerLost && isAlreadyExists(error))) {
          if (isAlreadyExists(error)) throw alreadyExists(what, error);
          throw failed("creating", what, error);
        }
        answerLost = true;
        let found: ApiRecord | undefined;
        try {
          found = await findCreated(inputs, sentAt);
        } catch (searchError) {
          throw new ResourceError(
            `creating ${what}: the answer to the create was lost and looking for the record failed (${messageOf(searchError)}). ` +
              `Check whether it exists: if so, delete it or use ${kind.typeName}.get, then run the update again`,
            { cause: searchError },
          );
        }
        if (found) return found;
        if (isAlreadyExists(error)) throw alreadyExists(what, error);
        if (attempt >= MAX_CREATE_ATTEMPTS) {
          throw new ResourceError(
            `creating ${what} failed: the answer was lost ${attempt} times (last: ${messageOf(error)}) and no such ${kind.noun} was found afterwards, ` +
              "so none was created; check the network between here and platform:apiUrl and run the update again",
            { cause: error },
          );
        }
      }
    }
  }

  function alreadyExists(what: string, error: unknown): ResourceError {
    const said = error instanceof ApiError ? error.serviceMessage || error.message : messageOf(error);
    return new ResourceError(
      `creating ${what} failed: it already exists (${said}). This program does not take over existing records silently: ${kind.alreadyExistsHint}`,
      { cause: error },
    );
  }

  const operations: DynamicProvider = {
    async configure(req) {
      try {
        configureFromPulumi(req.config);
      } catch {
        // Configure was never sent: settings come from the environment.
      }
    },

    async check(_olds, news) {
      return checkInputs(kind, news);
    },

    async diff(_id, olds, news) {
      const changed = changedFields(olds ?? {}, news ?? {}, compared);
      return {
        changes: changed.length > 0,
        replaces: changed.filter((f) => kind.replaceOn.includes(f)),
        deleteBeforeReplace: false,
      };
    },

    async create(inputs) {
      const record = await post(inputs, kind.label(inputs));
      const outs = outputsOf(record, inputs);
      return { id: String(outs.uid), outs };
    },

    async read(id, props = {}) {
      let record: unknown;
      try {
        record = await client().request({ method: "GET", domain: "iam", path: itemPath(id) });
      } catch (error) {
        // Gone: an empty id tells the engine to drop it from the state.
        if (isNotFound(error)) return { id: "", props: {} };
        throw failed("reading", kind.label({ ...props, uid: id }), error);
      }
      const outs = outputsOf(record);
      return { id: String(outs.uid), props: outs, inputs: inputsOf(kind, outs) };
    },

    async update(id, olds, news) {
      const changed = changedFields(olds, news, kind.writable);
      if (changed.length === 0) {
        const { __provider: _p, ...outs } = { ...olds, ...pick(news, compared) };
        return { outs: stripUndefined(outs) };
      }
      const body = updateBody(kind, news);
      const what = kind.label({ ...news, uid: id });
      let record: unknown;
      try {
        record = await client().request({
          method: "PATCH",
          domain: "iam",
          path: itemPath(id),
          query: { updateMask: updateMask(maskPaths(olds, news, changed, kind.nested)) },
          body,
        });
      } catch (error) {
        const hint = isNotFound(error)
          ? `It no longer exists: run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` creates it again`
          : undefined;
        throw failed("updating", what, error, hint);
      }
      return { outs: outputsOf(record, news) };
    },

    async delete(id, props) {
      try {
        await client().request({ method: "DELETE", domain: "iam", path: itemPath(id) });
      } catch (error) {
        if (isNotFound(error)) return;
        const what = kind.label({ ...props, uid: id });
        if (isApiError(error, Code.FAILED_PRECONDITION) && kind.explainDeleteRefusal) {
          throw new ResourceError(`deleting ${what} failed: ${kind.explainDeleteRefusal(error)}`, { cause: error });
        }
        throw failed("deleting", what, error);
      }
    },
  };
  return withCallDeadlines(kind, operations);
}

/** Each operation that calls the API is one call with one overall deadline across its retries. */
function withCallDeadlines(kind: ResourceKind, ops: DynamicProvider): DynamicProvider {
  const scoped = <T>(what: string, fn: () => Promise<T>) => withCallDeadline(what, callBudgetMs(), fn);
  return {
    ...ops,
    create: (inputs) => scoped(`creating ${kind.label(inputs)}`, () => ops.create(inputs)),
    read: (id, props) => scoped(`reading ${kind.label({ ...props, uid: id })}`, () => ops.read(id, props)),
    update: (id, olds, news) =>
      scoped(`updating ${kind.label({ ...news, uid: id })}`, () => ops.update(id, olds, news)),
    delete: (id, props) => scoped(`deleting ${kind.label({ ...props, uid: id })}`, () => ops.delete(id, props)),
  };
}
