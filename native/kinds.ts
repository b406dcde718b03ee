/** The kinds the native provider serves and the names the engine knows them by. */
import type { Kind } from "../provider/kind";
import { KINDS } from "../resources/kinds";

export const PACKAGE_NAME = "platform";

/** `platform:iam:Group`: the type token of a kind's resources. */
export function typeTokenOf(kind: Pick<Kind, "domain" | "typeName">): string {
  return `${PACKAGE_NAME}:${kind.domain}:${kind.typeName}`;
}

/** Every kind of the registry whose provider carries its description (each does, ScimToken included). */
export function describedKinds(): Kind[] {
  return KINDS.flatMap((entry) => (entry.provider.kind ? [entry.provider.kind] : []));
}
