/**
 * Each operation that calls the API is one call with one overall deadline across its retries
 * (core/transport/deadline.ts), and a kind the configured API version does not serve fails before
 * any request, naming the setting.
 */
import { versionRefusal } from "../transport/apiVersions";
import { callBudgetMs, withCallDeadline } from "../transport/deadline";
import type { Kind } from "../model/kind";
import type { Lifecycle } from "./lifecycle";
import { ResourceError } from "./resourceError";
import type { Props } from "../common/values";

/** Throws when the configured API version does not serve the kind. */
export function refuseUnservedVersion(kind: Kind): void {
  // Most kinds are served by every version: nothing to resolve or word on each call.
  if (!kind.apiVersions) return;
  const refusal = versionRefusal(`${kind.domain}.${kind.typeName} resources`, kind.apiVersions);
  if (refusal) throw new ResourceError(refusal);
}

export function withCallDeadlines(kind: Kind, ops: Lifecycle): Lifecycle {
  // Not async (one promise fewer per call); a refusal still arrives as a rejection.
  const scoped = <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      refuseUnservedVersion(kind);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown
      return Promise.reject(error);
    }
    return withCallDeadline(what, callBudgetMs(), fn);
  };
  return {
    ...ops,
    create: (inputs: Props) => scoped(`creating ${kind.label(inputs)}`, () => ops.create(inputs)),
    read: (id, props?: Props) => scoped(`reading ${kind.label({ ...props, uid: id })}`, () => ops.read(id, props)),
    update: (id, olds, news: Props) =>
      scoped(`updating ${kind.label({ ...news, uid: id })}`, () => ops.update(id, olds, news)),
    delete: (id, props: Props) => scoped(`deleting ${kind.label({ ...props, uid: id })}`, () => ops.delete(id, props)),
  };
}
