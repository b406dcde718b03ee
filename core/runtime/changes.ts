/**
 * What a diff and an update decide from the old outputs and the new inputs: which of the
 * fields a user can set changed, the PATCH body and its updateMask.
 *
 * `olds` are the previous OUTPUTS (server fields included), so only the fields a user can set
 * are compared, with "" and absent meaning the same.
 */
import { Kind, renameKeys } from "../model/kind";
import {
  Props,
  canonical,
  containsUnknown,
  isObject,
  isUnset,
  pick,
  sameValue,
  stripUndefined,
  withoutUndefined,
} from "../common/values";

/**
 * The fields among `fields` whose new value differs from the old one (or is not known yet);
 * arrays of the `unordered` fields are sets, so their order never counts as a change.
 */
export function changedFields(
  olds: Props,
  news: Props,
  fields: readonly string[],
  unordered: readonly string[] = [],
): string[] {
  const comparable = (field: string, value: unknown) =>
    unordered.includes(field) && Array.isArray(value) ? value.map((v) => JSON.stringify(v)).sort() : value;
  return fields.filter(
    (field) =>
      containsUnknown(news[field]) || !sameValue(comparable(field, olds[field]), comparable(field, news[field])),
  );
}

/** The updateMask query value: exactly these fields, comma-separated. */
export function updateMask(fields: readonly string[]): string {
  return fields.join(",");
}

/**
 * The mask paths of the `changed` fields: a field that is a message of its own (`nested`) and
 * was one before too is named by its changed members (`claimMatch.subject`, sorted), so the
 * service leaves the members that did not change alone; maps and scalars are named whole.
 */
export function maskPaths(
  olds: Props,
  news: Props,
  changed: readonly string[],
  nested: readonly string[] = [],
): string[] {
  return changed.flatMap((field) => {
    const [before, after] = [olds[field], news[field]];
    if (!nested.includes(field) || !isObject(before) || !isObject(after)) return [field];
    const members = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    const differing = members.filter((m) => containsUnknown(after[m]) || !sameValue(before[m], after[m]));
    return differing.length ? differing.map((m) => `${field}.${m}`) : [field];
  });
}

/**
 * A PATCH body: every writable field the program declares for the record, changed or not, so
 * each field the API documents as required in an update body (a group's or identity's name) is
 * there; a field the program leaves out stays out (when the mask names it, the service clears it).
 */
export function updateBody(kind: Kind, news: Props): Props {
  return wireBody(kind, news);
}

/** The writable fields of `inputs` as a create or update body: under their wire names, nothing undefined. */
export function wireBody(kind: Kind, inputs: Props): Props {
  return stripUndefined(renameKeys(pick(inputs, kind.writable), kind.wireNames ?? {}));
}

/** Mask paths under their wire names (`syncConfig.source` is `sync_config.source`). */
export function wirePaths(kind: Kind, paths: readonly string[]): string[] {
  return paths.map((path) => {
    const [field, ...members] = path.split(".");
    return [kind.wireNames?.[field] ?? field, ...members].join(".");
  });
}

/**
 * The values of a record a program declares, as it would write them: empty optional fields left
 * out, unless leaving one out means another value (inputDefaults: `enabled: false` stays).
 */
export function inputsOf(kind: Kind, outputs: Props): Props {
  const out: Props = {};
  const defaults = kind.inputDefaults ?? {};
  for (const field of kind.declared)
    if (!isUnset(outputs[field]) || (Object.hasOwn(defaults, field) && outputs[field] !== undefined))
      out[field] = outputs[field];
  return withoutUndefined(out);
}

/** Which of the `exclusive` inputs is set (the first, if several), or undefined. */
function chosen(props: Props, exclusive: readonly string[]): string | undefined {
  return exclusive.find((field) => canonical(props[field]) !== undefined);
}

/**
 * The changed fields whose change replaces the record: the kind's replace-on fields, and the
 * exclusive fields on both sides when the program switches from one to another.
 */
export function replacedFields(kind: Kind, olds: Props, news: Props, changed: readonly string[]): string[] {
  const exclusive = kind.exclusive ?? [];
  const before = chosen(olds, exclusive);
  const after = chosen(news, exclusive);
  const switched = before !== undefined && after !== undefined && before !== after && !containsUnknown(news[after]);
  return changed.filter((f) => kind.replaceOn.includes(f) || (switched && (f === before || f === after)));
}
