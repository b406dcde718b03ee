/**
 * Create: the record the program declares, made with one POST, or taken over (adoption: the one
 * `adoptUid` names, or the one holding the key) and brought to the declared values with one PATCH
 * of the fields that differ; then its companion documents written and the kind's verbs run. The
 * record is held for this resource from the moment it is made or taken (core/runtime/claims.ts).
 */
import { changedFields } from "../changes";
import type { Companions } from "../companions";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import type { PostRecord } from "../postRecord";
import { ADOPTED } from "../recordOutputs";
import { PartlyWrittenError, ResourceError } from "../resourceError";
import type { Created, TakeOver } from "../takeOver";
import { Props, isObject } from "../../common/values";
import type { RunSteps } from "../verbSteps";

export function create(
  { kind, requests, records, registerSecrets, claims }: KindContext,
  takeOver: TakeOver,
  post: PostRecord,
  companions: Companions,
  runSteps: RunSteps,
): Lifecycle["create"] {
  return async (inputs: Props) => {
    registerSecrets(inputs);
    const what = kind.label(inputs);
    // Exactly the record the program names, or a POST (and, where asked, the one holding the key);
    // either way taken for this resource (core/runtime/claims.ts).
    const created: Created =
      typeof inputs.adoptUid === "string"
        ? { record: await takeOver.namedRecord(inputs, inputs.adoptUid, what), adopted: true }
        : await post(inputs, what);
    try {
      return await settle(inputs, what, created);
    } catch (error) {
      // The engine keeps a record written in part (its id and outputs): it stays held. Otherwise
      // no resource holds it, and another create may take it.
      const uid = isObject(created.record) ? created.record.uid : undefined;
      if (!(error instanceof PartlyWrittenError) && typeof uid === "string") claims.release(uid);
      throw error;
    }
  };

  /** The outputs of the record made or taken over, its companions written and the kind's verbs run. */
  async function settle(inputs: Props, what: string, created: Created) {
    let outs: Props;
    if (!created.adopted) {
      outs = records.keepWriteOnly(records.outputsOf(created.record, inputs), inputs);
    } else {
      // Taken over: what the service never answers (write-only members) cannot be compared, so
      // it differs and is written.
      const current = records.outputsOf(created.record, records.parentOf(inputs));
      const changed = changedFields(current, inputs, kind.writable, kind.unordered);
      const fixed = changed.filter((field) => kind.replaceOn.includes(field));
      if (fixed.length)
        throw new ResourceError(
          `adopting ${what} (${String(current.uid)}) failed: it differs in ${fixed.join(", ")}, which cannot change ` +
            `in place; declare its current values, or delete it and let the program create it`,
        );
      const record = changed.length
        ? await requests.patch(String(current.uid), current, inputs, changed, what)
        : created.record;
      outs = { ...records.keepWriteOnly(records.outputsOf(record, inputs), inputs), ...ADOPTED };
    }
    const id = String(outs.uid);
    const written = await companions.write(id, {}, inputs, outs, what);
    if (!kind.verbs?.create) return { id, outs: written };
    // The kind's own steps after it (core/runtime/verbSteps.ts): the record exists whatever they come to.
    const done = `the ${kind.noun} was ${created.adopted ? "taken over" : "created"}`;
    const call = { operation: "creating", uid: id, what, inputs, state: {}, outputs: written, written: done };
    return { id, outs: (await runSteps(kind.verbs.create, call)) ?? written };
  }
}
