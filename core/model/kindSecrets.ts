/**
 * The secret values a call carries (a kind's `secrets` paths: an invite's code, an identity
 * provider's client secret), registered so that no message shows them (core/common/messages.ts).
 */
import type { Kind } from "./kind";
import { registerSecret } from "../common/messages";
import { Props, UNKNOWN, valueAt } from "../common/values";

/**
 * The top-level properties holding a kind's secrets (`oidc` for `oidc.clientSecret`): the engine
 * marks secrets on top-level properties only, so these are what a resource keeps secret.
 */
export function secretProperties(kind: Pick<Kind, "secrets">): string[] {
  return [...new Set((kind.secrets ?? []).map((path) => path.split(".")[0]))];
}

export type SecretRegistrar = (...all: Array<Props | undefined>) => void;

/** Registers the secret values of every property bag it is handed; nothing for a kind without secrets. */
export function secretRegistrar(kind: Kind): SecretRegistrar {
  const paths = kind.secrets ?? [];
  if (paths.length === 0) return () => undefined;
  return (...all) => {
    for (const props of all)
      for (const path of paths) {
        const value = props && valueAt(props, path);
        // The sentinel of a value not known yet (preview) is no secret: redacting it would mangle messages.
        if (typeof value === "string" && value !== UNKNOWN) registerSecret(value);
      }
  };
}
