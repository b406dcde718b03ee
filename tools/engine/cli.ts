#!/usr/bin/env node
/**
 * The local engine's command line: one operation per process, like one `pulumi` invocation, so
 * every run gets a fresh Pulumi runtime. A test and demo tool, not part of the package:
 *
 *   node dist/tools/engine/cli.js preview|up|refresh|destroy [--stack dev] [--cwd DIR]
 *        [--config key=value]... [--secret-config key=value]... [--state FILE]
 *        [--refresh] [--expect-no-changes] [--esm]
 *
 * See tools/engine/README.md for how it works and where it differs from the real engine.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import * as YAML from "yaml";
import { startHost, ProviderHost } from "../host/host";
import { repoRoot } from "../host/stage";
import { Deployment, messageOf, nameOf, SkippedAfterError } from "./deployment";
import { runProgram } from "./program";
import { pendingReport, resolvePendingOperations } from "./pending";
import { driftLines, refreshState } from "./refresh";
import { withParallelLimit } from "./parallel";
import { stageProgram } from "../pulumi-cli/stageProgram";
import { loadState, PendingOperation, saveState, StackState } from "./state";
import { isSecretValue, Props } from "./wire";

const OPERATIONS = ["preview", "up", "refresh", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];

class UsageError extends Error {}

interface Invocation {
  operation: Operation;
  stack: string;
  projectDir: string;
  programDir: string;
  project: string;
  config: Record<string, string>;
  secretKeys: string[];
  stateFile: string;
  refresh: boolean;
  expectNoChanges: boolean;
  esm: boolean;
  packages?: Record<string, string>;
  parallel: number;
}

/** Provider calls in flight at once unless --parallel says otherwise. */
const DEFAULT_PARALLEL = 64;

function parseInvocation(argv: string[]): Invocation {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      stack: { type: "string", short: "s", default: "dev" },
      cwd: { type: "string", short: "C" },
      config: { type: "string", short: "c", multiple: true, default: [] },
      "secret-config": { type: "string", multiple: true, default: [] },
      state: { type: "string" },
      refresh: { type: "boolean", short: "r", default: false },
      "expect-no-changes": { type: "boolean", default: false },
      esm: { type: "boolean", default: false },
      // Test-only: install these folders as packages instead of the built platform-pulumi.
      package: { type: "string", multiple: true, default: [] },
      // Accepted for command-line compatibility with `pulumi`; the engine never prompts.
      yes: { type: "boolean", short: "y", default: false },
      "skip-preview": { type: "boolean", default: false },
      // As `pulumi up --parallel`: provider calls in flight at once.
      parallel: { type: "string", short: "p", default: String(DEFAULT_PARALLEL) },
    },
  });
  const operation = positionals[0] as Operation;
  if (positionals.length !== 1 || !OPERATIONS.includes(operation)) {
    throw new UsageError(`expected one operation: ${OPERATIONS.join(", ")} (got ${JSON.stringify(positionals)})`);
  }
  const projectDir = path.resolve(values.cwd ?? process.cwd());
  const { name: project, main } = readProject(projectDir);
  const config: Record<string, string> = {};
  const secretKeys: string[] = [];
  const put = (pair: string, secret: boolean) => {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--config expects key=value, got ${JSON.stringify(pair)}`);
    const rawKey = pair.slice(0, at);
    // A bare key belongs to the project, as with `pulumi config set`.
    const key = rawKey.includes(":") ? rawKey : `${project}:${rawKey}`;
    config[key] = pair.slice(at + 1);
    if (secret) secretKeys.push(key);
  };
  for (const pair of values.config) put(pair, false);
  for (const pair of values["secret-config"]) put(pair, true);
  const packages = values.package.length
    ? Object.fromEntries(
        values.package.map((spec) => {
          const at = spec.indexOf("=");
          if (at <= 0) throw new UsageError(`--package expects name=folder, got ${JSON.stringify(spec)}`);
          return [spec.slice(0, at), path.resolve(spec.slice(at + 1))];
        }),
      )
    : undefined;
  return {
    operation,
    stack: values.stack,
    projectDir,
    programDir: path.resolve(projectDir, main ?? "."),
    project,
    config,
    secretKeys,
    stateFile: path.resolve(
      values.state ?? path.join(repoRoot, ".work", "engine-state", `${project}-${values.stack}.json`),
    ),
    refresh: values.refresh,
    expectNoChanges: values["expect-no-changes"],
    esm: values.esm,
    packages,
    parallel: parallelOf(values.parallel),
  };
}

function parallelOf(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--parallel expects a whole number >= 1, got ${JSON.stringify(text)}`);
  return n;
}

/** The two Pulumi.yaml fields the engine needs: the project name and where the program is. */
function readProject(dir: string): { name: string; main?: string } {
  const file = path.join(dir, "Pulumi.yaml");
  if (!fs.existsSync(file)) throw new UsageError(`no Pulumi.yaml in ${dir} (use --cwd to point at a Pulumi project)`);
  let project: unknown;
  try {
    project = YAML.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`${file} is not valid YAML: ${messageOf(error)}`);
  }
  const { name, main } = (project ?? {}) as { name?: unknown; main?: unknown };
  if (typeof name !== "string" || name === "") throw new UsageError(`${file} has no name`);
  if (main !== undefined && typeof main !== "string") throw new UsageError(`${file}: main must be a path`);
  return { name, main };
}

async function main(argv: string[]): Promise<number> {
  const started = Date.now();
  const inv = parseInvocation(argv);
  const print = (line = "") => process.stdout.write(line + "\n");

  // The SDK reads its configuration from the environment when it first loads, as under the CLI.
  process.env.PULUMI_CONFIG = JSON.stringify(inv.config);
  process.env.PULUMI_CONFIG_SECRET_KEYS = JSON.stringify(inv.secretKeys);

  const unhandled: unknown[] = [];
  process.on("unhandledRejection", (reason) => unhandled.push(reason));

  const state = loadState(inv.stateFile, inv.project, inv.stack);
  const staged = stageProgram({
    programDir: inv.programDir,
    stack: inv.stack,
    esm: inv.esm,
    salt: inv.stateFile,
    packages: inv.packages,
  });
  // The host boots in its own process while this one compiles the program and loads the SDK:
  // each takes most of a second.
  const hostStarting = startHost({
    cwd: staged.dir,
    env: { ...process.env, PULUMI_PROJECT: inv.project, PULUMI_STACK: inv.stack },
  });
  let host: ProviderHost | undefined;
  try {
    if (inv.operation !== "refresh" && inv.operation !== "destroy") {
      staged.compile();
      preloadSdk(staged.dir);
    }
    host = await hostStarting;
    await host.configure(inv.config);
    const code = await operate(inv, state, withParallelLimit(host, inv.parallel), staged, print, unhandled);
    print(`Duration: ${((Date.now() - started) / 1000).toFixed(1)}s`);
    // For the benchmarks (bench/engineScale.ts): the memory a run took, engine and provider host.
    if (process.env.LOCAL_ENGINE_REPORT_MEMORY)
      print(
        `Peak RSS: engine ${Math.round(process.resourceUsage().maxRSS / 1024)} MB, provider host ${peakRssMb(host.pid)} MB`,
      );
    return code;
  } finally {
    await (host ?? (await hostStarting.catch(() => undefined)))?.close();
    staged.remove();
  }
}

/** A process's peak resident memory in MB from /proc (Linux), or "?" where it cannot be read. */
function peakRssMb(pid: number): string {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? String(Math.round(Number(match[1]) / 1024)) : "?";
  } catch {
    return "?";
  }
}

/** Loads the program's @pulumi/pulumi ahead of the program, while the host boots (runProgram gets it cached). */
function preloadSdk(dir: string): void {
  require(require.resolve("@pulumi/pulumi", { paths: [dir] }));
}

async function operate(
  inv: Invocation,
  state: StackState,
  host: ProviderHost,
  staged: { dir: string; entry: string },
  print: (line?: string) => void,
  unhandled: unknown[],
): Promise<number> {
  const title = { preview: "Previewing update", up: "Updating", refresh: "Refreshing", destroy: "Destroying" }[
    inv.operation
  ];
  const module = inv.esm ? "ES module" : "CommonJS";
  print(
    `${title} (${inv.stack}) with the local engine [${inv.project}, ${path.relative(repoRoot, inv.programDir) || "."}, ${module}]`,
  );
  print();

  const save = inv.operation !== "preview";
  if (state.pendingOperations?.length) {
    print("Pending operations from an interrupted run:");
    if (!save) {
      for (const line of pendingReport(state)) print(line);
    } else {
      const resolved = await resolvePendingOperations(state, host);
      for (const line of resolved.lines) print(line);
      saveState(inv.stateFile, state);
      if (resolved.errors.length > 0) return diagnostics(print, resolved.errors, "resolving pending operations failed");
    }
    print();
  }
  if (inv.refresh || inv.operation === "refresh") {
    const refreshed = await refreshState(state, host);
    print(inv.operation === "refresh" ? "Refresh:" : `Refresh${save ? "" : " (in memory, not saved)"}:`);
    for (const line of driftLines(refreshed.drift)) print(line);
    print();
    if (refreshed.errors.length > 0) return diagnostics(print, refreshed.errors, "refresh failed");
    if (save) saveState(inv.stateFile, state);
    if (inv.operation === "refresh") return 0;
  }

  const deployment = new Deployment({
    state,
    stateFile: save ? inv.stateFile : undefined,
    host,
    preview: inv.operation === "preview",
    print,
    afterCall: holdAfter(process.env.LOCAL_ENGINE_HOLD_AFTER, host, print),
  });
  try {
    return await deploy(inv, deployment, state, staged, print, unhandled);
  } finally {
    // The steps are in the journal; one full save makes them the snapshot and starts a new journal.
    deployment.close();
    if (save) saveState(inv.stateFile, state);
  }
}

async function deploy(
  inv: Invocation,
  deployment: Deployment,
  state: StackState,
  staged: { dir: string; entry: string },
  print: (line?: string) => void,
  unhandled: unknown[],
): Promise<number> {
  if (inv.operation === "destroy") {
    print(`     ${"Type".padEnd(40)} ${"Name".padEnd(24)} Status`);
    await deployment.destroy();
    deployment.printPlan();
    return deployment.failed ? diagnostics(print, deployment.errors, "destroy failed") : 0;
  }

  if (inv.operation === "up") print(`     ${"Type".padEnd(40)} ${"Name".padEnd(24)} Status`);
  const program = await runProgram({
    dir: staged.dir,
    entry: staged.entry,
    esm: inv.esm,
    project: inv.project,
    stack: inv.stack,
    preview: inv.operation === "preview",
    hooks: { register: (registration) => deployment.register(registration) },
  });
  // Errors the program caused itself (a throw, a failed look-up) — unless a step failure already explains them.
  const programErrors = [program.error, ...unhandled]
    .filter((e) => e !== undefined && !(e instanceof SkippedAfterError))
    // A missing module's message carries node's require stack: the first line says it all.
    .map(
      (e) =>
        `the program failed: ${(e as { code?: string }).code === "MODULE_NOT_FOUND" ? messageOf(e).split("\n")[0] : messageOf(e)}`,
    );
  if (!deployment.failed && programErrors.length > 0) {
    deployment.printPlan();
    return diagnostics(print, programErrors.slice(0, 1), `${inv.operation} failed`);
  }
  await deployment.finish();
  await deployment.setStackOutputs(program.outputs);
  deployment.printPlan();
  if (deployment.failed) return diagnostics(print, deployment.errors, `${inv.operation} failed`);
  if (inv.operation === "up") printOutputs(print, state.outputs);
  if (inv.expectNoChanges) {
    const changes = deployment.changeSummaries();
    if (changes.length > 0) {
      print();
      print("error: no changes were expected but changes were proposed:");
      for (const line of changes) print(line);
      return 255;
    }
  }
  return 0;
}

/**
 * Test-only: `LOCAL_ENGINE_HOLD_AFTER=creating:<name>` (or updating:, deleting:) stops the run
 * for good right after that provider call answered and before its result is saved, and says
 * so on stdout, so a test can kill the engine exactly between the service's change and the
 * state's.
 */
function holdAfter(
  spec: string | undefined,
  host: ProviderHost,
  print: (line?: string) => void,
): ((op: PendingOperation, quiesce: () => Promise<void>) => Promise<void>) | undefined {
  if (!spec) return undefined;
  return async (op, quiesce) => {
    if (`${op.operation}:${nameOf(op.resource.urn)}` !== spec) return;
    // Calls already under way end first (and are journaled): the kill then leaves exactly this
    // operation pending, whichever of two concurrent creates answered first.
    await quiesce();
    print(`held after ${op.operation} ${op.resource.urn} (engine pid ${process.pid}, host pid ${host.pid})`);
    await new Promise<void>(() => undefined);
  };
}

function diagnostics(print: (line?: string) => void, errors: string[], verdict: string): number {
  print();
  print("Diagnostics:");
  for (const error of errors) print(`    error: ${error}`);
  print(`error: ${verdict}`);
  return 255;
}

function printOutputs(print: (line?: string) => void, outputs: Props): void {
  const keys = Object.keys(outputs);
  if (keys.length === 0) return;
  print();
  print("Outputs:");
  for (const key of keys) {
    const text = renderOutput(outputs[key]);
    print(`    ${key}: ${text.split("\n").join("\n    ")}`);
  }
}

function renderOutput(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (isSecretValue(value)) return "[secret]";
  const masked = JSON.parse(JSON.stringify(value), (_key, v) => (isSecretValue(v) ? "[secret]" : v));
  return JSON.stringify(masked, null, 2);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stdout.write(`error: ${messageOf(error)}\n`);
    process.exit(error instanceof UsageError ? 2 : 255);
  },
);
