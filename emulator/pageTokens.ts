/**
 * Page tokens are opaque to clients but carry everything needed to resume: the query
 * they belong to, the position after the last result, and when they were issued (by the
 * emulator's clock, so tests can age them with advanceClock).
 */
import { invalidField } from "./errors";
import { SortValue } from "./sortedIndex";

export const PAGE_TOKEN_LIFETIME_MS = 3 * 24 * 60 * 60 * 1000;

export interface PageCursor {
  /** Sort value and uid key of the last result returned. */
  v: SortValue;
  k: string;
}

export interface PageTokenPayload {
  query: unknown;
  after: PageCursor;
  issuedAt: number;
}

const PREFIX = "pt1.";

export function encodePageToken(payload: PageTokenPayload): string {
  return PREFIX + Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
}

export function decodePageToken(token: string): PageTokenPayload {
  const fail = () => invalidField("page_token", "is not a page token returned by this service");
  if (!token.startsWith(PREFIX)) throw fail();
  let payload: PageTokenPayload;
  try {
    payload = JSON.parse(Buffer.from(token.slice(PREFIX.length), "base64url").toString("utf8")) as PageTokenPayload;
  } catch {
    throw fail();
  }
  const after = payload?.after;
  if (
    typeof payload?.issuedAt !== "number" ||
    !after ||
    typeof after.k !== "string" ||
    (typeof after.v !== "string" && typeof after.v !== "number")
  )
    throw fail();
  return payload;
}

export function isExpired(payload: PageTokenPayload, now: number): boolean {
  return now - payload.issuedAt >= PAGE_TOKEN_LIFETIME_MS;
}
