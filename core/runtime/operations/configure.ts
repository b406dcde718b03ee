/**
 * Configure: the stack's settings, kept by the provider for reading at call time (a provider
 * captures none: it is stored in the state), and refused when one breaks its rule
 * (core/transport/settings.ts), so that a malformed setting stops the run at its first provider call,
 * before any request, naming the key.
 */
import type { Lifecycle } from "../lifecycle";
import type { ProviderSettings } from "../../transport/settings";

export const configure =
  (settings: ProviderSettings): Lifecycle["configure"] =>
  async (req) => {
    settings.configure(req.config);
    settings.refuseBroken();
  };
