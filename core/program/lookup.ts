/**
 * What every look-up shares: the getX / getXOutput pair, argument validation before any
 * request, the list arguments common to every collection and their wire names.
 *
 * Look-ups run in the program process (dynamic providers cannot serve invokes), during
 * preview too, like Terraform data sources, with the same client the resources use.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { ApiClient, Domain, Query, sharedClient } from "../transport/client";
import { callBudgetMs, withCallDeadline } from "../transport/deadline";
import { dependenciesDone } from "./invokeDependencies";
import { plural } from "./plural";
import { lazily } from "../common/lazyZod";
import { safeMessage } from "../common/messages";
import { listAll, listPages } from "../transport/pagination";
import { uidString } from "../common/uid";
import { formatIssues } from "../common/zodIssues";

/**
 * The key under which the package's own callers and tests hand a look-up its client, inside
 * otherwise ordinary invoke options (`withClient`). A symbol no published type names, so the
 * client type stays out of the look-ups' declarations and a program cannot set it by accident.
 * Registered (`Symbol.for`), so options made by one copy of the package reach the look-ups of
 * another (the benchmarks drive a staged, installed copy with options made in the repository's).
 */
const CLIENT = Symbol.for("platform-pulumi look-up client");

type WithClient = { [CLIENT]?: ApiClient };

/**
 * Invoke options that make a look-up call `client` instead of the process-wide one: for tests,
 * the bench and the package's own callers (not exported from the package's index).
 */
export function withClient(client: ApiClient, options: pulumi.InvokeOutputOptions = {}): pulumi.InvokeOutputOptions {
  const withIt: pulumi.InvokeOutputOptions & WithClient = { ...options, [CLIENT]: client };
  return withIt;
}

let warnedOfClientOption = false;

/**
 * The client a call uses: the one `withClient` put in, else the deprecated `{ client }` option
 * (CHANGELOG, deprecations), else the process-wide client from config/env.
 */
function clientOf(name: string, options: pulumi.InvokeOptions | undefined): ApiClient {
  const injected = (options as WithClient | undefined)?.[CLIENT];
  if (injected) return injected;
  // Whatever a JavaScript program put there: checked before it is used.
  const legacy = (options as { client?: Partial<ApiClient> | null } | undefined)?.client;
  if (legacy === undefined) return sharedClient();
  if (typeof legacy?.request !== "function")
    throw new LookupError(`${name}: options.client is not an API client; leave it out to use the configured settings`);
  if (!warnedOfClientOption) {
    warnedOfClientOption = true;
    void pulumi.log.warn(
      `${name}: the look-up option "client" is deprecated and will be removed in the next release; ` +
        "look-ups take Pulumi's invoke options and use the platform:* settings",
      options?.parent,
    );
  }
  return legacy as ApiClient;
}

/** The argument shape of an Output form: every field (and array element) may be an Input. */
export type InputArgs<A> = {
  [K in keyof A]: NonNullable<A[K]> extends ReadonlyArray<infer E>
    ? pulumi.Input<pulumi.Input<E>[]>
    : pulumi.Input<NonNullable<A[K]>>;
};

/** A look-up failed: its message names the function and says what to do. */
export class LookupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(safeMessage(message), options);
    this.name = "LookupError";
  }
}

/**
 * A look-up's two forms, with Pulumi's options: `get` takes InvokeOptions (as Pulumi's plain
 * invoke, it ignores dependsOn), `output` takes InvokeOutputOptions and waits for `dependsOn`.
 * `parent` is the resource its warnings are reported under; `provider`, `version` and
 * `pluginDownloadURL` choose a provider plugin in Pulumi's own functions, and a look-up has none:
 * it runs in the program with the platform:* settings.
 */
export interface Lookup<A, R> {
  /** `getRoles`: the function's name in every language. */
  readonly name: string;
  /** The arguments it takes, as it validates them (a native provider declares them in its schema). */
  readonly args: () => z.ZodType;
  get(args: A, options?: pulumi.InvokeOptions): Promise<R>;
  output(args: InputArgs<A>, options?: pulumi.InvokeOutputOptions): pulumi.Output<R>;
}

/**
 * A = the argument type callers see; it defaults to what the schema accepts. The schema is
 * built on the first call (`lazily`), so defining a look-up loads no zod.
 */
export function defineLookup<S extends z.ZodType<object>, R, A = z.input<S>>(
  name: string,
  argsSchema: () => S,
  run: (args: z.output<S>, client: ApiClient) => Promise<R>,
): Lookup<A, R> {
  const get = async (args: A, options?: pulumi.InvokeOptions): Promise<R> => {
    const parsed = argsSchema().safeParse(args ?? {});
    if (!parsed.success) throw new LookupError(`${name}: invalid arguments: ${formatIssues(parsed.error)}`);
    try {
      const client = clientOf(name, options);
      return await withCallDeadline(name, callBudgetMs(), () => run(parsed.data, client));
    } catch (error) {
      if (error instanceof LookupError) throw error;
      throw new LookupError(`${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };
  const output = (args: InputArgs<A>, options?: pulumi.InvokeOutputOptions): pulumi.Output<R> =>
    pulumi
      .all([pulumi.output(args ?? {}), dependenciesDone(options?.dependsOn, name)])
      .apply(([plain]) => get(plain as A, options));
  return { name, args: argsSchema, get, output };
}

/** `field`, `field desc` or `field asc`: what the API's order_by takes. */
export const orderBy = lazily((z) =>
  z
    .string()
    .regex(
      /^[A-Za-z][A-Za-z0-9_.]*(?: (?:asc|desc))?$/i,
      'must be a field name, optionally followed by " desc" (e.g. "name", "name desc", "created_at desc")',
    ),
);

/** The arguments every collection's List takes (schemas to spread into a look-up's own). */
export const listArgs = lazily((z) => {
  /** Every uid argument: refused before any request unless well formed (core/common/uid.ts). */
  const uid = uidString("path");
  // The words on each argument are the schema's descriptions: the docs pages show them.
  return {
    name: z.string().min(1, "must not be empty").describe("Exact name.").optional(),
    descendantsOf: uid.describe("Only records anywhere below this group.").optional(),
    childrenOf: uid.describe("Only records directly in this group.").optional(),
    ancestorsOf: uid.describe("Only groups above this uid.").optional(),
    inRoot: z.boolean().describe("Only what lives directly in a root group.").optional(),
    ids: z.array(uid).describe("Only these uids.").optional(),
    orderBy: orderBy()
      .describe('The order: a field name, optionally followed by " desc" ("name", "name desc", "created_at desc").')
      .optional(),
    skip: z.number().int().nonnegative().describe("Results of the ordered set to drop first.").optional(),
    limit: z.number().int().positive().describe("At most this many results (the listing stops early).").optional(),
  };
});

export const listArgsSchema = lazily((z) => z.strictObject(listArgs()));
export type ListArgs = z.input<ReturnType<typeof listArgsSchema>>;

/** Argument name → wire name, for the arguments shared by every List. */
const WIRE_NAMES: Record<string, string> = {
  name: "name",
  descendantsOf: "uidp.descendants_of",
  childrenOf: "uidp.children_of",
  ancestorsOf: "uidp.ancestors_of",
  inRoot: "uidp.in_root",
  ids: "uidp.ids",
  orderBy: "order_by",
};

/**
 * The query of a List from validated arguments: shared ones by the table above, extra
 * ones by `extra` (argument → wire name). skip and limit are the pagination engine's.
 */
export function listQuery(args: Record<string, unknown>, extra: Record<string, string> = {}): Query {
  const query: Query = {};
  const names = { ...WIRE_NAMES, ...extra };
  for (const [arg, wire] of Object.entries(names)) {
    const value = args[arg];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) query[wire] = value.map(String);
    } else if (value instanceof Date) query[wire] = value.toISOString();
    else query[wire] = value as string | number | boolean;
  }
  return query;
}

/** One record by uid (a Get), or by exact name within an optional parent scope (a List). */
export const oneByUidOrName = lazily((z) =>
  z
    .strictObject({
      uid: uidString("path").describe("The record's uid: one Get.").optional(),
      name: listArgs().name,
      childrenOf: listArgs().childrenOf,
      descendantsOf: listArgs().descendantsOf,
    })
    .superRefine((args, ctx) => {
      if (args.uid === undefined && args.name === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["name"],
          message: "give uid, or name (with childrenOf or descendantsOf to scope it)",
        });
      if (args.uid !== undefined) {
        for (const other of ["name", "childrenOf", "descendantsOf"] as const) {
          if (args[other] !== undefined)
            ctx.addIssue({
              code: "custom",
              path: [other],
              message: "cannot be combined with uid; a uid already names one record",
            });
        }
      }
    }),
);
export type OneByUidOrNameArgs = z.input<ReturnType<typeof oneByUidOrName>>;

export function scopeText(args: { childrenOf?: string; descendantsOf?: string }): string {
  return [args.childrenOf && `in "${args.childrenOf}"`, args.descendantsOf && `below "${args.descendantsOf}"`]
    .filter(Boolean)
    .map((s) => ` ${s}`)
    .join("");
}

/** Exactly one match, or an error that says how many and which. */
export function exactlyOne<T extends { uid: string }>(what: string, matches: T[], criteria: string): T {
  if (matches.length === 1) return matches[0];
  if (matches.length === 0)
    throw new Error(
      `no ${what} matches ${criteria}; check the name and scope, and that the caller may list ${plural(what)} there`,
    );
  throw new Error(
    `${matches.length} ${plural(what)} match ${criteria} (uids: ${matches.map((m) => m.uid).join(", ")}); narrow the scope (descendantsOf/childrenOf) or look it up by uid`,
  );
}

/** Parses one resource answered by the service, naming the field that has the wrong type. */
export function parseResource<T>(what: string, schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new Error(`the service returned an unexpected ${what}: ${formatIssues(parsed.error, what)}`);
  return parsed.data;
}

/** A collection as its look-ups read it. */
export interface Collection<T extends { uid: string }> {
  domain: Domain;
  /** Path after the version segment, and the envelope's key. */
  collection: string;
  /** How messages name one record: "repo". */
  noun: string;
  /** The record schema, built on first use (`lazily`). */
  schema: () => z.ZodType<T>;
}

/** Every record a List with these validated arguments returns; `extra` maps further arguments to wire names. */
export function listRecords<T extends { uid: string }>(
  client: ApiClient,
  from: Collection<T>,
  args: Record<string, unknown> & { skip?: number; limit?: number },
  extra?: Record<string, string>,
): Promise<T[]> {
  return listAll(client, {
    domain: from.domain,
    collection: from.collection,
    query: listQuery(args, extra),
    skip: args.skip,
    limit: args.limit,
    schema: from.schema(),
  });
}

/**
 * The records of the same List page by page (core/transport/pagination.ts listPages), for a program
 * that reads a large collection without holding it whole: only the page being read is in memory.
 * Arguments are validated by the caller, as for listRecords; each page's request has the budget
 * of one call (platform:timeout), since the program decides how long the walk takes.
 */
export function listRecordPages<T extends { uid: string }>(
  client: ApiClient,
  from: Collection<T>,
  args: Record<string, unknown> & { skip?: number; limit?: number },
  extra?: Record<string, string>,
): AsyncGenerator<T[], void, undefined> {
  return listPages(client, {
    domain: from.domain,
    collection: from.collection,
    query: listQuery(args, extra),
    skip: args.skip,
    limit: args.limit,
    schema: from.schema(),
  });
}

/** The one record a getX names: by uid with one Get, or by exact name in an optional scope with a List. */
export async function findOne<T extends { uid: string; name?: string }>(
  client: ApiClient,
  from: Collection<T>,
  args: { uid?: string; name?: string; childrenOf?: string; descendantsOf?: string },
): Promise<T> {
  if (args.uid !== undefined)
    return parseResource(
      from.noun,
      from.schema(),
      await client.request({ method: "GET", domain: from.domain, path: `${from.collection}/${args.uid}` }),
    );
  const matches = await listRecords(client, from, args);
  return exactlyOne(
    from.noun,
    matches.filter((record) => record.name === args.name),
    `name "${args.name}"${scopeText(args)}`,
  );
}
