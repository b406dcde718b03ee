/** Diff: what changed, what replaces the record and in which order; no request. The record is held. */
import { changedFields, replacedFields } from "../changes";
import type { Kind } from "../kind";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import { ResourceError } from "../resourceError";
import { Props, containsUnknown, isUnset, sameValue } from "../values";

/** The same List filters and the same key fields: the two would be one record to the service. */
const sameNaturalKey = (kind: Kind, olds: Props, news: Props) =>
  sameValue(kind.naturalKey(olds), kind.naturalKey(news)) &&
  kind.keyFields.every((field) => !containsUnknown(news[field]) && sameValue(olds[field], news[field]));

export function diff({ kind, registerSecrets, claims }: KindContext): Lifecycle["diff"] {
  return async (id, olds: Props = {}, news: Props = {}) => {
    registerSecrets(olds, news);
    // A resource of the state holds its record: no create of this run may take it (provider/claims.ts).
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
    };
  };
}
