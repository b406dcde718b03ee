/**
 * Read: the record as the service holds it (one GET, plus one per companion document the state
 * holds); a record gone is dropped from the state. What the service never answers again
 * carries over from the state.
 */
import { inputsOf } from "../changes";
import type { Companions } from "../companions";
import { isNotFound } from "../errors";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import { failed } from "../resourceError";
import { Props, pick } from "../values";

export function read(
  { kind, requests, records, registerSecrets }: KindContext,
  companions: Companions,
): Lifecycle["read"] {
  // A parent the record does not tell (a role's uid is one segment) and the local inputs come from the state.
  const carriedByRead = [kind.parentField, ...kind.localInputs];
  return async (id, props: Props = {}) => {
    registerSecrets(props);
    const uid = records.recordUid(id, props);
    let record: unknown;
    try {
      record = await requests.get(uid);
    } catch (error) {
      // Gone: an empty id tells the engine to drop it from the state.
      if (isNotFound(error)) return { id: "", props: {} };
      throw failed("reading", kind.label({ ...props, uid: id }), error);
    }
    const outputs = records.keepWriteOnly(records.outputsOf(record, pick(props, carriedByRead)), props);
    const answered = records.keepsAny(props) ? { ...outputs, ...records.keptFromState(props) } : outputs;
    const outs = await companions.read(uid, props, answered);
    return { id: String(outs.uid), props: outs, inputs: inputsOf(kind, outs) };
  };
}
