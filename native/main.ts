/**
 * The entry point of the native provider plugin `platform`, which the launcher
 * `native/pulumi-resource-platform` runs: the engine starts it with its own address as the
 * argument and reads the port it prints.
 */
import { nativeProvider } from "./provider";
import { serve } from "./server";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's own version, read at start-up
const { version } = require("../../package.json") as { version: string };

serve(nativeProvider(version), process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
