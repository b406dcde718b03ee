/**
 * The environment of a plain `pulumi` command run by a test or a story: its own PULUMI_HOME and
 * file backend in `scratch`, passphrase secrets, nothing fetched from the network, and node on
 * PATH for the native plugin's launcher.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export function cliEnvironment(scratch: string, cliDir: string): Record<string, string> {
  fs.mkdirSync(path.join(scratch, "backend"), { recursive: true });
  return {
    PULUMI_HOME: path.join(scratch, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(scratch, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "platform-pulumi-tests",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [cliDir, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
  };
}

/** The state file of a project's stack on the file backend of `cliEnvironment(scratch, …)`. */
export function stateFile(scratch: string, project: string, stack = "dev"): string {
  return path.join(scratch, "backend", ".pulumi", "stacks", project, `${stack}.json`);
}
