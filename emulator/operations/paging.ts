/**
 * Pages of answers computed per request (look-ups over a small derived set, such as a
 * repo's architectures or a library's versions), with the seed spec's paging rules: page
 * size default 50, at most 200, skip, and a page token that resumes after the last item; and
 * their order, as `order_by` ("field [asc|desc]") asks for it.
 */
import { invalidField } from "../errors";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../handlers";
import { Params, getInt, getString } from "../params";

const PREFIX = "pa1.";

export function pageOf<T>(items: T[], params: Params, key: string): Record<string, unknown> {
  const requested = getInt(params, "page_size") ?? 0;
  const pageSize = requested === 0 ? DEFAULT_PAGE_SIZE : Math.min(requested, MAX_PAGE_SIZE);
  const skip = getInt(params, "skip") ?? 0;
  let start = skip;
  const token = getString(params, "page_token");
  if (token) {
    const offset = token.startsWith(PREFIX)
      ? Number(Buffer.from(token.slice(PREFIX.length), "base64url").toString())
      : NaN;
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw invalidField("page_token", "is not a page token returned by this service");
    start = offset;
  }
  const page = items.slice(start, start + pageSize);
  const body: Record<string, unknown> = { [key]: page };
  if (start + pageSize < items.length)
    body.nextPageToken = PREFIX + Buffer.from(String(start + pageSize)).toString("base64url");
  body.totalCount = String(Math.max(0, items.length - skip));
  body.skipped = skip;
  return body;
}

/** The fields a derived list may be ordered by, by their documented (snake_case) names: each item's value. */
export type OrderFields<T> = Record<string, (item: T) => string | number>;

/**
 * A version's sort key: every run of digits padded, so that 1.10 comes after 1.9 and 2.1.3 after
 * 2.1 (text elsewhere compares as is).
 */
export const versionKey = (version: string) => version.replace(/\d+/g, (digits) => digits.padStart(12, "0"));

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/**
 * `items` in the order `order_by` asks for ("field [asc|desc]"; the field in snake_case or
 * camelCase), else in the documented default `fallback` (the same form), else as they came.
 * Ties keep the default order. A field the list cannot be ordered by, or another direction, is
 * INVALID_ARGUMENT naming order_by.
 */
export function ordered<T>(items: T[], params: Params, fields: OrderFields<T>, fallback?: string): T[] {
  const asked = getString(params, "order_by")?.trim();
  const base = fallback ? sortedBy(items, fields, fallback) : items;
  return asked ? sortedBy(base, fields, asked) : base;
}

function sortedBy<T>(items: T[], fields: OrderFields<T>, order: string): T[] {
  const match = /^([A-Za-z_]+)(?:\s+(asc|desc))?$/i.exec(order);
  const field = match ? snake(match[1]) : undefined;
  const valueOf = field !== undefined && Object.hasOwn(fields, field) ? fields[field] : undefined;
  if (!match || !valueOf)
    throw invalidField(
      "order_by",
      `cannot order by "${order}"; use one of ${Object.keys(fields).join(", ")}, optionally followed by " asc" or " desc"`,
    );
  const sign = match[2]?.toLowerCase() === "desc" ? -1 : 1;
  const keyed = items.map((item) => ({ item, key: valueOf(item) }));
  keyed.sort((a, b) => sign * (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map(({ item }) => item);
}
