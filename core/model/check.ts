/**
 * Check: every input validated against the kind's schema and rules before any request, each
 * failure naming its property. Values still unknown during preview pass untouched and are
 * checked when known, at the next check.
 */
import { z } from "zod";
import { fields } from "./fields";
import type { CheckFailure, ResourceKind } from "./kind";
import { Props, UNKNOWN, stripUndefined } from "../common/values";
import { formatPath } from "../common/zodIssues";

const schemas = new WeakMap<ResourceKind, z.ZodObject>();

/** The kind's input schema, built once. */
export function inputSchema(kind: ResourceKind): z.ZodObject {
  let schema = schemas.get(kind);
  // Every kind takes `adopt` and `adoptUid` (never sent to the API): take over an existing record
  // (the one holding the natural key, or exactly the one named) instead of creating one.
  // A part of another's record (a SCIM token) is never adopted.
  if (!schema)
    schemas.set(
      kind,
      (schema = kind.partOf
        ? kind.inputs(fields)
        : kind.inputs(fields).extend({
            adopt: z.boolean(fields.expecting("true or false")).optional(),
            adoptUid: fields.uid("a record").optional(),
          })),
    );
  return schema;
}

/** `adoptUid` names a record to take over: a resource that also says `adopt: false` contradicts itself. */
function adoptionRules(inputs: Props): CheckFailure[] {
  return inputs.adoptUid !== undefined && inputs.adopt === false
    ? [{ property: "adoptUid", reason: "takes over the record it names, so `adopt` must not be false" }]
    : [];
}

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
  const schema = inputSchema(kind);
  const unknowns = unknownPaths(given);
  const failures: CheckFailure[] = [];
  const parsed = schema.safeParse(given);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      const accepted = keysAt(schema, issue.path);
      for (const key of issue.keys) {
        failures.push({
          property: formatPath([...issue.path, key]),
          reason: `unknown property${accepted ? `; ${formatPath(issue.path) || kind.typeName} takes ${accepted.join(", ")}` : ""}`,
        });
      }
      continue;
    }
    if (unknowns.some((u) => startsWith(issue.path, u))) continue;
    failures.push({ property: formatPath(issue.path), reason: reasonOf(issue.message) });
  }
  failures.push(...(kind.rules?.(given) ?? []), ...adoptionRules(given));
  const seen = new Set<string>();
  const unique = failures.filter(
    (f) => !seen.has(`${f.property}\0${f.reason}`) && !!seen.add(`${f.property}\0${f.reason}`),
  );
  return { inputs: given, failures: unique };
}
