/**
 * A map as a schema: an object whose own keys are any strings, `__proto__` included (an
 * identity's claims, an overlay's annotations, an association's client ids). zod's own record
 * skips a `__proto__` key altogether: it neither checks its value nor keeps it in what it
 * parses, so a claim under that name would pass unchecked and vanish from a look-up's result.
 * This one checks every own entry with `value` and answers the input object itself.
 *
 * Takes zod as a parameter (it is loaded on first use: core/common/lazyZod.ts).
 */
import type { z as Zod } from "zod";
import type { Z } from "../common/lazyZod";

const isPlainObject = (input: unknown): input is Record<string, unknown> => {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return false;
  const prototype = Object.getPrototypeOf(input) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * The value schema of each map schema made here, by its own predicate (which every derived
 * schema, a refinement or `.optional()`, keeps): what a map's entries are, for whoever describes
 * the schema (tools/generate writes `Record<string, T>` from it).
 */
const mapValues = new WeakMap<object, Zod.ZodType>();

/** The entries' schema when `schema` is a map made by mapOf, else undefined. */
export function mapValueSchema(schema: Zod.ZodType): Zod.ZodType | undefined {
  const def = (schema as unknown as { _zod?: { def?: { fn?: unknown } } })._zod?.def;
  return typeof def?.fn === "function" ? mapValues.get(def.fn) : undefined;
}

export function mapOf<T>(
  z: Z,
  value: Zod.ZodType<T>,
  error: string | { error: (issue: { input?: unknown }) => string } = "must be an object",
): Zod.ZodType<Record<string, T>> {
  const isMap = (input: unknown) => isPlainObject(input);
  mapValues.set(isMap, value);
  return z.custom<Record<string, T>>(isMap, error).superRefine((map, ctx) => {
    if (!isPlainObject(map)) return;
    for (const [key, item] of Object.entries(map)) {
      const parsed = value.safeParse(item);
      if (!parsed.success)
        // As the value's schema reported them (an unknown key stays an unknown key), one level down.
        for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] });
    }
  });
}
