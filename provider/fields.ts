/**
 * The toolkit a kind builds its input schema with: zod plus the field shapes every kind shares
 * (uids, names, free text, URLs, patterns, string maps), each failing with a reason that reads
 * after the property's name ("parentUid: must be a group's uid ...").
 *
 * Only the check loads this module (on its first call), so describing a kind loads no zod.
 */
import { z } from "zod";

/** zod error options: "is required" when absent, "must be <expected>" otherwise. */
export function expecting(expected: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${expected}`) };
}

/** `/`-separated non-empty segments: the uid of a group or of anything that lives in one. */
const PATH_UID = /^[^/\s]+(\/[^/\s]+)*$/;
/** One segment: a role's uid. */
const SEGMENT_UID = /^[^/\s]+$/;

/** A uid input: a path of segments (groups, identities) or a single segment (roles). */
function uid(what: string, form: "path" | "segment" = "path") {
  const [pattern, shape] =
    form === "path" ? [PATH_UID, `segments separated by /, e.g. "acme/team"`] : [SEGMENT_UID, "one segment, without /"];
  return z.string(expecting(`${what}'s uid (a string)`)).regex(pattern, `must be ${what}'s uid: ${shape}`);
}

/** A string that may be empty (descriptions). */
const optionalText = () => z.string(expecting("a string"));

/** A non-empty string. */
const text = () => z.string(expecting("a string")).min(1, "must not be empty");

/** A name the service matches with `pattern`. */
const name = (pattern: RegExp) => z.string(expecting("a string")).regex(pattern, `must match ${pattern.source}`);

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An https URL; plain http only on loopback (local emulators and test issuers). */
const httpsUrl = () =>
  z.string(expecting("an https URL")).refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
    } catch {
      return false;
    }
  }, "must be an https URL (plain http only for localhost)");

/** A regular expression the service will match with. */
const pattern = () =>
  text().refine((value) => {
    try {
      new RegExp(value);
      return true;
    } catch {
      return false;
    }
  }, "must be a valid regular expression");

/** An object of strings (claims), each value checked with `value`. */
const stringMap = (value: z.ZodType<string> = z.string(expecting("a string"))) =>
  z.record(z.string(), value, expecting("an object of strings"));

export const fields = { z, expecting, uid, optionalText, text, name, httpsUrl, pattern, stringMap };
export type Fields = typeof fields;
