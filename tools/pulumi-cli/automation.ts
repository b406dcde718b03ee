/**
 * One operation of a stack under the real Pulumi CLI, driven by the Automation API
 * (`@pulumi/pulumi/automation`, LocalWorkspace), in a process of its own that ./stack.ts starts for
 * each operation, as one `pulumi` command per CI step would run.
 *
 * The program is an inline program: this process serves the CLI its language runtime (the CLI's
 * `--client`), loads the staged program with plain `require` (an ES module with `import()`, as the
 * language host does), and so registers its resources from a real Node process, where the closure
 * serializer stores each provider as a bare require. (Jest's module registry hides `require.cache`
 * from the serializer, so the program cannot run in a test.)
 * The CLI runs the dynamic providers in the real host it launches, `pulumi-resource-pulumi-nodejs`.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type * as Automation from "@pulumi/pulumi/automation";
import { isStateSecret, SECRET_KEY } from "../../drift/secretSignature";
import { loadProgram } from "./programModule";
import type { Checkpoint } from "./stack";

/** `export` is `pulumi stack export`: the deployment as the backend holds it, secrets encrypted. */
export type RealCliOperation = "preview" | "up" | "refresh" | "destroy" | "export";

export interface RealCliRequest {
  operation: RealCliOperation;
  /** `--refresh` (preview, up), `--expect-no-changes` (preview, refresh) and `--diff` (preview, up). */
  refresh?: boolean;
  expectNoChanges?: boolean;
  diff?: boolean;
  /** `--parallel`: resource operations in flight at once (the CLI's default: four per CPU). */
  parallel?: number;
  /** `pulumi refresh --preview-only`: what a refresh would change, the state left as it is. */
  previewOnly?: boolean;
  /** Collect the steps that are not `same` from the engine's events (RealCliResult.steps). */
  steps?: boolean;
  /** A file each engine event is appended to as it comes, one JSON line each, for a test to follow the run. */
  eventsFile?: string;
  /** The staged program folder (its Pulumi.yaml names the project): the workspace's work dir. */
  programDir: string;
  /** The compiled program: index.js loaded with require, or index.mjs with import() when `esm`. */
  entry: string;
  esm: boolean;
  project: string;
  stack: string;
  /** A folder holding bin/pulumi: PulumiCommand.get({ root }) uses it, so nothing is downloaded. */
  cliRoot: string;
  /** What `pulumi version` answered for that CLI (e.g. "v3.274.1"), asked once a test process. */
  cliVersion?: string;
  /**
   * The stack exists already (an earlier operation made it): it is not selected again, since every
   * command names it with --stack and the stack's first operation, `stack init`, selected it.
   */
  stackExists?: boolean;
  /** Fetch the stack's outputs after a preview, refresh or destroy (an up's come with its result). */
  outputs?: boolean;
  /** The stack's state file in the file backend: which outputs are secret (see stackOutputs). */
  checkpointFile?: string;
  /**
   * The whole environment of the runner's process, the program's: set for the operation by a runner
   * that serves a stack's operations one after another (`--serve`).
   */
  processEnv?: Record<string, string | undefined>;
  /** The workspace's environment for the CLI: backend, passphrase, PULUMI_HOME, PATH, offline switches. */
  envVars: Record<string, string>;
  /** Stack config to set before the operation, full keys (`project:key`, `platform:key`); may be empty. */
  config: Record<string, { value: string; secret: boolean }>;
  /** Where the RealCliResult is written as JSON. */
  resultFile: string;
}

export interface RealCliResult {
  /** The CLI's exit code. */
  code: number;
  /** What the CLI printed. */
  stdout: string;
  stderr: string;
  /**
   * The stack outputs after an up (or after another operation asked for them with `outputs`), as
   * `pulumi stack output --json --show-secrets` has them; empty after any other operation.
   */
  outputs: Record<string, { value: unknown; secret: boolean }>;
  /** What `pulumi stack export` printed (the `export` operation only), secrets encrypted. */
  deployment?: unknown;
  /** This process's peak resident memory: the inline program's, i.e. the SDK's, for the benchmarks. */
  runnerPeakRssMb: number;
  /**
   * CPU milliseconds of the operation in the runner (the program, the Automation API) and in the
   * CLI (with the host it ran).
   */
  runnerCpuMs: number;
  cliCpuMs: number;
  /** With `steps`: each step of the run that is not `same`, as the engine's events told it. */
  steps?: RealCliStep[];
}

/** A step of a run, from the engine's ResOutputsEvent (or ResOpFailedEvent) of the resource. */
export interface RealCliStep {
  op: string;
  urn: string;
  /** The top-level properties that differ (the engine's `diffs`). */
  diffs: string[];
  /** Whether the step leaves a resource (false: a refresh found it gone, or a delete). */
  exists: boolean;
  failed?: boolean;
}

/** Where a runner's CPU figures start: its own and its reaped children's at the operation's start. */
interface CpuStart {
  runnerCpuMs: number;
  cliCpuMs: number;
}

const cpuNow = (): CpuStart => ({
  runnerCpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  cliCpuMs: reapedChildrenCpuMs(),
});

async function operateOn(request: RealCliRequest, start: CpuStart): Promise<RealCliResult> {
  const load = (id: string) => require(require.resolve(id, { paths: [request.programDir] }));
  const automation = load("@pulumi/pulumi/automation") as typeof Automation;

  const pulumiCommand = await pulumiCommandOf(automation, request);
  const workspace = await automation.LocalWorkspace.create({
    workDir: request.programDir,
    pulumiCommand,
    envVars: request.envVars,
    secretsProvider: "passphrase",
    program: async () => (await loadProgram(request.entry, request.esm)) as Record<string, unknown>,
  });
  if (request.stackExists) workspace.selectStack = async () => {};
  // A new stack is made first (createOrSelect would first try to select it, a process that fails).
  const stack = request.stackExists
    ? await automation.Stack.select(request.stack, workspace)
    : await automation.Stack.create(request.stack, workspace).catch((error: unknown) => {
        // A stack left locked by a killed operation exists too: the story goes on with it.
        if (error instanceof automation.StackAlreadyExistsError || error instanceof automation.ConcurrentUpdateError)
          return automation.Stack.select(request.stack, workspace);
        throw error;
      });
  if (Object.keys(request.config).length > 0) await stack.setAllConfig(request.config);
  // No story reads an update's summary, which up, refresh and destroy would ask `pulumi stack history` for.
  stack.info = async () => undefined;
  const workspaceOutputs = stack.outputs.bind(stack);
  stack.outputs = () => stackOutputs(pulumiCommand.command, request, workspaceOutputs);

  const display = { color: "never" as const };
  // One entry per step, from its events (its start tells the diff, its end what it left).
  const steps = new Map<string, RealCliStep>();
  const onEvent =
    request.steps || request.eventsFile
      ? (event: Automation.EngineEvent) => {
          if (request.eventsFile) fs.appendFileSync(request.eventsFile, `${JSON.stringify(event)}\n`);
          const metadata = (event.resourcePreEvent ?? event.resOutputsEvent ?? event.resOpFailedEvent)?.metadata;
          if (!metadata || metadata.op === "same") return;
          const key = `${metadata.op} ${metadata.urn}`;
          const step = steps.get(key) ?? { op: metadata.op, urn: metadata.urn, diffs: [], exists: true };
          const diffs = new Set([
            ...step.diffs,
            ...(metadata.diffs ?? []),
            ...Object.keys(metadata.detailedDiff ?? {}),
          ]);
          // A step whose event names no differing keys: the properties its old and new states differ in.
          if (diffs.size === 0 && metadata.old && metadata.new) {
            const refreshed = metadata.op === "refresh";
            const before = (refreshed ? metadata.old.outputs : metadata.old.inputs) ?? {};
            const after = (refreshed ? metadata.new.outputs : metadata.new.inputs) ?? {};
            for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
              if (key !== "__provider" && canonical(before[key]) !== canonical(after[key])) diffs.add(key);
          }
          step.diffs = [...diffs].sort();
          step.exists = metadata.new !== undefined && metadata.new !== null;
          if (event.resOpFailedEvent) step.failed = true;
          steps.set(key, step);
        }
      : undefined;
  let code = 0;
  let stdout = "";
  let stderr = "";
  let deployment: unknown;
  let outputs: RealCliResult["outputs"] | undefined;
  try {
    if (request.operation === "export") deployment = await stackExport(pulumiCommand.command, request);
    else {
      const answer = await operate(stack, request.operation, request, { ...display, onEvent });
      ({ stdout, stderr } = answer);
      if ("outputs" in answer) outputs = answer.outputs as RealCliResult["outputs"];
    }
  } catch (error) {
    // A non-zero exit is a CommandError. Its own code reads -2 ("unknown") and its stdout is empty:
    // the CLI's exit code and output are on the process error it keeps (execa's).
    const answer = (error as { commandResult?: CommandResult }).commandResult;
    if (!answer?.err || typeof answer.err.exitCode !== "number") throw error;
    ({ exitCode: code, stdout, stderr } = answer.err);
  }
  const end = cpuNow();
  return {
    code,
    stdout,
    stderr,
    // A failed up's outputs are read after it, as are those another operation was asked for.
    outputs: outputs ?? (request.operation === "up" || request.outputs ? await stack.outputs() : {}),
    deployment,
    runnerPeakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    runnerCpuMs: end.runnerCpuMs - start.runnerCpuMs,
    cliCpuMs: end.cliCpuMs - start.cliCpuMs,
    ...(request.steps ? { steps: [...steps.values()] } : {}),
  };
}

/** One operation in a process of its own: the request read from a file, the result written to one. */
async function main(requestFile: string): Promise<void> {
  const request = JSON.parse(fs.readFileSync(requestFile, "utf8")) as RealCliRequest;
  fs.writeFileSync(request.resultFile, JSON.stringify(await operateOn(request, cpuNow())));
}

/**
 * A stack's operations one after another in one process (`--serve`): the parent sends each
 * request file's path over the IPC channel and is answered when its result is written. Loading
 * the Automation API and the SDK is most of a runner's start, paid here once a stack; what one
 * operation could leave for the next is not kept: the program and the package it loads from its
 * folder are required afresh, the environment is the request's, and what the process prints during
 * the operation is the operation's own output (RealCliRun.runnerOutput).
 */
function serve(): void {
  let output = "";
  for (const stream of [process.stdout, process.stderr]) {
    stream.write = (chunk: string | Uint8Array) => {
      output += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      return true;
    };
  }
  const answer = async (requestFile: string) => {
    output = "";
    const request = JSON.parse(fs.readFileSync(requestFile, "utf8")) as RealCliRequest;
    const { processEnv } = request;
    if (processEnv) {
      for (const name of Object.keys(process.env)) if (!(name in processEnv)) delete process.env[name];
      Object.assign(process.env, processEnv);
    }
    for (const loaded of Object.keys(require.cache))
      if (loaded.startsWith(request.programDir + path.sep)) delete require.cache[loaded];
    try {
      fs.writeFileSync(request.resultFile, JSON.stringify(await operateOn(request, cpuNow())));
    } catch (error) {
      output += error instanceof Error ? (error.stack ?? error.message) : String(error);
    }
    process.send?.({ done: requestFile, output });
  };
  // The harness sends a request only when the one before is answered.
  process.on("message", (message: { requestFile: string }) => void answer(message.requestFile));
  // The stack's harness is gone (its test ended or its worker exited): so is its runner.
  process.on("disconnect", () => process.exit(0));
}

/**
 * The CLI for the Automation API. With its version known, the PulumiCommand is made from it:
 * PulumiCommand.get runs `pulumi version` once more for every operation.
 */
async function pulumiCommandOf(
  automation: typeof Automation,
  request: RealCliRequest,
): Promise<Automation.PulumiCommand> {
  if (!request.cliVersion) return automation.PulumiCommand.get({ root: request.cliRoot });
  const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [request.programDir] }));
  const semver = require(require.resolve("semver", { paths: [sdk] })) as typeof import("semver");
  const version = semver.parse(request.cliVersion);
  if (!version) throw new Error(`not a Pulumi CLI version: ${request.cliVersion}`);
  return Object.assign(Object.create(automation.PulumiCommand.prototype) as Automation.PulumiCommand, {
    command: path.join(request.cliRoot, "bin", "pulumi"),
    version,
  });
}

/** A value as text with its objects' keys sorted: two states of one record compare equal whatever their order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * `pulumi stack export` as a user runs it, secrets encrypted. (The workspace's own exportStack
 * adds --show-secrets, so that importStack can take its answer back.)
 */
async function stackExport(pulumi: string, request: RealCliRequest): Promise<unknown> {
  const { stdout } = await promisify(execFile)(pulumi, ["stack", "export", "--stack", request.stack], {
    cwd: request.programDir,
    env: { ...process.env, ...request.envVars },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

/**
 * The stack's outputs from the state the file backend holds: as they stand when none carries the
 * engine's signature, else from one `pulumi stack output --show-secrets`, each output's secret flag
 * from the state (a secret is stored under the signature). The workspace
 * asks the CLI twice, masked and shown, to tell the secrets by their mask; it still does when the
 * state cannot be read.
 */
async function stackOutputs(
  pulumi: string,
  request: RealCliRequest,
  workspaceOutputs: () => Promise<Automation.OutputMap>,
): Promise<Automation.OutputMap> {
  const state = request.checkpointFile ? readState(request.checkpointFile) : undefined;
  const root = state?.checkpoint.latest?.resources?.find((resource) => resource.type === "pulumi:pulumi:Stack");
  if (!root) return workspaceOutputs();
  const stored = root.outputs ?? {};
  // Plain JSON with no engine signature (a secret, asset or resource reference) is what
  // `stack output --json` would print: no process for it.
  if (!JSON.stringify(stored).includes(SECRET_KEY))
    return Object.fromEntries(Object.entries(stored).map(([key, value]) => [key, { value, secret: false }]));
  const { stdout } = await promisify(execFile)(
    pulumi,
    ["stack", "output", "--json", "--show-secrets", "--stack", request.stack],
    { cwd: request.programDir, env: { ...process.env, ...request.envVars }, maxBuffer: 64 * 1024 * 1024 },
  );
  return Object.fromEntries(
    Object.entries(JSON.parse(stdout) as Record<string, unknown>).map(([key, value]) => [
      key,
      { value, secret: isStateSecret(stored[key]) },
    ]),
  );
}

function readState(file: string): Checkpoint | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Checkpoint;
  } catch {
    // Half-written by a killed operation: the workspace's own way then.
    return undefined;
  }
}

/**
 * CPU milliseconds of this process's children that have ended and been waited for, with theirs
 * (/proc/self/stat cutime + cstime, in ticks of 10 ms): the CLI, and the provider host it ran.
 */
export function reapedChildrenCpuMs(): number {
  if (!fs.existsSync("/proc/self/stat")) return NaN;
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  // After "pid (comm) " the state is field 3; cutime and cstime are fields 16 and 17.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** What the Automation API's CommandError holds (not part of its typed interface). */
interface CommandResult {
  err?: { exitCode?: number; stdout: string; stderr: string };
}

function operate(
  stack: Automation.Stack,
  operation: Exclude<RealCliOperation, "export">,
  { refresh, expectNoChanges, diff, parallel, previewOnly }: RealCliRequest,
  display: { color: "never"; onEvent?: (event: Automation.EngineEvent) => void },
) {
  switch (operation) {
    case "preview":
      return stack.preview({ ...display, refresh, expectNoChanges, diff, parallel });
    case "up":
      return stack.up({ ...display, refresh, diff, parallel });
    case "refresh":
      if (previewOnly) return stack.previewRefresh({ ...display, expectNoChanges, parallel });
      return stack.refresh({ ...display, expectNoChanges, parallel });
    case "destroy":
      return stack.destroy({ ...display });
  }
}

if (require.main === module && process.argv[2] === "--serve") serve();
else if (require.main === module) {
  main(path.resolve(process.argv[2])).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    },
  );
}
