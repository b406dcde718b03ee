/**
 * Pages of answers computed per request (look-ups over a small derived set, such as a
 * repo's architectures or a library's versions), with the seed spec's paging rules: page
 * size default 50, at most 200, skip, and a page token that resumes after the last item.
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
