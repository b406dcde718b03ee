/**
 * Delete: the kind's verbs, then one DELETE, unless the kind refuses it first; a record already
 * gone is success. The record is then free (core/runtime/claims.ts).
 */
import { Code, isApiError, isNotFound } from "../../common/errors";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import { ResourceError, failed } from "../resourceError";
import type { Props } from "../../common/values";
import type { RunSteps } from "../verbSteps";

export function deleteRecord(
  { kind, requests, records, registerSecrets, claims }: KindContext,
  runSteps: RunSteps,
): Lifecycle["delete"] {
  return async (id, props: Props = {}) => {
    registerSecrets(props);
    const what = kind.label({ ...props, uid: id });
    const refusal = kind.refuseDelete?.(props);
    if (refusal) throw new ResourceError(`deleting ${what} refused: ${refusal}`);
    const uid = records.recordUid(id, props);
    if (kind.verbs?.delete) {
      // The kind's own steps first; a record they find gone needs no DELETE.
      const call = {
        operation: "deleting",
        uid,
        what,
        inputs: props,
        state: props,
        outputs: props,
        notFound: "gone" as const,
      };
      if ((await runSteps(kind.verbs.delete, call)) === undefined) return void claims.release(id);
    }
    try {
      await requests.delete(uid);
      claims.release(id);
    } catch (error) {
      // Gone either way: no resource holds it any more.
      if (isNotFound(error)) return void claims.release(id);
      if (isApiError(error, Code.FAILED_PRECONDITION) && kind.explainDeleteRefusal)
        throw new ResourceError(`deleting ${what} failed: ${kind.explainDeleteRefusal(error)}`, { cause: error });
      throw failed("deleting", what, error);
    }
  };
}
