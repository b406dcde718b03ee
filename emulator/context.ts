/** What an operation works with: the records, the clock, list pages, and who is calling. */
import { Principal } from "./auth";
import { Clock } from "./clock";
import type { Kinds } from "./kinds/kind";
import { ListEngine } from "./listEngine";
import { Messages } from "./messages";
import { Store } from "./store";

export interface Context {
  store: Store;
  /** The collections the API document serves (kinds/registry.ts). */
  kinds: Kinds;
  clock: Clock;
  engine: ListEngine;
  messages: Messages;
  principal: Principal;
  propagationDelayMs: number;
  /** The stricter reading of update bodies (EmulatorOptions.requirePatchFields). */
  requirePatchFields: boolean;
  /** The emulator's base URL (SCIM endpoints are below it). */
  baseUrl: string;
}
