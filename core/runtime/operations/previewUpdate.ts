/**
 * What an update will answer, worked out without any request: the outputs an engine shows in
 * the preview of an update when the provider previews its own updates (the native provider
 * does, native/server.ts; the dynamic-provider host cannot, see core/program/apiResource.ts).
 *
 * The record keeps its uid through an update, so whatever takes it (a child's parent field, a
 * binding's group) stays known in the preview and does not change: without it the engine would
 * show every record below an updated one as replaced, though the update then changes none of
 * them. The program's inputs are the new ones. When the update writes the record, what the
 * service sets on a write (an update time) and what it answers for an input the program no
 * longer sets are not known until it answers; what a write never changes (the uid, the create
 * time, what only the create answers, adoption) stays as the state holds it.
 */
import { changedFields } from "../changes";
import type { Kind } from "../../model/kind";
import { Props, pick, stripUndefined } from "../../common/values";

export interface PreviewedUpdate {
  outs: Props;
  /** Outputs whose value only the update's answer tells (the engine shows them as unknown). */
  unknown: string[];
}

export function previewUpdate(kind: Kind): (olds: Props, news: Props) => PreviewedUpdate {
  const unchanging = new Set([
    "uid",
    "adopted",
    ...(kind.onlyAtCreate ?? []),
    ...(kind.createdAtField ? [kind.createdAtField] : []),
  ]);
  const dropped = new Set(["__provider", ...kind.localInputs, ...kind.companions.map((c) => c.input)]);
  return (olds, news) => {
    const given = stripUndefined(pick(news, kind.declared));
    const outs: Props = Object.fromEntries(Object.entries(olds).filter(([field]) => !dropped.has(field)));
    Object.assign(outs, given);
    const writes =
      kind.verbs?.update !== undefined || changedFields(olds, news, kind.writable, kind.unordered).length > 0;
    const unknown = writes
      ? Object.keys(outs).filter((field) => !unchanging.has(field) && !Object.hasOwn(given, field))
      : [];
    return { outs, unknown };
  };
}
