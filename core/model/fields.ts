/**
 * The toolkit a kind builds its input schema with: zod plus the field shapes every kind shares
 * (uids, names, free text, URLs, patterns, lists, string maps) and their limits, each failing with a reason that reads
 * after the property's name ("parentUid: must be a group's uid ...").
 *
 * Only the check loads this module (on its first call), so describing a kind loads no zod.
 */
import { z } from "zod";
import { mapOf } from "./mapSchema";
import { timestampIssue } from "./timestamp";
import { UidForm, uidIssue } from "../common/uid";

/** zod error options: "is required" when absent, "must be <expected>" otherwise. */
export function expecting(expected: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${expected}`) };
}

/**
 * The longest free text accepted before any request (the README's "Resources" lists them): far
 * beyond any real value, short enough that a runaway value fails in check instead of in the
 * service, the host or a message.
 */
export const LIMITS = {
  /** Names of groups, identities, roles. */
  name: 256,
  description: 4096,
  /** Subjects, audiences, claim values, URLs and every other free string. */
  text: 1024,
  /** Regular expressions (RE2). */
  pattern: 1024,
  /** Entries of a map (claims, claimPatterns) and the length of each key. */
  mapEntries: 64,
  mapKey: 256,
  /** Entries of a list input (bundles, aliases, tags, packages, scopes, …). */
  listEntries: 256,
  /** Documents given as text: a readme (markdown), certificates and keys (PEM or armored). */
  content: 65_536,
} as const;

/** A uid input: a path of segments (groups, identities) or a single segment (roles), never "." or "..". */
function uid(what: string, form: UidForm = "path") {
  return z.string(expecting(`${what}'s uid (a string)`)).superRefine((value, ctx) => {
    const problem = uidIssue(value, form);
    if (problem)
      ctx.addIssue({
        code: "custom",
        message: `must be ${what}'s uid: it ${problem}`,
      });
  });
}

const capped = (max: number) => (schema: z.ZodString) => schema.max(max, `must be at most ${max} characters`);

/** A string that may be empty (descriptions). */
const optionalText = (max: number = LIMITS.description) => capped(max)(z.string(expecting("a string")));

/** A non-empty string. */
const text = (max: number = LIMITS.text) => capped(max)(z.string(expecting("a string")).min(1, "must not be empty"));

/** A name the service matches with `pattern` (its documented rule), at most LIMITS.name characters. */
const name = (pattern?: RegExp) =>
  pattern
    ? capped(LIMITS.name)(z.string(expecting("a string"))).regex(pattern, `must match ${pattern.source}`)
    : text(LIMITS.name);

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An https URL without credentials; plain http only on loopback (local emulators and test issuers). */
const httpsUrl = () =>
  text().superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an https URL (plain http only for localhost)" });
      return;
    }
    if (!(url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname))))
      ctx.addIssue({ code: "custom", message: "must be an https URL (plain http only for localhost)" });
    else if (url.username || url.password)
      ctx.addIssue({ code: "custom", message: "must not carry credentials (user:password@)" });
  });

/**
 * A regular expression in the service's syntax, RE2 (linear time: no lookarounds, no
 * backreferences), checked with an RE2 implementation so what the service would refuse is
 * refused here, naming the construct.
 */
const pattern = () =>
  text(LIMITS.pattern).superRefine((value, ctx) => {
    const problem = re2Problem(value);
    if (problem) ctx.addIssue({ code: "custom", message: `must be an RE2 regular expression: ${problem}` });
  });

/** Constructs RE2 leaves out (it matches in linear time), named plainly: its own message for them is cryptic. */
const UNSUPPORTED: Array<[RegExp, string]> = [
  [/\(\?<?[=!]/, "lookarounds ((?=, (?!, (?<=, (?<!) are not supported by RE2"],
  [/(^|[^\\])(\\\\)*\\[1-9]/, "backreferences (\\1 to \\9) are not supported by RE2"],
];

/** What RE2 says about `source`, or undefined when it compiles. */
function re2Problem(source: string): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first pattern checked
  const { RE2JS } = require("re2js") as typeof import("re2js");
  try {
    RE2JS.compile(source);
    return undefined;
  } catch (error) {
    const named = UNSUPPORTED.find(([construct]) => construct.test(source));
    if (named) return named[1];
    const said = error instanceof Error ? error.message : String(error);
    return said.replace(/^error parsing regexp: /, "").slice(0, 200);
  }
}

/** A list of `item`s, at most LIMITS.listEntries. */
const list = <T extends z.ZodType>(item: T) =>
  z.array(item, expecting("a list")).max(LIMITS.listEntries, `must have at most ${LIMITS.listEntries} entries`);

/** A map whose every own entry, `__proto__` included, is checked with `value` (core/model/mapSchema.ts). */
const map = <T>(value: z.ZodType<T>, what: string) => mapOf(z, value, expecting(what));

/** An object of strings (claims), each value checked with `value`; names and entries capped. */
const stringMap = (value: z.ZodType<string> = optionalText(LIMITS.text)) =>
  map(value, "an object of strings").superRefine((entries, ctx) => {
    const keys = Object.keys(entries);
    if (keys.length > LIMITS.mapEntries)
      ctx.addIssue({
        code: "custom",
        message: `must have at most ${LIMITS.mapEntries} entries (it has ${keys.length})`,
      });
    // Reported on the map, so the path never carries the oversized key itself.
    const longest = Math.max(0, ...keys.map((k) => k.length));
    if (longest > LIMITS.mapKey)
      ctx.addIssue({
        code: "custom",
        message: `names must be at most ${LIMITS.mapKey} characters (one has ${longest})`,
      });
    if (keys.includes("")) ctx.addIssue({ code: "custom", message: "names must not be empty" });
  });

/** A time as the API's documents write `date-time` fields: RFC 3339, "Z" or an offset (core/model/timestamp.ts). */
const timestamp = () =>
  z.string(expecting("an RFC 3339 time (a string)")).superRefine((value, ctx) => {
    const problem = timestampIssue(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** A JSON Web Key Set given as JSON text (an issuer's public keys): `{"keys": [...]}`, at most 64 KB. */
const jwks = () =>
  capped(64 * 1024)(z.string(expecting("a JSON Web Key Set (JSON text)"))).superRefine((value, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
    const keys = parsed !== null && typeof parsed === "object" ? (parsed as { keys?: unknown }).keys : undefined;
    if (!Array.isArray(keys) || keys.length === 0)
      ctx.addIssue({ code: "custom", message: 'must be a JSON Web Key Set: {"keys": [ ... ]} with at least one key' });
  });

export const fields = {
  z,
  limits: LIMITS,
  expecting,
  uid,
  optionalText,
  text,
  name,
  httpsUrl,
  pattern,
  list,
  map,
  stringMap,
  jwks,
  timestamp,
};
export type Fields = typeof fields;
