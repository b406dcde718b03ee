/**
 * Outputs a resource class asks the engine to keep secret. The dynamic-provider host takes no
 * secrets, so the engine marks them: encrypted in the state, masked in every display. Pulumi
 * marks top-level properties only.
 */
import type { CustomResourceOptions } from "@pulumi/pulumi";

/** The program's options with `secrets` added to its own additionalSecretOutputs, each once. */
export function withSecretOutputs(
  opts: CustomResourceOptions | undefined,
  secrets: readonly string[],
): CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secrets])] };
}
