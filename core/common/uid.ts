/**
 * The one grammar of a well-formed uid, used wherever a uid becomes part of a request path:
 * resource inputs, look-up arguments, the client's path building, uids the service answers.
 *
 * The spec: a group's or identity's uid is a path of segments separated by `/` (a child's uid
 * is its parent's plus one segment); a role's uid is one segment. The service issues lowercase
 * hex segments. Anything beyond letters, digits, `-` and `_` in a segment (`.` and `..`, `%`,
 * `?`, `#`, `\`, whitespace, control characters, non-ASCII look-alikes) could make a URL
 * resolver, a proxy or the service read a different path than the one meant, so it is refused
 * before any request, never encoded and sent.
 */
import { zod } from "./lazyZod";

/** `path`: segments joined by `/` (groups, identities, bindings, repos); `segment`: one segment (roles). */
export type UidForm = "path" | "segment";

/** The longest uid accepted: far beyond any real hierarchy, short enough to keep every URL sane. */
export const MAX_UID_CHARS = 1024;
/** The longest single segment accepted (the service's segments are 16 to 40 hex characters). */
export const MAX_SEGMENT_CHARS = 128;

/** One segment: 1 to MAX_SEGMENT_CHARS ASCII letters, digits, `-` and `_`. */
export const UID_SEGMENT_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
/** Segments joined by single `/`, no leading or trailing `/` (the total length is capped apart: MAX_UID_CHARS). */
export const UID_PATH_PATTERN = /^[A-Za-z0-9_-]{1,128}(?:\/[A-Za-z0-9_-]{1,128})*$/;

const SEGMENT_CHAR = /[A-Za-z0-9_-]/;

/** What a character is, for messages: never the raw character when it cannot be seen. */
function describeChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f)
    return `a control character (U+${code.toString(16).toUpperCase().padStart(4, "0")})`;
  if (/\s/u.test(char)) return "whitespace";
  if (code > 0x7e) return `the non-ASCII character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `"${char}"`;
}

/** Why `value` is not a well-formed uid of `form`, or undefined when it is one. */
export function uidIssue(value: unknown, form: UidForm): string | undefined {
  if (typeof value !== "string") return "must be a string";
  // The common case in one regular expression (every uid read or sent passes here); the steps
  // below only say what is wrong.
  if (value.length <= MAX_UID_CHARS && (form === "path" ? UID_PATH_PATTERN : UID_SEGMENT_PATTERN).test(value))
    return undefined;
  if (value === "") return "must not be empty";
  if (value.length > MAX_UID_CHARS) return `is ${value.length} characters long; a uid has at most ${MAX_UID_CHARS}`;
  const segments = value.split("/");
  if (form === "segment" && segments.length > 1) return `must be one segment, without "/"`;
  for (const segment of segments) {
    if (segment === "") return `has an empty segment (a leading, trailing or doubled "/")`;
    if (segment === "." || segment === "..") return `has a "${segment}" segment`;
    if (segment.length > MAX_SEGMENT_CHARS)
      return `has a segment of ${segment.length} characters; a segment has at most ${MAX_SEGMENT_CHARS}`;
    for (const char of segment) {
      if (!SEGMENT_CHAR.test(char))
        return `contains ${describeChar(char)}; a uid segment holds only letters, digits, "-" and "_"`;
    }
  }
  return undefined;
}

export function isWellFormedUid(value: unknown, form: UidForm): value is string {
  return uidIssue(value, form) === undefined;
}

/** A value as a message may quote it: JSON-escaped (control characters visible) and cut. */
export function quoteUid(value: string, max = 80): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(cut);
}

/** A zod schema of a well-formed uid; the message says what is wrong, never the whole value. */
export function uidString(form: UidForm) {
  return zod()
    .string()
    .superRefine((value, ctx) => {
      const issue = uidIssue(value, form);
      if (issue) ctx.addIssue({ code: "custom", message: `is not a well-formed uid: it ${issue}` });
    });
}

/** Thrown before any request when a uid that would go into a path is not well formed. */
export class InvalidUidError extends Error {
  constructor(
    readonly uid: string,
    readonly issue: string,
    where: string,
  ) {
    super(
      `${where}: the uid ${quoteUid(uid)} is not a well-formed uid: it ${issue}; ` +
        `uids are segments of letters, digits, "-" and "_" separated by "/"; no request was sent`,
    );
    this.name = "InvalidUidError";
  }
}
