/**
 * The kinds the native provider serves and the names the engine knows them by. The kind list is
 * loaded on first use: the plugin's handshake names the package before any kind is needed.
 */
import type { Kind } from "../core/model/kind";
import type * as KindList from "../resources/kinds";

export const PACKAGE_NAME = "platform";

/** `platform:iam:Group`: the type token of a kind's resources. */
export function typeTokenOf(kind: Pick<Kind, "domain" | "typeName">): string {
  return `${PACKAGE_NAME}:${kind.domain}:${kind.typeName}`;
}

/** Every kind of the kind list whose provider carries its description (each does, ScimToken included). */
export function describedKinds(): Kind[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  const { KINDS } = require("../resources/kinds") as typeof KindList;
  return KINDS.flatMap((entry) => (entry.provider.kind ? [entry.provider.kind] : []));
}
