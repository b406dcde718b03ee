/**
 * The plugin folder a story's Pulumi.yaml names in `plugins.providers`. tests/run-jest.js prepares
 * one per run for the cli tier: the plugin bundled into one file (tools/plugin/bundle.ts, the code
 * the archive ships), which starts in about a third of the launcher's time because it neither
 * resolves modules nor writes the schema at start-up. Without it (jest run directly), native/.
 * The launcher itself is proved by the stories that name native/ on their own (native.realCli).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";

/** Set by tests/run-jest.js to the folder it prepared. */
export const TEST_PLUGIN_ENV = "PLATFORM_PULUMI_TEST_PLUGIN_DIR";

export function pluginFolder(): string {
  const prepared = process.env[TEST_PLUGIN_ENV];
  if (prepared && fs.existsSync(path.join(prepared, "pulumi-resource-platform"))) return prepared;
  return path.join(repoRoot, "native");
}
