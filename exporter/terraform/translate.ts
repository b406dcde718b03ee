/**
 * An instance's attributes in its record's terms (resources/terraform/vendorProvider.ts: where the
 * record holds each, spelled as the API spells it), and what the state says otherwise than the
 * record does now.
 *
 * A migrated program declares the record as it is now, not the state: the state is as old as
 * Terraform's last refresh, and a program that matches the organization is one whose `up` changes
 * nothing. So a difference is reported, never written: the fields the program declares in which
 * the state differs, each by name (values can be long, and the command shows no record's text).
 */
import type { ApiRecord, Kind } from "../../core/model/kind";
import { isObject, Props } from "../../core/common/values";
import { declaredInputs } from "../declarable";
import { capabilityValue, instant, tierValue } from "../../resources/terraform/values";
import type { Attributes, ManagedType, TerraformAttribute } from "../../resources/terraform/vendorProvider";

export interface Translated {
  /** The state's values at the record's fields (`{ "claimMatch.issuer": "https://…" }`), as the API spells them. */
  fields: Map<string, unknown>;
  /** Attributes this instance sets that no field of the record holds, each with what the migration does. */
  uncounterparted: string[];
  /** Values the state holds that the API cannot (a capability name with no API value), each said. */
  unspellable: string[];
}

/** Whether a value says anything (Terraform's null, and the empty values the API leaves out, do not). */
export function isSet(value: unknown): boolean {
  if (value === null || value === undefined || value === "" || value === false) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.values(value).some(isSet);
  return true;
}

export function translate(type: ManagedType, attributes: Props): Translated {
  const fields = new Map<string, unknown>();
  const uncounterparted: string[] = [];
  const unspellable: string[] = [];
  const combined = new Set(type.combined?.from ?? []);
  const visit = (declared: Attributes, values: Props, path: string) => {
    for (const [name, attribute] of Object.entries(declared)) {
      const value = values[name];
      const at = path ? `${path}.${name}` : name;
      if (attribute.none !== undefined) {
        if (isSet(value) && !attribute.sensitive) uncounterparted.push(`${at}: ${attribute.none}`);
        continue;
      }
      if (attribute.sensitive || attribute.field === undefined || !isSet(value)) continue;
      if (typeof attribute.value === "object" && "block" in attribute.value) {
        if (isObject(value)) visit(attribute.value.block, value, at);
        continue;
      }
      fields.set(attribute.field, spelled(attribute, value, at, unspellable));
    }
  };
  visit(Object.fromEntries(Object.entries(type.attributes).filter(([name]) => !combined.has(name))), attributes, "");
  if (type.combined) {
    const built = type.combined.build(attributes);
    if (built !== undefined) fields.set(type.combined.field, built);
  }
  return { fields, uncounterparted, unspellable };
}

function spelled(attribute: TerraformAttribute, value: unknown, at: string, unspellable: string[]): unknown {
  switch (attribute.spelled) {
    case "capabilities":
      return (Array.isArray(value) ? value : []).map((name: unknown) => {
        const api = typeof name === "string" ? capabilityValue(name) : undefined;
        if (api === undefined)
          unspellable.push(`${at}: the capability ${JSON.stringify(name)} has no value in this API`);
        return api ?? name;
      });
    case "tier": {
      const tier = typeof value === "string" ? tierValue(value) : { known: false };
      if (!tier.known) unspellable.push(`${at}: the tier ${JSON.stringify(value)} has no value in this API`);
      return tier.value ?? (tier.known ? undefined : value);
    }
    default:
      return value;
  }
}

/**
 * The fields the program declares for `record` in which the state differs: each path the state
 * holds a value at, whose top-level field the kind declares.
 */
export function differences(kind: Kind, type: ManagedType, record: ApiRecord, translated: Translated): string[] {
  const declared = declaredInputs(kind, record);
  const instants = instantFields(type.attributes);
  const unordered = new Set(kind.unordered ?? []);
  const differing: string[] = [];
  const paths = new Set<string>(translated.fields.keys());
  for (const path of paths) {
    const [top] = path.split(".");
    if (!kind.declared.includes(top) || kind.writeOnly.includes(path)) continue;
    const theirs = normalized(translated.fields.get(path), unordered.has(top), instants.has(path));
    const ours = normalized(valueAt(declared, path), unordered.has(top), instants.has(path));
    if (JSON.stringify(theirs) !== JSON.stringify(ours)) differing.push(path);
  }
  // A declared field the state leaves empty but the record holds (a description set since).
  for (const top of Object.keys(declared)) {
    if ([...paths].some((path) => path === top || path.startsWith(`${top}.`))) continue;
    if (!covers(type.attributes, top) || !isSet(declared[top])) continue;
    differing.push(top);
  }
  return differing.sort();
}

/** Whether some attribute of the type maps to the field (or to a member of it). */
function covers(attributes: Attributes, field: string): boolean {
  return Object.values(attributes).some(
    (attribute) =>
      attribute.field !== undefined &&
      attribute.none === undefined &&
      (attribute.field === field || attribute.field.startsWith(`${field}.`)) &&
      field !== "uid",
  );
}

function instantFields(attributes: Attributes): Set<string> {
  const found = new Set<string>();
  for (const attribute of Object.values(attributes)) {
    if (attribute.spelled === "instant" && attribute.field) found.add(attribute.field);
    if (typeof attribute.value === "object" && "block" in attribute.value)
      for (const path of instantFields(attribute.value.block)) found.add(path);
  }
  return found;
}

function valueAt(props: Props, path: string): unknown {
  let value: unknown = props;
  for (const step of path.split(".")) value = isObject(value) ? value[step] : undefined;
  return value;
}

/** A value as compared: empty values dropped, a set's members sorted, an instant as its time. */
function normalized(value: unknown, unordered: boolean, isInstant: boolean): unknown {
  if (!isSet(value)) return null;
  if (isInstant) return instant(value) ?? value;
  if (Array.isArray(value)) {
    const items = value.map((item) => normalized(item, false, false));
    return unordered ? items.map((item) => JSON.stringify(item)).sort() : items;
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = normalized(value[key], false, false);
      if (item !== null) out[key] = item;
    }
    return out;
  }
  return value;
}
