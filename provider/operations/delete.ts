/** Delete: one DELETE, unless the kind refuses it first; a record already gone is success. */
import { Code, isApiError, isNotFound } from "../errors";
import type { KindContext } from "../kindContext";
import type { Lifecycle } from "../lifecycle";
import { ResourceError, failed } from "../resourceError";
import type { Props } from "../values";

export function deleteRecord({ kind, requests, records, registerSecrets }: KindContext): Lifecycle["delete"] {
  return async (id, props: Props = {}) => {
    registerSecrets(props);
    const what = kind.label({ ...props, uid: id });
    const refusal = kind.refuseDelete?.(props);
    if (refusal) throw new ResourceError(`deleting ${what} refused: ${refusal}`);
    try {
      await requests.delete(records.recordUid(id, props));
    } catch (error) {
      if (isNotFound(error)) return;
      if (isApiError(error, Code.FAILED_PRECONDITION) && kind.explainDeleteRefusal)
        throw new ResourceError(`deleting ${what} failed: ${kind.explainDeleteRefusal(error)}`, { cause: error });
      throw failed("deleting", what, error);
    }
  };
}
