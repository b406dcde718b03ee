/** Diff: what changed, what replaces the record and in which order; no request. The record is held. */
import { changedFields, maskPaths, replacedFields } from "../changes";
import type { Kind } from "../../model/kind";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import { ResourceError } from "../resourceError";
import { Props, containsUnknown, isObject, isUnset, sameValue } from "../../common/values";

/** How one property changed, from the old outputs to the new inputs; `replace` when it replaces the record. */
export interface PropertyChange {
  kind: "add" | "update" | "delete";
  replace: boolean;
}

const at = (props: Props, path: string): unknown =>
  path.split(".").reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), props);

/**
 * Each changed property by its path: a nested field by its changed members (`oidc.clientSecret`),
 * as the update's mask names them, so a preview shows the member that is written.
 */
function detailedDiff(kind: Kind, olds: Props, news: Props, changed: string[], replaces: string[]) {
  const paths = maskPaths(olds, news, changed, kind.nested);
  return Object.fromEntries(
    paths.map((path): [string, PropertyChange] => {
      const [before, after] = [at(olds, path), at(news, path)];
      // Absent, not unset: a flag turned false is an update, as the preview should show it.
      const change = before === undefined || before === null ? "add" : after === undefined ? "delete" : "update";
      return [path, { kind: change, replace: replaces.includes(path.split(".")[0]) }];
    }),
  );
}

/** The same List filters and the same key fields: the two would be one record to the service. */
const sameNaturalKey = (kind: Kind, olds: Props, news: Props) =>
  sameValue(kind.naturalKey(olds), kind.naturalKey(news)) &&
  kind.keyFields.every((field) => !containsUnknown(news[field]) && sameValue(olds[field], news[field]));

export function diff({ kind, registerSecrets, claims }: KindContext): Lifecycle["diff"] {
  return async (id, olds: Props = {}, news: Props = {}) => {
    registerSecrets(olds, news);
    // A resource of the state holds its record: no create of this run may take it (core/runtime/claims.ts).
    if (id) claims.hold(id);
    const wanted = kind.inputDefaults ? { ...kind.inputDefaults, ...news } : news;
    const changed = changedFields(olds, wanted, kind.declared, kind.unordered);
    const replaces = replacedFields(kind, olds, news, changed);
    // A replacement deletes the old record: a kind that refuses that delete refuses it here,
    // before the new one is created (the old one's delete would fail after).
    const refusal = replaces.length > 0 ? kind.refuseDelete?.(olds) : undefined;
    if (refusal)
      throw new ResourceError(
        `replacing ${kind.label({ ...olds, uid: id })} (${replaces.join(", ")} changed) refused: ${refusal}`,
      );
    return {
      // A drift no input shows (a token regenerated elsewhere) is a change the update repairs.
      changes: changed.length > 0 || (kind.driftOutputs ?? []).some((field) => !isUnset(olds[field])),
      replaces,
      // A replacement under the same natural key (a tag's new digest under its old name) would
      // collide with the record it replaces, so that one goes first; under another key (a new
      // subscription sink) the new record is created first. A part of another's record (a SCIM
      // token) is one per record: the old one is undone first.
      deleteBeforeReplace: replaces.length > 0 && (kind.partOf !== undefined || sameNaturalKey(kind, olds, news)),
      // Named here, or the engine names what differs between the old and new inputs (a client
      // secret's one write would read as `adopt`, an input that changes nothing on the service).
      diffs: changed,
      detailedDiff: detailedDiff(kind, olds, wanted, changed, replaces),
    };
  };
}
