/** Configure: the stack's settings, read at call time (a provider captures none: it is stored in the state). */
import type { Lifecycle } from "../lifecycle";
import { configureFromPulumi } from "../settings";

export const configure: Lifecycle["configure"] = async (req) => {
  try {
    configureFromPulumi(req.config);
  } catch {
    // Configure was never sent: settings come from the environment.
  }
};
