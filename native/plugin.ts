/**
 * Runs the native provider plugin `platform` as the engine starts it: with the engine's address
 * as the argument, printing the port it serves on. The launcher (native/main.ts) and the plugin's
 * single executable (tools/plugin) both start here.
 */
import { nativeProvider } from "./provider";
import { serve } from "./server";

/** Serves until the engine ends the process; `schema` is the GetSchema answer when known in advance. */
export function startPlugin(version: string, schema?: () => string): void {
  serve(nativeProvider(version, schema), process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}
