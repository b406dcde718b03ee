/**
 * The plugin as a user gets it: its archive (tools/plugin, built or found in the cache) copied
 * alone into an empty folder outside the repository, installed by `pulumi plugin install resource
 * platform <version> --file <archive>` into a PULUMI_HOME, on a PATH that holds only the CLI and
 * pulumi-yaml's language host (no node, no npm).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { archiveName, EXECUTABLE, PLUGIN_NAME, pluginArchive, PluginArchive } from "../../tools/plugin/build";
import { runProcess } from "../../tools/runProcess";

export interface InstalledPlugin {
  /** The copy of the archive that was installed, alone in its folder. */
  archive: string;
  version: string;
  /** The installed executable, in `<PULUMI_HOME>/plugins/resource-platform-v<version>/`. */
  executable: string;
}

/** `<scratch>/cli-only`: links to the CLI and its YAML language host, and nothing else. */
export function cliOnlyPath(cliDir: string, scratch: string): string {
  const bin = path.join(scratch, "cli-only");
  fs.mkdirSync(bin);
  for (const name of ["pulumi", "pulumi-language-yaml"]) fs.symlinkSync(path.join(cliDir, name), path.join(bin, name));
  return bin;
}

// The archive of this test process's dist/, found once: each look-up bundles the plugin again to hash it.
let archived: Promise<PluginArchive> | undefined;

/** Installs the archive with the CLI into `env.PULUMI_HOME`; throws with the CLI's words when it fails. */
export async function installPluginArchive(
  cliDir: string,
  scratch: string,
  env: Record<string, string>,
): Promise<InstalledPlugin> {
  archived ??= pluginArchive();
  const { file, version } = await archived;
  const download = path.join(scratch, "download");
  fs.mkdirSync(download);
  const archive = path.join(download, archiveName(version));
  fs.copyFileSync(file, archive);
  const answer = await runProcess(
    path.join(cliDir, "pulumi"),
    ["plugin", "install", "resource", PLUGIN_NAME, version, "--file", archive, "--non-interactive"],
    { cwd: download, env: { ...process.env, ...env } },
  );
  if (answer.code !== 0) throw new Error(`pulumi plugin install failed: ${answer.stdout}${answer.stderr}`);
  const executable = path.join(env.PULUMI_HOME, "plugins", `resource-${PLUGIN_NAME}-v${version}`, EXECUTABLE);
  if (!fs.existsSync(executable)) throw new Error(`pulumi plugin install put no ${executable}`);
  return { archive, version, executable };
}

/**
 * The processes running an executable of `folder` (the installed plugin's), from /proc: the front
 * and the Node.js plugin it starts. A process that has ended but is not yet reaped runs nothing.
 */
export function processesOf(folder: string): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")[0];
      if (command.startsWith(folder + path.sep)) found.push({ pid: Number(entry), command });
    } catch {
      // Ended while listed.
    }
  }
  return found;
}
