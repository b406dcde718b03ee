/**
 * Configure: the stack's settings, kept for reading at call time (a provider captures none: it is
 * stored in the state), and refused when one breaks its rule (core/transport/settings.ts), so that a
 * malformed setting stops the run at its first provider call, before any request, naming the key.
 */
import type { Lifecycle } from "../lifecycle";
import { configureFromPulumi, refuseBrokenSettings } from "../../transport/settings";

export const configure: Lifecycle["configure"] = async (req) => {
  configureFromPulumi(req.config);
  refuseBrokenSettings();
};
