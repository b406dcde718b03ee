/**
 * Read: the record as the service holds it (one GET, plus one per companion document the state
 * holds; or a share of one List, when other reads of the kind overlap: core/runtime/readBatches.ts);
 * a record gone is dropped from the state. What the service never answers again carries over
 * from the state.
 */
import { inputsOf } from "../changes";
import type { Companions } from "../companions";
import { isNotFound } from "../../common/errors";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import { readBatches } from "../readBatches";
import { failed } from "../resourceError";
import { quoteUid } from "../../common/uid";
import { Props, parentOfUid, pick, stripUndefined } from "../../common/values";

export function read(
  { kind, client, requests, records, registerSecrets, claims }: KindContext,
  companions: Companions,
): Lifecycle["read"] {
  // Every read of the kind in the process meets here: those that overlap are answered together.
  const batches = readBatches(kind, client, (uid) => requests.get(uid));
  // A parent the record does not tell (a role's uid is one segment) and the local inputs come from the state.
  const carriedByRead = [kind.parentField, ...kind.localInputs];
  const { parentField } = kind;
  /**
   * The parent a uid names: none for a uid of one segment (a role's); itself for a record keyed by
   * its parent, and for a part of another's record (whose parent field is that record's uid).
   */
  const parentNamedBy = (uid: string) => (kind.keyedByParent || kind.partOf ? uid : parentOfUid(uid));
  /**
   * Why the record answered for `uid` is not in its place, or undefined: its uid must be the one
   * asked, under the parent the state holds (a part of another's record is that record), and
   * the parent it says it is in (a binding's group) must be the one its uid names.
   */
  const misplaced = (uid: string, record: unknown, props: Props): string | undefined => {
    const answered = (record as { uid?: unknown } | null)?.uid;
    if (typeof answered !== "string") return undefined;
    if (answered !== uid && !kind.partOf && !kind.keyedByParent)
      return `the API answered the record ${quoteUid(answered)} for ${quoteUid(uid)}`;
    const named = parentNamedBy(answered);
    if (named === undefined) return undefined;
    const expected = props[parentField];
    if (typeof expected === "string" && named !== expected)
      return `its uid places it under ${quoteUid(named)}, not under its ${parentField} ${quoteUid(expected)}`;
    const said =
      record !== null && typeof record === "object" ? kind.toOutputs(record as never)[parentField] : undefined;
    if (typeof said === "string" && said !== named)
      return `it says its ${parentField} is ${quoteUid(said)}, but its uid places it under ${quoteUid(named)}`;
    return undefined;
  };
  return async (id, props: Props = {}) => {
    registerSecrets(props);
    // A refresh of a resource of the state (its outputs hold a uid): it holds its record (core/runtime/claims.ts).
    if (props.uid !== undefined) claims.hold(id);
    const uid = records.recordUid(id, props);
    let record: unknown;
    try {
      record = await batches.read(uid, (answered) => misplaced(uid, answered, props) === undefined);
    } catch (error) {
      // Gone: an empty id tells the engine to drop it from the state.
      if (isNotFound(error)) {
        claims.release(id);
        return { id: "", props: {} };
      }
      throw failed("reading", kind.label({ ...props, uid: id }), error);
    }
    const outputs = records.keepWriteOnly(records.outputsOf(record, pick(props, carriedByRead)), props);
    const wrongPlace = misplaced(uid, record, props);
    if (wrongPlace !== undefined)
      throw failed(
        "reading",
        kind.label({ ...props, uid: id }),
        new Error(`${wrongPlace}; it was not recorded: check that platform:apiUrl points at the Platform API`),
      );
    let answered = records.keepsAny(props) ? { ...outputs, ...records.keptFromState(props) } : outputs;
    if (kind.readDrift) {
      // What the record says of the state (a token regenerated elsewhere), or that this part of it is gone.
      const drift = kind.readDrift(answered, props);
      if (drift === undefined) return { id: "", props: {} };
      answered = stripUndefined({ ...answered, ...drift });
    }
    const outs = await companions.read(uid, props, answered);
    // A resource that is part of another's record has its parent's uid as its id, not the record's own.
    const ownId = kind.partOf ? id : String(outs.uid);
    // A drift no input shows is among the inputs too, so that a refresh shows it.
    const inputs = kind.driftOutputs
      ? { ...inputsOf(kind, outs), ...pick(outs, kind.driftOutputs) }
      : inputsOf(kind, outs);
    return { id: ownId, props: outs, inputs };
  };
}
