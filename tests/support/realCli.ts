/**
 * Stacks under the real Pulumi CLI for the real-CLI stories, driven the way Pulumi's own projects
 * test programs: the Automation API's LocalWorkspace (in tests/support/realCliRun.ts, one process
 * per operation), a file backend and PULUMI_HOME in a temporary folder, the passphrase secrets
 * provider, and nothing fetched: no update check, no plugin acquisition, the CLI found by
 * `npm run -s pulumi-cli` (a `pulumi` v3 on PATH, or the one built from tools/pulumi-cli).
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";
import { stageProgram } from "../../tools/engine/stage";
import { withoutPlatformEnv } from "../../tools/engine/orgProject";
import type { RealCliOperation, RealCliRequest, RealCliResult } from "./realCliRun";

export type { RealCliResult } from "./realCliRun";

/** Set by tests/run-jest.js from `npm run -s pulumi-cli`: the folder holding `pulumi`. */
export const CLI_DIR_VARIABLE = "PLATFORM_PULUMI_CLI_DIR";
/** Set by tests/run-jest.js instead when no CLI could be found or built: why, and how to get one. */
export const CLI_UNAVAILABLE_VARIABLE = "PLATFORM_PULUMI_CLI_UNAVAILABLE";

const runner = path.join(__dirname, "realCliRun.js");

/**
 * The folder of the Pulumi CLI the stories run. The test runner resolves it once per jest run; a
 * jest started some other way asks `npm run -s pulumi-cli` itself. Without a CLI this throws,
 * saying how to get one: a real-CLI story fails, it is never skipped.
 */
export function pulumiCliDir(): string {
  const given = process.env[CLI_DIR_VARIABLE];
  if (given) return given;
  const unavailable = process.env[CLI_UNAVAILABLE_VARIABLE];
  if (unavailable) throw new Error(unavailable);
  const answer = spawnSync("npm", ["run", "-s", "pulumi-cli"], { cwd: repoRoot, encoding: "utf8" });
  const dir = answer.stdout?.trim().split("\n").pop();
  if (answer.status !== 0 || !dir) {
    throw new Error(`no Pulumi CLI for the real-CLI stories (npm run -s pulumi-cli):\n${answer.stderr}`);
  }
  process.env[CLI_DIR_VARIABLE] = dir;
  return dir;
}

export interface RealCliStackOptions {
  /** The Pulumi program's folder (Pulumi.yaml, index.ts); it is staged with the built package as a copy. */
  programDir: string;
  /** The project name in its Pulumi.yaml. */
  project: string;
  /** Compile index.ts to an ES module (index.mjs, loaded with import()) instead of CommonJS. */
  esm?: boolean;
  stack?: string;
  /** Names the scratch folders. */
  label: string;
  /** Config, full keys (`platform:apiUrl`, `<project>:rootUid`). */
  config: Record<string, string>;
  secretConfig?: Record<string, string>;
}

export interface RealCliRunOptions {
  refresh?: boolean;
  expectNoChanges?: boolean;
  diff?: boolean;
  /** Config set before this run (and kept for the next ones), full keys. */
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  /** Environment variables for this run only (the CLI's, hence the provider host's too). */
  env?: Record<string, string>;
}

export interface RealCliStack {
  /** The staged program folder: its node_modules holds the package as a copy. */
  programDir: string;
  /** The compiled program in it: index.js, or index.mjs for an ES module. */
  entry: string;
  /** The stack's state file in the file backend. */
  checkpointFile: string;
  /** That file's contents (undefined before the first operation). */
  checkpoint(): Checkpoint | undefined;
  run(operation: RealCliOperation, options?: RealCliRunOptions): Promise<RealCliRun>;
  /** Starts an operation that the test may kill: see RealCliProcess. */
  start(operation: RealCliOperation, options?: RealCliRunOptions): RealCliProcess;
  /**
   * `pulumi <args> --stack <stack> --non-interactive` in the program's folder, as a user types it,
   * for the commands that run no program (cancel, refresh, stack export). The stack must exist:
   * an operation creates it and writes its config.
   */
  cli(args: string[], options?: { env?: Record<string, string> }): Promise<RealCliResult>;
  remove(): void;
}

/**
 * An operation under way: its runner (which serves the inline program), the `pulumi` it runs in
 * the runner's process group, and the plugins `pulumi` launched, each in a process group of its
 * own (the dynamic-provider host among them).
 */
export interface RealCliProcess {
  /** The runner's pid, which is also its process group's id. */
  pid: number;
  /** The operation's result; rejects when the runner ended without one (it was killed). */
  result: Promise<RealCliRun>;
  /** SIGKILLs all those process groups, as a CI runner ends a job; resolves when the runner has exited. */
  kill(): Promise<void>;
}

export interface RealCliRun extends RealCliResult {
  /** What the runner process printed besides the CLI (an inline program's own console output). */
  runnerOutput: string;
}

/** How the engine marks a secret value in a state or a stack export: `{ <signature>, ciphertext }`. */
export const SECRET_SIGNATURE = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

/** The parts of a file backend checkpoint the stories read. */
export interface Checkpoint {
  checkpoint: {
    latest?: {
      resources?: CheckpointResource[];
      pending_operations?: Array<{ resource: CheckpointResource; type: string }>;
      secrets_providers?: { type: string };
    };
  };
}

export interface CheckpointResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  additionalSecretOutputs?: string[];
}

/** A stack of a program under the real CLI, in scratch folders of its own. */
export function realCliStack(options: RealCliStackOptions): RealCliStack {
  const cliDir = pulumiCliDir();
  const stack = options.stack ?? "dev";
  const program = stageProgram({
    programDir: options.programDir,
    stack: `realcli-${options.label}`,
    esm: options.esm ?? false,
    salt: `${process.pid}-${Math.random()}`,
  });
  program.compile();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `platform-pulumi-realcli-${options.label}-`));
  const backendDir = path.join(scratch, "backend");
  const home = path.join(scratch, "pulumi-home");
  // PulumiCommand.get({ root }) runs <root>/bin/pulumi: a link gives any CLI folder that shape.
  const cliRoot = path.join(scratch, "cli");
  fs.mkdirSync(backendDir);
  fs.mkdirSync(home);
  fs.mkdirSync(cliRoot);
  fs.symlinkSync(cliDir, path.join(cliRoot, "bin"));

  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_HOME: home,
    PULUMI_CONFIG_PASSPHRASE: "real-cli-stories",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The CLI finds its bundled dynamic-provider launcher beside itself or on PATH.
    PATH: [cliDir, process.env.PATH ?? ""].join(path.delimiter),
  };
  const config: Record<string, { value: string; secret: boolean }> = {};
  for (const [key, value] of Object.entries(options.config)) config[key] = { value, secret: false };
  for (const [key, value] of Object.entries(options.secretConfig ?? {})) config[key] = { value, secret: true };

  const checkpointFile = path.join(backendDir, ".pulumi", "stacks", options.project, `${stack}.json`);
  const start = (operation: RealCliOperation, runOptions: RealCliRunOptions = {}): RealCliProcess => {
    for (const [key, value] of Object.entries(runOptions.config ?? {})) config[key] = { value, secret: false };
    for (const [key, value] of Object.entries(runOptions.secretConfig ?? {})) config[key] = { value, secret: true };
    const resultFile = path.join(scratch, `result-${operation}-${Date.now()}-${Math.random()}.json`);
    const runEnv = { ...envVars, ...runOptions.env };
    const request: RealCliRequest = {
      operation,
      refresh: runOptions.refresh,
      expectNoChanges: runOptions.expectNoChanges,
      diff: runOptions.diff,
      programDir: program.dir,
      entry: program.entry,
      esm: options.esm ?? false,
      project: options.project,
      stack,
      cliRoot,
      envVars: runEnv,
      config,
      resultFile,
    };
    const requestFile = `${resultFile}.request`;
    fs.writeFileSync(requestFile, JSON.stringify(request));
    const runner = startRunner(requestFile, program.dir, { ...withoutPlatformEnv(), ...runEnv });
    const result = runner.output.then((runnerOutput) => {
      if (!fs.existsSync(resultFile)) throw new Error(`the Automation API runner failed:\n${runnerOutput}`);
      return { ...(JSON.parse(fs.readFileSync(resultFile, "utf8")) as RealCliResult), runnerOutput };
    });
    return { pid: runner.pid, result, kill: runner.kill };
  };
  return {
    programDir: program.dir,
    entry: program.entry,
    checkpointFile,
    checkpoint: () =>
      fs.existsSync(checkpointFile) ? (JSON.parse(fs.readFileSync(checkpointFile, "utf8")) as Checkpoint) : undefined,
    run: (operation, runOptions) => start(operation, runOptions).result,
    start,
    cli: (args, cliOptions = {}) =>
      runCli(path.join(cliDir, "pulumi"), [...args, "--stack", stack, "--non-interactive"], program.dir, {
        ...withoutPlatformEnv(),
        ...envVars,
        ...cliOptions.env,
      }),
    remove: () => {
      program.remove();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

function runCli(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RealCliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? -1, stdout, stderr, outputs: {} }));
  });
}

/** The runner, in a process group of its own (detached) so that a kill reaches everything it started. */
function startRunner(
  requestFile: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { pid: number; output: Promise<string>; kill(): Promise<void> } {
  const child = spawn(process.execPath, [runner, requestFile], {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`the Automation API runner did not start (${process.execPath})`);
  const pid = child.pid;
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const closed = new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", () => resolve(output));
  });
  return {
    pid,
    output: closed,
    kill: async () => {
      // The CLI starts each plugin (the dynamic-provider host among them) in a process group of
      // its own: every group below the runner is killed, found before the first kill orphans it.
      for (const group of processGroupsBelow(pid)) {
        try {
          process.kill(-group, "SIGKILL");
        } catch (error) {
          // Already gone: a group ended between the listing and the kill, or the run had ended.
          if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
        }
      }
      await exited;
    },
  };
}

/** The process groups led by a process or one of its descendants, the process's own first. */
function processGroupsBelow(root: number): number[] {
  const table = spawnSync("ps", ["-A", "-o", "pid=,ppid=,pgid="], { encoding: "utf8" });
  if (table.status !== 0) throw new Error(`ps failed: ${table.stderr}`);
  const rows = table.stdout
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number));
  const below = new Set([root]);
  for (let grown = true; grown;) {
    grown = false;
    for (const [pid, ppid] of rows) {
      if (below.has(ppid) && !below.has(pid)) {
        below.add(pid);
        grown = true;
      }
    }
  }
  // Only groups led by one of these processes: never a group the test itself belongs to.
  const groups = new Set([root]);
  for (const [pid, , pgid] of rows) if (below.has(pid) && below.has(pgid)) groups.add(pgid);
  return [...groups];
}
