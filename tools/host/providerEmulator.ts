/**
 * The emulator the provider's tests and the benchmarks run against. By default the emulator follows the API
 * spec's update rules (a PATCH names what it changes); the provider's tests turn on the
 * stricter reading of the vendor's documents too (every documented required field in every
 * update body), so what the provider sends is accepted under either reading.
 */
import { EmulatorOptions, RunningEmulator, startEmulator } from "../../emulator";

export const PROVIDER_TEST_EMULATOR: EmulatorOptions = { quiet: true, requirePatchFields: true };

export function startProviderEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ ...PROVIDER_TEST_EMULATOR, ...options });
}
