/**
 * The requests on one record of a kind: its item path `{collection}/{uid}`, read, patched or
 * deleted, each through the shared client (so within the deadline of the call it belongs to).
 */
import type { ApiClient } from "../transport/client";
import { maskPaths, updateBody, updateMask, wirePaths } from "./changes";
import { isNotFound } from "../common/errors";
import type { Kind } from "../model/kind";
import { failed } from "./resourceError";
import type { Props } from "../common/values";

export interface RecordRequests {
  itemPath(uid: string): string;
  get(uid: string): Promise<unknown>;
  /** One PATCH of the `changed` writable fields: every declared field in the body, the changed ones in the mask. */
  patch(uid: string, olds: Props, news: Props, changed: readonly string[], what: string): Promise<unknown>;
  delete(uid: string): Promise<unknown>;
}

export function recordRequests(kind: Kind, client: () => ApiClient): RecordRequests {
  const itemPath = (uid: string) => `${kind.collection}/${uid}`;
  return {
    itemPath,
    get: (uid) => client().request({ method: "GET", domain: kind.domain, path: itemPath(uid) }),
    async patch(uid, olds, news, changed, what) {
      try {
        return await client().request({
          method: "PATCH",
          domain: kind.domain,
          path: itemPath(uid),
          query: { updateMask: updateMask(wirePaths(kind, maskPaths(olds, news, changed, kind.nested))) },
          body: updateBody(kind, news),
        });
      } catch (error) {
        const hint = isNotFound(error)
          ? `It no longer exists (deleted outside this program): run \`pulumi up --refresh\`, or \`pulumi refresh\` then \`pulumi up\`, to create it again`
          : undefined;
        throw failed("updating", what, error, hint);
      }
    },
    delete: (uid) => client().request({ method: "DELETE", domain: kind.domain, path: itemPath(uid) }),
  };
}
