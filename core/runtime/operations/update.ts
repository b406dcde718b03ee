/**
 * Update: one PATCH of the writable fields that changed (none when only local inputs or
 * companion documents did), then the companion documents whose value changed, then the kind's verbs.
 */
import { changedFields } from "../changes";
import type { Companions } from "../companions";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import { Props, pick, stripUndefined } from "../../common/values";
import type { RunSteps } from "../verbSteps";

export function update(
  { kind, requests, records, registerSecrets, claims }: KindContext,
  companions: Companions,
  runSteps: RunSteps,
): Lifecycle["update"] {
  return async (id, olds: Props, news: Props) => {
    registerSecrets(olds, news);
    claims.hold(id);
    const what = kind.label({ ...news, uid: id });
    const changed = changedFields(olds, news, kind.writable, kind.unordered);
    let outs: Props;
    if (changed.length === 0) {
      // Local inputs are the program's alone: one it no longer sets is gone from the state too.
      const state = { ...olds };
      for (const field of kind.localInputs) delete state[field];
      const { __provider: _p, ...kept } = { ...state, ...pick(news, kind.declared) };
      outs = await companions.write(id, olds, news, stripUndefined(kept), what);
    } else {
      const record = await requests.patch(records.recordUid(id, olds), olds, news, changed, what);
      const patched = {
        ...records.keepWriteOnly(records.outputsOf(record, news), news),
        ...records.keptFromState(olds),
      };
      outs = await companions.write(id, olds, news, patched, what);
    }
    if (!kind.verbs?.update) return { outs };
    const written = changed.length > 0 ? `the ${kind.noun} was updated` : undefined;
    const call = {
      operation: "updating",
      uid: records.recordUid(id, olds),
      what,
      inputs: news,
      state: olds,
      outputs: outs,
      written,
    };
    return { outs: (await runSteps(kind.verbs.update, call)) ?? outs };
  };
}
