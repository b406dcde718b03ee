/**
 * Property values as they travel between the SDK, the engine and providers (the gRPC Struct form):
 * unknowns are a sentinel string, secrets and resource references are maps tagged with a signature.
 */
export type Props = Record<string, any>;

/** What the SDK sends for a value that is not known yet (preview only). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
export const PROVIDER_KEY = "__provider";

export function isSecretValue(value: unknown): value is { value: unknown } {
  return isMap(value) && value[SIG_KEY] === SECRET_SIG;
}

export function makeSecret(value: unknown): Props {
  return { [SIG_KEY]: SECRET_SIG, value };
}

function isResourceRef(value: unknown): value is { urn: string; id?: string } {
  return isMap(value) && value[SIG_KEY] === RESOURCE_SIG;
}

function isMap(value: unknown): value is Props {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The form a provider that accepts neither secrets nor resource references receives (the
 * dynamic-provider host answers Configure with acceptSecrets=false): secrets unwrapped,
 * references downgraded to their id, `undefined` dropped (the host crashes on it).
 */
export function forProvider(value: any): any {
  if (isSecretValue(value)) return forProvider(value.value);
  if (isResourceRef(value)) return value.id === undefined || value.id === "" ? UNKNOWN : value.id;
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(forProvider);
  if (isMap(value)) {
    const out: Props = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = forProvider(v);
    return out;
  }
  return value;
}

/** Top-level property names the program marked secret, so the display never prints their values. */
export function secretKeys(props: Props): string[] {
  return Object.keys(props).filter((key) => containsSecret(props[key]));
}

/** The top-level outputs to keep secret: those whose input was secret, and those the resource names. */
export function secretOutputs(reg: { inputs: Props; additionalSecretOutputs?: string[] }): string[] {
  return [...new Set([...secretKeys(reg.inputs), ...(reg.additionalSecretOutputs ?? [])])];
}

/** `props` with the values of `keys` wrapped as secrets (once). */
export function withSecrets(props: Props, keys: readonly string[]): Props {
  if (!keys.some((key) => key in props)) return props;
  const out: Props = { ...props };
  for (const key of keys) if (key in out && !isSecretValue(out[key])) out[key] = makeSecret(out[key]);
  return out;
}

function containsSecret(value: unknown): boolean {
  if (isSecretValue(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (isMap(value)) return Object.values(value).some(containsSecret);
  return false;
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (isMap(value)) return Object.values(value).some(containsUnknown);
  return false;
}

/** Plain JSON equality, ignoring key order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isMap(a) && isMap(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!deepEqual(a[key], b[key])) return false;
    return true;
  }
  return false;
}

export interface PropertyChange {
  /** Dotted path, e.g. `claimMatch.subject`. */
  path: string;
  old: unknown;
  new: unknown;
}

/**
 * What changed between two property bags, as leaf paths: the engine's own display diff
 * (the host drops the provider's detailedDiff, so we compute what to show). `__provider`
 * is code, not configuration, and is never shown.
 */
export function propertyChanges(olds: Props, news: Props, prefix = ""): PropertyChange[] {
  const changes: PropertyChange[] = [];
  const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].sort();
  for (const key of keys) {
    if (!prefix && key === PROVIDER_KEY) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const [o, n] = [olds[key], news[key]];
    if (deepEqual(o, n)) continue;
    if (isMap(o) && isMap(n) && !isSecretValue(o) && !isSecretValue(n)) changes.push(...propertyChanges(o, n, path));
    else changes.push({ path, old: o, new: n });
  }
  return changes;
}

/**
 * What to show under a change the provider reported: the stored inputs against the new ones,
 * or, when those agree (a provider whose Read returns no inputs, after drift), the stored
 * outputs of the properties the program sets against what it sets now.
 */
export function displayChanges(stored: { inputs: Props; outputs: Props }, news: Props): PropertyChange[] {
  const changes = propertyChanges(stored.inputs, news);
  if (changes.length > 0) return changes;
  const declared = Object.fromEntries(
    Object.keys(news)
      .filter((key) => key in stored.outputs)
      .map((key) => [key, stored.outputs[key]]),
  );
  return propertyChanges(declared, news);
}

/** A value for the plan display: secrets masked, unknowns shown as the CLI does. */
export function displayValue(value: unknown, secret = false): string {
  if (secret || containsSecret(value)) return "[secret]";
  if (value === undefined) return "(absent)";
  if (value === UNKNOWN) return "output<unknown>";
  const text = JSON.stringify(value, (_k, v) => (v === UNKNOWN ? "output<unknown>" : v));
  return text.length > 120 ? text.slice(0, 117) + "..." : text;
}
