/**
 * The one way this package reads a List: cursor pages of at most 200 until the service
 * says there are no more, each result once, checked against the service's own count.
 *
 * Why each rule:
 * - page_size 200 (the maximum) so N results cost ceil(N/200) requests; with a limit the
 *   last page asks only for what is still missing.
 * - Every page repeats the same filters, order and skip (the spec's rule 1: a token is only
 *   valid "with the same other parameters").
 * - A page token silently expires after 3 days and the service then restarts the query
 *   from the beginning without an error (rule 7). A page that brings nothing new is that
 *   restart (or a confused service): results are deduplicated by uid, and the walk resumes
 *   once from where it was with skip = results so far; if that brings nothing new either,
 *   the walk stops and the count check below decides.
 * - totalCount is compared with what was collected whenever the walk ran to its end: a
 *   mismatch means the look-up would hand the program an incomplete or inflated set
 *   (typically the collection changed while it was being read), and a Pulumi program must
 *   not act on that silently. It is an error (`ListIncompleteError`) saying what to do.
 */
import type { z } from "zod";
import type { ApiClient, Domain, Query } from "./client";
import { zod } from "../common/lazyZod";
import { formatIssues } from "../common/zodIssues";

export const MAX_PAGE_SIZE = 200;

export interface ListAllRequest<T> {
  domain: Domain;
  /** The collection's path after the version segment, e.g. "repos". */
  collection: string;
  /** Key of the results array in the envelope; defaults to the collection. */
  itemsKey?: string;
  /** Filters and order in the API's own (snake_case) names; never paging parameters. */
  query?: Query;
  /** Results of the ordered set to drop before the first one returned. */
  skip?: number;
  /** Stop after this many results. */
  limit?: number;
  /** Schema of one result; unknown fields should pass, wrong types fail. */
  schema: z.ZodType<T>;
}

/** The walk ended with a different number of results than the service said exist. */
export class ListIncompleteError extends Error {
  constructor(
    message: string,
    readonly collected: number,
    readonly expected: number,
  ) {
    super(message);
    this.name = "ListIncompleteError";
  }
}

/** The service answered with something that is not the list envelope it documents. */
export class UnexpectedResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnexpectedResponseError";
  }
}

const PAGING = ["page_size", "page_token", "skip", "pageSize", "pageToken"];

function envelopeSchema<T>(itemsKey: string, schema: z.ZodType<T>) {
  const z = zod();
  return z.looseObject({
    [itemsKey]: z.array(schema).optional(),
    nextPageToken: z.string().nullish(),
    // The spec encodes it as a decimal string; a number is tolerated.
    totalCount: z
      .union([z.string().regex(/^\d+$/, "expected a decimal integer string"), z.number().int().nonnegative()])
      .nullish(),
  });
}

function count(name: string, value: number | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < min)
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  return value;
}

/**
 * The results page by page, each page's new results once (the same walk, rules and checks as
 * listAll), for callers that do not need them all at once: a look-up of 100,000 records holds one
 * page of text, its parse and its validated results at a time, plus the uids seen so far (needed
 * to drop repeats after a restart). Each page is parsed and validated, then only its new results
 * are handed on; nothing of it is kept here. The count check runs after the last page, so a walk
 * that ends short throws ListIncompleteError from the iteration, after the pages it did read.
 */
export async function* listPages<T extends { uid: string }>(
  client: ApiClient,
  request: ListAllRequest<T>,
): AsyncGenerator<T[], void, undefined> {
  const { domain, collection, schema } = request;
  const itemsKey = request.itemsKey ?? collection;
  const limit = count("limit", request.limit, 0);
  const firstSkip = count("skip", request.skip, 0) ?? 0;
  const filters: Query = {};
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (PAGING.includes(key))
      throw new Error(`listAll: "${key}" is managed by the pagination engine; pass skip/limit instead`);
    if (value !== undefined) filters[key] = value;
  }
  const envelope = envelopeSchema(itemsKey, schema);
  const where = `Listing ${domain}/${collection}`;

  const seen = new Set<string>();
  let collected = 0;
  let skip = firstSkip;
  let token: string | undefined;
  let totalCount: number | undefined;
  let resumed = false;
  let page = 0;

  while (limit === undefined || collected < limit) {
    const pageSize = limit === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, limit - collected);
    const query: Query = { ...filters, page_size: pageSize };
    if (skip > 0) query.skip = skip;
    if (token) query.page_token = token;
    page++;
    const parsed = envelope.safeParse(
      await client.request<unknown>({ method: "GET", domain, path: collection, query }),
    );
    if (!parsed.success) {
      throw new UnexpectedResponseError(`${where} returned an unexpected page ${page}: ${formatIssues(parsed.error)}`);
    }
    const data = parsed.data as { nextPageToken?: string | null; totalCount?: string | number | null } & Record<
      string,
      unknown
    >;
    const items = (data[itemsKey] ?? []) as T[];
    if (data.totalCount !== undefined && data.totalCount !== null) totalCount = Number(data.totalCount);
    const next = data.nextPageToken ?? undefined;

    const fresh: T[] = [];
    for (const item of items) {
      if (seen.has(item.uid)) continue;
      seen.add(item.uid);
      fresh.push(item);
      collected++;
      if (limit !== undefined && collected >= limit) break;
    }
    if (fresh.length > 0) yield fresh;
    if (limit !== undefined && collected >= limit) return;

    if (!next) break;
    if (fresh.length > 0) {
      resumed = false;
      token = next;
      continue;
    }
    // Nothing new although more was promised: the token expired and the query restarted.
    if (resumed) break;
    resumed = true;
    token = undefined;
    skip = firstSkip + collected;
  }

  if (totalCount !== undefined) {
    const expected = Math.max(0, totalCount - firstSkip);
    // Reaching here means the walk ran to its end: a limit that was met returned above.
    if (collected !== expected) {
      throw new ListIncompleteError(
        `${where} collected ${collected} ${itemsKey} but the service counts ${expected}` +
          `${firstSkip ? ` after skipping ${firstSkip} of ${totalCount}` : ""}; ` +
          "the collection probably changed while it was being listed. Run again; if it keeps happening, narrow the look-up with filters.",
        collected,
        expected,
      );
    }
  }
}

/** Every result of the walk in one array (see listPages): each record held once. */
export async function listAll<T extends { uid: string }>(client: ApiClient, request: ListAllRequest<T>): Promise<T[]> {
  const results: T[] = [];
  for await (const page of listPages(client, request)) for (const item of page) results.push(item);
  return results;
}
