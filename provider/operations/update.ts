/**
 * Update: one PATCH of the writable fields that changed (none when only local inputs or
 * companion documents did), then the companion documents whose value changed.
 */
import { changedFields } from "../changes";
import type { Companions } from "../companions";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import { Props, pick, stripUndefined } from "../values";

export function update(
  { kind, requests, records, registerSecrets }: KindContext,
  companions: Companions,
): Lifecycle["update"] {
  return async (id, olds: Props, news: Props) => {
    registerSecrets(olds, news);
    const what = kind.label({ ...news, uid: id });
    const changed = changedFields(olds, news, kind.writable, kind.unordered);
    if (changed.length === 0) {
      // Local inputs are the program's alone: one it no longer sets is gone from the state too.
      const state = { ...olds };
      for (const field of kind.localInputs) delete state[field];
      const { __provider: _p, ...outs } = { ...state, ...pick(news, kind.declared) };
      return { outs: await companions.write(id, olds, news, stripUndefined(outs), what) };
    }
    const record = await requests.patch(records.recordUid(id, olds), olds, news, changed, what);
    const outs = { ...records.keepWriteOnly(records.outputsOf(record, news), news), ...records.keptFromState(olds) };
    return { outs: await companions.write(id, olds, news, outs, what) };
  };
}
