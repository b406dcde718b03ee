/**
 * Stacks under the real Pulumi CLI, driven the way Pulumi's own projects test programs: the
 * Automation API's LocalWorkspace (./automation.ts, one process per operation), the program as an
 * inline program, a file backend in a temporary folder, the passphrase secrets provider, and
 * nothing fetched: no update check, no plugin acquisition. The real-CLI stories, the docs' walk-through
 * commands, the demo and the benchmarks all run their stacks here.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stageProgram } from "./stageProgram";
import { withoutPlatformEnv } from "../orgProject";
import { SECRET_KEY, SECRET_VALUE } from "../../drift/secretSignature";
import type { RealCliOperation, RealCliRequest, RealCliResult } from "./automation";
import { fileBackend, stateWrites } from "./cliEnvironment";
import { pulumiCliDir, versionOf } from "./find";
import { runProcess } from "../runProcess";

export type { RealCliOperation, RealCliResult, RealCliStep } from "./automation";

const runner = path.join(__dirname, "automation.js");

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
  /** The CLI's folder; by default the one `npm run -s pulumi-cli` finds or builds. */
  cliDir?: string;
  /**
   * Where the CLI keeps the stack: `"variable"` (default), a file backend in the scratch folder
   * named by PULUMI_BACKEND_URL; `"login"`, the backend that the caller's own `pulumi login` (run in
   * `env`) records, as on a user's machine: checkpointFile then assumes it was
   * `file://<programDir>/state`, as the walk-through's commands have it. PULUMI_HOME is in the scratch
   * folder either way (`~` in `pulumi login --local` is the account's home whatever HOME says, so
   * it is never used here).
   */
  backend?: "variable" | "login";
  /** Packages under the staged program's node_modules instead of the built platform-pulumi (name → folder). */
  packages?: Record<string, string>;
  /**
   * Write the state after every step of every operation, as the CLI does by default. Otherwise only
   * an operation begun with `start` (one the caller may kill, whose state must show what was under
   * way) does; the others write it once, at their end (PULUMI_SKIP_CHECKPOINTS), which is all a
   * story reads and saves a whole-state write a step.
   */
  checkpoints?: boolean;
  /**
   * A runner process for every operation, as the benchmarks measure one. Otherwise the stack's
   * operations share one runner (see `serve` of ./automation.ts), except an operation begun with
   * `start`, one asked while another is under way, and those of an ES module program, whose
   * modules import() cannot load afresh.
   */
  runnerPerOperation?: boolean;
}

export interface RealCliRunOptions {
  refresh?: boolean;
  expectNoChanges?: boolean;
  diff?: boolean;
  /** `--parallel` (the CLI's default: four per CPU). */
  parallel?: number;
  /** `refresh --preview-only`: the refresh's changes shown, the state left as it is. */
  previewOnly?: boolean;
  /** Collect the steps that are not `same` (RealCliResult.steps). */
  steps?: boolean;
  /** Append each engine event to this file as it comes (one JSON line each). */
  eventsFile?: string;
  /** Config set before this run (and kept for the next ones), full keys. */
  config?: Record<string, string>;
  /** Secret config set before this run (and kept for the next ones), full keys. */
  secretConfig?: Record<string, string>;
  /** Environment for this run's CLI and program on top of the stack's (e.g. a CI job's variables). */
  env?: Record<string, string>;
  /** The stack's outputs after a preview, refresh or destroy too (RealCliResult.outputs; an up's always come). */
  outputs?: boolean;
}

export interface RealCliStack {
  /** The staged program folder: its node_modules holds the package as a copy. */
  programDir: string;
  /** The compiled program in it: index.js, or index.mjs for an ES module. */
  entry: string;
  /** The CLI's folder. */
  cliDir: string;
  /** The stack's name. */
  stack: string;
  /** The whole environment the CLI runs in: for running a `pulumi` command of one's own in programDir. */
  env: NodeJS.ProcessEnv;
  /** The stack's state file in the file backend. */
  checkpointFile: string;
  /** That file's contents (undefined before the first operation). */
  checkpoint(): Checkpoint | undefined;
  run(operation: RealCliOperation, options?: RealCliRunOptions): Promise<RealCliRun>;
  /** Starts an operation that the caller may kill (its state written after every step): see RealCliProcess. */
  start(operation: RealCliOperation, options?: RealCliRunOptions): RealCliProcess;
  /**
   * `pulumi <args> --stack <stack> --non-interactive` in the program's folder, as a user types it,
   * for the commands that run no program (cancel, refresh, stack export). The stack must exist:
   * an operation creates it and writes its config.
   */
  cli(args: string[], options?: { env?: Record<string, string> }): Promise<RealCliCommandResult>;
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

/** What a plain `pulumi` command answered. */
export type RealCliCommandResult = Pick<RealCliResult, "code" | "stdout" | "stderr">;

export interface RealCliRun extends RealCliResult {
  /** What the runner process printed besides the CLI (an inline program's own console output). */
  runnerOutput: string;
}

/** How the engine marks a secret value in a state or a stack export: `{ <signature>, ciphertext }`. */
export const SECRET_SIGNATURE = { [SECRET_KEY]: SECRET_VALUE };

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
  /** A resource the program read (`Kind.get`) rather than manages. */
  external?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  additionalSecretOutputs?: string[];
}

/** A stack of a program under the real CLI, in scratch folders of its own. */
export function realCliStack(options: RealCliStackOptions): RealCliStack {
  const cliDir = options.cliDir ?? pulumiCliDir();
  const stack = options.stack ?? "dev";
  const program = stageProgram({
    programDir: options.programDir,
    stack: `realcli-${options.label}`,
    esm: options.esm ?? false,
    salt: `${process.pid}-${Math.random()}`,
    packages: options.packages,
  });
  program.compile();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `platform-pulumi-realcli-${options.label}-`));
  const home = path.join(scratch, "pulumi-home");
  // PulumiCommand.get({ root }) runs <root>/bin/pulumi: a link gives any CLI folder that shape.
  const cliRoot = path.join(scratch, "cli");
  fs.mkdirSync(home);
  fs.mkdirSync(cliRoot);
  fs.symlinkSync(cliDir, path.join(cliRoot, "bin"));

  const offline = {
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    ...stateWrites(options.checkpoints),
    // The CLI finds its bundled dynamic-provider launcher beside itself or on PATH.
    PATH: [cliDir, process.env.PATH ?? ""].join(path.delimiter),
  };
  let envVars: Record<string, string> = { PULUMI_HOME: home, ...offline };
  let stateDir = path.join(program.dir, "state");
  if (options.backend !== "login") {
    stateDir = path.join(scratch, "backend");
    fs.mkdirSync(stateDir);
    envVars = { ...envVars, PULUMI_BACKEND_URL: fileBackend(stateDir), PULUMI_CONFIG_PASSPHRASE: "real-cli-stories" };
  }
  const checkpointFile = path.join(stateDir, ".pulumi", "stacks", options.project, `${stack}.json`);
  // The developer's own Pulumi and platform settings stay out: only what envVars says counts.
  const baseEnv = withoutPlatformEnv();
  for (const name of ["PULUMI_HOME", "PULUMI_BACKEND_URL", "PULUMI_CONFIG_PASSPHRASE", "PULUMI_ACCESS_TOKEN"])
    delete baseEnv[name];
  const env = { ...baseEnv, ...envVars };

  const config: Record<string, { value: string; secret: boolean }> = {};
  for (const [key, value] of Object.entries(options.config)) config[key] = { value, secret: false };
  for (const [key, value] of Object.entries(options.secretConfig ?? {})) config[key] = { value, secret: true };
  let configSet = false;
  const cliVersion = versionOfCli(cliDir);

  const launch = (operation: RealCliOperation, runOptions: RealCliRunOptions, killable: boolean): RealCliProcess => {
    const runConfig: typeof config = {};
    const added = { ...runOptions.config, ...runOptions.secretConfig };
    for (const [key, value] of Object.entries(runOptions.config ?? {})) config[key] = { value, secret: false };
    for (const [key, value] of Object.entries(runOptions.secretConfig ?? {})) config[key] = { value, secret: true };
    // The stack's config is set once (the CLI keeps it in Pulumi.<stack>.yaml); later runs set what they add.
    for (const [key, value] of Object.entries(config)) if (!configSet || key in added) runConfig[key] = value;
    const resultFile = path.join(scratch, `result-${operation}-${Date.now()}-${Math.random()}.json`);
    // An operation that may be killed keeps writing the state after every step.
    const steps: Record<string, string> = killable ? stateWrites(true) : {};
    const runEnv = { ...envVars, ...steps, ...runOptions.env };
    const request: RealCliRequest = {
      operation,
      refresh: runOptions.refresh,
      expectNoChanges: runOptions.expectNoChanges,
      diff: runOptions.diff,
      parallel: runOptions.parallel,
      previewOnly: runOptions.previewOnly,
      steps: runOptions.steps,
      eventsFile: runOptions.eventsFile,
      programDir: program.dir,
      entry: program.entry,
      esm: options.esm ?? false,
      project: options.project,
      stack,
      cliRoot,
      cliVersion,
      stackExists: configSet,
      outputs: runOptions.outputs,
      checkpointFile,
      envVars: runEnv,
      config: runConfig,
      resultFile,
    };
    const requestFile = `${resultFile}.request`;
    const processEnv = { ...env, ...steps, ...runOptions.env };
    const shareable = !killable && !options.esm && !options.runnerPerOperation && !sharedBusy;
    fs.writeFileSync(requestFile, JSON.stringify(shareable ? { ...request, processEnv } : request));
    let runner: { pid: number; output: Promise<string>; kill(): Promise<void> };
    if (shareable) {
      sharedBusy = true;
      const serving = (shared ??= startSharedRunner(program.dir, env));
      const output = serving.operate(requestFile).catch((error: unknown) => {
        // It ended: the next operation starts another.
        shared = undefined;
        throw error;
      });
      runner = {
        pid: serving.pid,
        output: output.finally(() => (sharedBusy = false)),
        kill: () => Promise.reject(new Error("only an operation begun with start can be killed")),
      };
    } else runner = startRunner(requestFile, program.dir, processEnv);
    const result = runner.output.then((runnerOutput) => {
      if (!fs.existsSync(resultFile)) throw new Error(`the Automation API runner failed:\n${runnerOutput}`);
      configSet = true;
      return { ...(JSON.parse(fs.readFileSync(resultFile, "utf8")) as RealCliResult), runnerOutput };
    });
    return { pid: runner.pid, result, kill: runner.kill };
  };
  let shared: SharedRunner | undefined;
  let sharedBusy = false;

  return {
    programDir: program.dir,
    entry: program.entry,
    cliDir,
    stack,
    env,
    checkpointFile,
    checkpoint: () =>
      fs.existsSync(checkpointFile) ? (JSON.parse(fs.readFileSync(checkpointFile, "utf8")) as Checkpoint) : undefined,
    run: (operation, runOptions = {}) => launch(operation, runOptions, false).result,
    start: (operation, runOptions = {}) => launch(operation, runOptions, true),
    cli: (args, cliOptions = {}) =>
      runProcess(path.join(cliDir, "pulumi"), [...args, "--stack", stack, "--non-interactive"], {
        cwd: program.dir,
        env: { ...env, ...cliOptions.env },
      }),
    remove: () => {
      shared?.stop();
      program.remove();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

const versions = new Map<string, string | undefined>();

/** `pulumi version` of a CLI folder, asked once a test process; undefined when it answers no version. */
export function versionOfCli(cliDir: string): string | undefined {
  if (!versions.has(cliDir)) {
    const answer = versionOf(cliDir);
    versions.set(cliDir, /^v?\d+\.\d+\.\d+/.test(answer) ? answer : undefined);
  }
  return versions.get(cliDir);
}

/** A runner serving a stack's operations one after another (`automation.js --serve`). */
interface SharedRunner {
  pid: number;
  /** Runs the operation of a request file; resolves with what the runner printed during it. */
  operate(requestFile: string): Promise<string>;
  stop(): void;
}

function startSharedRunner(cwd: string, env: NodeJS.ProcessEnv): SharedRunner {
  const child = spawn(process.execPath, [runner, "--serve"], { cwd, env, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  if (child.pid === undefined) throw new Error(`the Automation API runner did not start (${process.execPath})`);
  // What it prints outside an operation (a crash): told with the operation it ended.
  let printed = "";
  child.stdout?.on("data", (chunk) => (printed += chunk));
  child.stderr?.on("data", (chunk) => (printed += chunk));
  // Between operations it keeps no test process alive.
  const streams = [child.stdout, child.stderr] as unknown as Array<{ ref(): void; unref(): void }>;
  const idle = () => {
    child.unref();
    child.channel?.unref();
    for (const stream of streams) stream.unref();
  };
  idle();
  return {
    pid: child.pid,
    operate: (requestFile) =>
      new Promise<string>((resolve, reject) => {
        child.ref();
        child.channel?.ref();
        for (const stream of streams) stream.ref();
        const done = (message: { done: string; output: string }) => {
          if (message.done !== requestFile) return;
          child.off("message", done);
          child.off("exit", ended);
          idle();
          resolve(message.output);
        };
        const ended = (code: number | null, signal: string | null) => {
          child.off("message", done);
          reject(new Error(`the Automation API runner ended (${signal ?? code}) during the operation:\n${printed}`));
        };
        child.on("message", done);
        child.once("exit", ended);
        child.send({ requestFile });
      }),
    stop: () => {
      child.kill();
    },
  };
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
export function processGroupsBelow(root: number): number[] {
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
