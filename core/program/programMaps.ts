/**
 * The program's side of core/runtime/hostKeys.ts: a resource class hands the SDK its map inputs with
 * the keys the SDK would drop escaped, and hands the program back its map outputs unescaped, so
 * a program that declares `claims: { ["__proto__"]: "x" }` sends that claim and reads it back.
 */
import * as pulumi from "@pulumi/pulumi";
import { escapeKey, fromHostKeys, toHostKeys } from "../runtime/hostKeys";

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function";

/**
 * An input as the SDK can carry it: keys escaped at any depth of plain objects; a value not
 * known yet (an Output, a Promise) escaped once it resolves, so what is known stays known.
 */
function escapedInput(value: unknown): unknown {
  if (pulumi.Output.isInstance(value) || isPromiseLike(value)) {
    const later = pulumi.output(value) as unknown as pulumi.Output<unknown>;
    return later.apply((resolved) => toHostKeys(resolved));
  }
  if (Array.isArray(value)) return value.map(escapedInput);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [escapeKey(key), escapedInput(item)]));
}

/** `args` with the map-holding `fields` ready for the SDK; the other inputs as they are. */
export function hostSafeInputs<T extends object>(args: T | undefined, fields: readonly (keyof T & string)[]): T {
  if (args === undefined || args === null) return args as unknown as T;
  const out = { ...args } as Record<string, unknown>;
  for (const field of fields) if (out[field] !== undefined) out[field] = escapedInput(out[field]);
  return out as T;
}

/** Puts back the real keys of the map-holding outputs `fields` of a just-constructed resource. */
export function restoreMapOutputs(resource: pulumi.CustomResource, fields: readonly string[]): void {
  const outputs = resource as unknown as Record<string, pulumi.Output<unknown> | undefined>;
  for (const field of fields) {
    const output = outputs[field];
    if (pulumi.Output.isInstance(output)) outputs[field] = output.apply((value) => fromHostKeys(value));
  }
}
