/**
 * The real Pulumi CLI's folder, from tools/pulumi-cli/build.js (`npm run -s pulumi-cli`): a `pulumi`
 * v3 on PATH, else the one built from tools/pulumi-cli/go.mod (cached outside the repository). The
 * script prints the folder as its last line and says on stderr what it did: "using … from PATH",
 * "building …" (then Go's own progress), or nothing when the cached build is reused.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../host/stage";

/** Set by tests/run-jest.js from `npm run -s pulumi-cli`: the folder holding `pulumi`. */
export const CLI_DIR_VARIABLE = "PLATFORM_PULUMI_CLI_DIR";
/** Set by tests/run-jest.js instead when no CLI could be found or built: why, and how to get one. */
export const CLI_UNAVAILABLE_VARIABLE = "PLATFORM_PULUMI_CLI_UNAVAILABLE";

const buildScript = path.join(repoRoot, "tools", "pulumi-cli", "build.js");
const USING_FROM_PATH = /^pulumi-cli: using (\S+) \((\S+)\) from PATH/m;
const BUILDING = /^pulumi-cli: building .*\n/m;

/**
 * The folder of the Pulumi CLI, for the tests. The test runner resolves it once per jest run; a
 * jest started some other way runs the script itself. Without a CLI this throws, saying how to get
 * one: a real-CLI story fails, it is never skipped.
 */
export function pulumiCliDir(): string {
  const given = process.env[CLI_DIR_VARIABLE];
  if (given) return given;
  const unavailable = process.env[CLI_UNAVAILABLE_VARIABLE];
  if (unavailable) throw new Error(unavailable);
  const answer = spawnSync(process.execPath, [buildScript], { cwd: repoRoot, encoding: "utf8" });
  const dir = lastLine(answer.stdout);
  if (answer.status !== 0 || !dir) {
    throw new Error(`no Pulumi CLI for the real-CLI stories (npm run -s pulumi-cli):\n${answer.stderr}`);
  }
  process.env[CLI_DIR_VARIABLE] = dir;
  return dir;
}

export interface LocatedCli {
  /** The folder holding `pulumi` (and the dynamic-provider launcher). */
  dir: string;
  /** What `pulumi version` answers, e.g. "v3.274.1". */
  version: string;
  /** A `pulumi` found on PATH, or the one built from tools/pulumi-cli (now, or reused from the cache). */
  source: "path" | "built now" | "built before";
}

/**
 * Finds or builds the CLI without blocking, for the demo: `onBuildStart` gets the script's line
 * announcing a build (which names the version) before the build begins (a cold one takes minutes),
 * and the build's progress goes to `progress`. Rejects with the script's own explanation when there
 * is neither a CLI nor Go to build one.
 */
export function locatePulumiCli(options: {
  onBuildStart?: (announcement: string) => void;
  progress?: NodeJS.WritableStream;
}): Promise<LocatedCli> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [buildScript], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let building = false;
    /** How much of stderr has gone to `progress`: everything after the announcement. */
    let shown = 0;
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const announcement = building ? undefined : BUILDING.exec(stderr);
      if (announcement) {
        building = true;
        shown = announcement.index + announcement[0].length;
        options.onBuildStart?.(announcement[0].trim());
      }
      if (building && stderr.length > shown) {
        options.progress?.write(stderr.slice(shown));
        shown = stderr.length;
      }
    });
    child.once("error", reject);
    child.once("close", (code) => {
      const dir = lastLine(stdout);
      if (code !== 0 || !dir) {
        const reasons = stderr.split("\n").filter((line) => line.startsWith("pulumi-cli: "));
        reject(new Error(reasons.map((line) => line.slice("pulumi-cli: ".length)).join("; ") || `exit ${code}`));
        return;
      }
      const fromPath = USING_FROM_PATH.exec(stderr);
      if (fromPath) resolve({ dir, version: fromPath[2], source: "path" });
      else resolve({ dir, version: versionOf(dir), source: building ? "built now" : "built before" });
    });
  });
}

/** `pulumi version`, run with a throwaway PULUMI_HOME: every command logs there. */
export function versionOf(dir: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-version-"));
  try {
    const answer = spawnSync(path.join(dir, "pulumi"), ["version"], {
      encoding: "utf8",
      env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" },
    });
    return answer.stdout?.trim() || "of unknown version";
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

function lastLine(text: string | null | undefined): string | undefined {
  return (text ?? "").trim().split("\n").pop() || undefined;
}
