/**
 * The environment of a plain `pulumi` command run by a test or a story: its own PULUMI_HOME and
 * file backend in `scratch`, passphrase secrets, nothing fetched from the network, and node on
 * PATH for the native plugin's launcher. The state is written once, at the end of each operation
 * (PULUMI_SKIP_CHECKPOINTS), not after every step, unless `checkpoints`: a story that kills an
 * operation and reads what it left under way needs them (`PULUMI_SKIP_CHECKPOINTS=false` for that
 * command alone does the same).
 */
import * as fs from "node:fs";
import * as path from "node:path";

export function cliEnvironment(
  scratch: string,
  cliDir: string,
  options: { checkpoints?: boolean } = {},
): Record<string, string> {
  fs.mkdirSync(path.join(scratch, "backend"), { recursive: true });
  return {
    PULUMI_HOME: path.join(scratch, "pulumi-home"),
    PULUMI_BACKEND_URL: fileBackend(path.join(scratch, "backend")),
    PULUMI_CONFIG_PASSPHRASE: "platform-pulumi-tests",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    ...stateWrites(options.checkpoints),
    PATH: [cliDir, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
  };
}

/**
 * The file backend's URL for a folder. `metadata=skip`: by default each state file gets a sidecar
 * `.attrs` file written in place, not renamed into place as the state is, so a kill in the middle
 * leaves it empty and every later command fails "failed to load checkpoint: EOF".
 */
export function fileBackend(dir: string): string {
  return `file://${dir}?metadata=skip`;
}

/** How often a stack's state is written: once an operation, or after every step with `checkpoints`. */
export function stateWrites(checkpoints = false): Record<string, string> {
  // No copy of the state under .pulumi/backups before each operation: nothing reads one.
  return {
    PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS: "true",
    PULUMI_SKIP_CHECKPOINTS: String(checkpoints === false),
  };
}

/** The state file of a project's stack on the file backend of `cliEnvironment(scratch, …)`. */
export function stateFile(scratch: string, project: string, stack = "dev"): string {
  return path.join(scratch, "backend", ".pulumi", "stacks", project, `${stack}.json`);
}
