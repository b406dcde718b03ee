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
  remove(): void;
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
  return {
    programDir: program.dir,
    entry: program.entry,
    checkpointFile,
    checkpoint: () =>
      fs.existsSync(checkpointFile) ? (JSON.parse(fs.readFileSync(checkpointFile, "utf8")) as Checkpoint) : undefined,
    run: async (operation, runOptions = {}) => {
      for (const [key, value] of Object.entries(runOptions.config ?? {})) config[key] = { value, secret: false };
      for (const [key, value] of Object.entries(runOptions.secretConfig ?? {})) config[key] = { value, secret: true };
      const resultFile = path.join(scratch, `result-${operation}-${Date.now()}-${Math.random()}.json`);
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
        envVars,
        config,
        resultFile,
      };
      const requestFile = `${resultFile}.request`;
      fs.writeFileSync(requestFile, JSON.stringify(request));
      const runnerOutput = await runRunner(requestFile, program.dir, { ...withoutPlatformEnv(), ...envVars });
      if (!fs.existsSync(resultFile)) throw new Error(`the Automation API runner failed:\n${runnerOutput}`);
      return { ...(JSON.parse(fs.readFileSync(resultFile, "utf8")) as RealCliResult), runnerOutput };
    },
    remove: () => {
      program.remove();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

function runRunner(requestFile: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [runner, requestFile], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("close", () => resolve(output));
  });
}
