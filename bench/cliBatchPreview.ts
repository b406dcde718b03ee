/**
 * Figure 12b: figure 12's `pulumi preview` without `--refresh`, ours beside a trivial dynamic provider of
 * the same graph, to tell our cost from what any dynamic provider pays (with `cpuProfileDir`, CPU
 * profiles of each). What it measures: bench/README.md [12b].
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { localPackage } from "../tools/pulumi-cli/programFolder";
import type { RealCliRun, RealCliStack } from "../tools/pulumi-cli/stack";
import { describedKinds } from "../native/kinds";
import { kindModel } from "../core/model/kindModel";
import { documentedSchemas } from "../tools/generate/main";
import { BATCH_PER_TEAM, BATCH_PROGRAM, batchStack, BatchFigureOptions, deployBatch, farAway } from "./cliBatch";
import { ratios, spread, Spread, timed } from "./stats";

/**
 * ours: the package's classes. trivial: the trivial provider, its resources declaring only `uid`
 * besides their inputs. shaped: the same trivial provider, its resources declaring every output
 * our class of that kind declares (from the kind's description), so the SDK's work per declared
 * output in the program is the same as ours and what is left is our code.
 */
export const PREVIEW_VARIANTS = ["ours", "trivial", "shaped"] as const;
export type PreviewVariant = (typeof PREVIEW_VARIANTS)[number];

const TRIVIAL_PACKAGE = "bench-trivial-provider";
const TRIVIAL_PROVIDER = `const { randomUUID } = require("node:crypto");
module.exports = {
  async check(olds, news) { return { inputs: news }; },
  async diff() { return { changes: false }; },
  async create(inputs) { const uid = randomUUID(); return { id: uid, outs: { ...inputs, uid } }; },
  async read(id, props) { return { id, props }; },
};
`;

/** Figure 12's program with each class replaced by the trivial provider's resource of the same inputs. */
const trivialProgram = (declared: Record<string, string[]>) => `import * as pulumi from "@pulumi/pulumi";
const provider = require("${TRIVIAL_PACKAGE}");

const declared: Record<string, string[]> = ${JSON.stringify(declared)};
class Trivial extends pulumi.dynamic.Resource {
  public readonly uid!: pulumi.Output<string>;
  constructor(type: string, name: string, args: Record<string, unknown>) {
    const outputs = Object.fromEntries(declared[type].map((output) => [output, undefined]));
    super(provider, name, { ...outputs, uid: undefined, ...args }, {}, "bench", type);
  }
}
const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const roleUid = config.require("roleUid");
const teams = Number(config.require("teams"));
for (let i = 0; i < teams; i++) {
  const team = new Trivial("Group", \`team-\${i}\`, {
    parentUid: rootUid,
    name: \`team-\${i}\`,
    description: \`Team \${i}\`,
  });
  for (const pipeline of ["deploy", "release"]) {
    const identity = new Trivial("Identity", \`team-\${i}-\${pipeline}\`, {
      parentUid: team.uid,
      name: pipeline,
      description: \`GitHub Actions: \${pipeline} of team \${i}\`,
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: \`repo:acme/team-\${i}:environment:\${pipeline}\`,
      },
    });
    new Trivial("RoleBinding", \`team-\${i}-\${pipeline}-viewer\`, {
      groupUid: team.uid,
      identityUid: identity.uid,
      roleUid,
    });
  }
}
`;

/** The outputs our class of each kind of the program declares, as its description has them. */
function declaredOutputs(): Record<string, string[]> {
  const schemas = documentedSchemas();
  return Object.fromEntries(
    describedKinds()
      .filter((kind) => ["Group", "Identity", "RoleBinding"].includes(kind.typeName))
      .map((kind) => [kind.typeName, kindModel(kind, schemas).outputs.map((output) => output.name)]),
  );
}

export interface PreviewRunFigure {
  ms: Spread;
  /** CPU of the program's runner (program, SDK, Automation API) and of the CLI with the provider host. */
  runnerCpuMs: Spread;
  cliCpuMs: Spread;
  requests: number;
}

export interface PreviewParallelFigure {
  parallel: number;
  variants: Record<PreviewVariant, PreviewRunFigure>;
  /** ours / trivial and ours / shaped, run by run. */
  oursOverTrivial: { wall: Spread; runnerCpu: Spread; cliCpu: Spread };
  oursOverShaped: { wall: Spread; runnerCpu: Spread; cliCpu: Spread };
}

export interface ProfileSummary {
  /** Which process: the program's runner or the dynamic-provider host. */
  process: "runner" | "host" | "other";
  totalMs: number;
  /** Self time by package: node_modules/<name>, `(node)` for Node's own, `(program)`, `(idle)` and others. */
  byPackage: Array<{ name: string; ms: number }>;
  /** The functions of platform-pulumi with the most self time. */
  oursTop: Array<{ fn: string; ms: number }>;
}

export interface CliBatchPreviewResult {
  cliVersion: string;
  records: number;
  runs: number;
  latencyMs: number;
  rateLimit: number;
  parallels: PreviewParallelFigure[];
  profiles?: Record<PreviewVariant, ProfileSummary[]>;
}

interface RunRecord {
  ms: number;
  runnerCpuMs: number;
  cliCpuMs: number;
  requests: number;
}

export async function benchCliBatchPreview(
  options: BatchFigureOptions & { cpuProfileDir?: string },
): Promise<CliBatchPreviewResult> {
  const teams = Math.max(1, Math.round(options.records / BATCH_PER_TEAM));
  const records = teams * BATCH_PER_TEAM;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-bench-batch-preview-"));
  const statePath = path.join(scratch, "emulator.json");
  const packages = { [TRIVIAL_PACKAGE]: localPackage(scratch, TRIVIAL_PACKAGE, TRIVIAL_PROVIDER) };
  let emu = await startEmulator({ quiet: true, seed: false, statePath });
  const stacks = {} as Record<PreviewVariant, RealCliStack>;
  const programs: Record<PreviewVariant, string> = {
    ours: BATCH_PROGRAM,
    trivial: trivialProgram({ Group: [], Identity: [], RoleBinding: [] }),
    shaped: trivialProgram(declaredOutputs()),
  };
  try {
    for (const variant of PREVIEW_VARIANTS) {
      stacks[variant] = batchStack({
        scratch,
        label: `batch-preview-${variant}`,
        program: programs[variant],
        emu,
        teams,
        cliDir: options.cliDir,
        packages: variant === "ours" ? undefined : packages,
      });
      await deployBatch(stacks[variant], records);
    }
    emu = await farAway(emu, statePath, { latencyMs: options.latencyMs, rateLimit: options.rateLimit });
    const far = emu;

    const runOne = async (variant: PreviewVariant, parallel: number, env: Record<string, string> = {}) => {
      far.clearRequests();
      let result: RealCliRun | undefined;
      const ms = await timed(
        async () =>
          (result = await stacks[variant].run("preview", {
            parallel,
            steps: true,
            env: { PLATFORM_BATCH_READS: "true", ...env },
          })),
      );
      const run = result!;
      if (run.code !== 0)
        throw new Error(
          `preview --parallel ${parallel} (${variant}) exited ${run.code}:\n${(run.stdout + run.stderr).slice(-3000)}`,
        );
      if ((run.steps ?? []).length !== 0)
        throw new Error(
          `preview (${variant}) planned changes: ${(run.steps ?? [])
            .slice(0, 5)
            .map((s) => `${s.op} ${s.urn}`)
            .join(", ")}`,
        );
      const record: RunRecord = {
        ms,
        runnerCpuMs: run.runnerCpuMs,
        cliCpuMs: run.cliCpuMs,
        requests: far.requests().length,
      };
      return record;
    };

    const byParallel = new Map<number, Record<PreviewVariant, RunRecord[]>>();
    for (const parallel of options.parallels) byParallel.set(parallel, { ours: [], trivial: [], shaped: [] });
    for (let run = 0; run < options.runs; run++)
      for (const parallel of options.parallels) {
        // Each variant goes first in turn.
        const order = PREVIEW_VARIANTS.map((_, i) => PREVIEW_VARIANTS[(i + run) % PREVIEW_VARIANTS.length]);
        for (const variant of order) {
          const record = await runOne(variant, parallel);
          byParallel.get(parallel)![variant].push(record);
          process.stderr.write(
            `  [12b] --parallel ${parallel} ${variant}: ${(record.ms / 1000).toFixed(1)} s, CPU runner ${(record.runnerCpuMs / 1000).toFixed(1)} s, ` +
              `CLI and host ${(record.cliCpuMs / 1000).toFixed(1)} s, ${record.requests} requests\n`,
          );
        }
      }

    let profiles: CliBatchPreviewResult["profiles"];
    if (options.cpuProfileDir) {
      profiles = { ours: [], trivial: [], shaped: [] };
      const parallel = Math.max(...options.parallels);
      for (const variant of PREVIEW_VARIANTS) {
        const dir = path.join(options.cpuProfileDir, `batch-preview-${variant}`);
        fs.rmSync(dir, { recursive: true, force: true });
        fs.mkdirSync(dir, { recursive: true });
        const preload = path.join(scratch, "profile.js");
        fs.writeFileSync(preload, PROFILE_PRELOAD);
        // NODE_OPTIONS refuses --cpu-prof; a preload starts the same profiler in every Node process of the run.
        await runOne(variant, parallel, { NODE_OPTIONS: `--require ${preload}`, BENCH_PROFILE_DIR: dir });
        for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")))
          profiles[variant].push(summarizeProfile(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"))));
      }
    }

    const figure = (runs: RunRecord[]): PreviewRunFigure => ({
      ms: spread(runs.map((r) => r.ms)),
      runnerCpuMs: spread(runs.map((r) => r.runnerCpuMs)),
      cliCpuMs: spread(runs.map((r) => r.cliCpuMs)),
      requests: runs.reduce((n, r) => n + r.requests, 0),
    });
    const over = (runs: RunRecord[], floor: RunRecord[]) => ({
      wall: spread(
        ratios(
          runs.map((r) => r.ms),
          floor.map((r) => r.ms),
        ),
      ),
      runnerCpu: spread(
        ratios(
          runs.map((r) => r.runnerCpuMs),
          floor.map((r) => r.runnerCpuMs),
        ),
      ),
      cliCpu: spread(
        ratios(
          runs.map((r) => r.cliCpuMs),
          floor.map((r) => r.cliCpuMs),
        ),
      ),
    });
    return {
      cliVersion: options.cliVersion,
      records,
      runs: options.runs,
      latencyMs: options.latencyMs,
      rateLimit: options.rateLimit,
      parallels: [...byParallel].map(([parallel, runs]) => ({
        parallel,
        variants: { ours: figure(runs.ours), trivial: figure(runs.trivial), shaped: figure(runs.shaped) },
        oursOverTrivial: over(runs.ours, runs.trivial),
        oursOverShaped: over(runs.ours, runs.shaped),
      })),
      profiles,
    };
  } finally {
    await emu.close();
    for (const stack of Object.values(stacks)) stack.remove();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Profiles the process it is preloaded into from start to exit (also when stopped by SIGINT or
 * SIGTERM, as the CLI ends its plugins): an in-thread inspector session answers at once, so the
 * profile is written before the process goes.
 */
const PROFILE_PRELOAD = `const inspector = require("node:inspector");
const fs = require("node:fs");
const path = require("node:path");
const session = new inspector.Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.setSamplingInterval", { interval: 1000 });
session.post("Profiler.start");
let written = false;
function write() {
  if (written) return;
  written = true;
  session.post("Profiler.stop", (error, answer) => {
    if (!error) fs.writeFileSync(path.join(process.env.BENCH_PROFILE_DIR, process.pid + ".cpuprofile"), JSON.stringify(answer.profile));
  });
}
process.on("exit", write);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => { write(); process.exit(0); });
`;

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** Self time by package and our hottest functions, from a V8 `.cpuprofile`. */
export function summarizeProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const packages = new Map<string, number>();
  const ours = new Map<string, number>();
  let totalUs = 0;
  let process: ProfileSummary["process"] = "other";
  for (const frame of byId.values()) {
    if (frame.url.includes("/dynamic-provider/")) process = "host";
    else if (frame.url.endsWith("automation.js") && process === "other") process = "runner";
  }
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!;
    totalUs += us;
    const name = packageOf(frame.url, frame.functionName);
    packages.set(name, (packages.get(name) ?? 0) + us);
    if (name === "platform-pulumi") {
      const fn = `${frame.functionName || "(anonymous)"} ${frame.url.split("/platform-pulumi/").pop()}:${frame.lineNumber + 1}`;
      ours.set(fn, (ours.get(fn) ?? 0) + us);
    }
  }
  const top = <K extends string>(map: Map<string, number>, key: K, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ [key]: name, ms: Math.round(us / 1000) }) as Record<K, string> & { ms: number });
  return {
    process,
    totalMs: Math.round(totalUs / 1000),
    byPackage: top(packages, "name", 12),
    oursTop: top(ours, "fn", 12),
  };
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(node)";
  if (url.startsWith("node:")) return "(node)";
  const i = url.lastIndexOf("/node_modules/");
  if (i < 0) return "(program)";
  const rest = url.slice(i + "/node_modules/".length).split("/");
  return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
}

/** The figure's lines. */
export function reportCliBatchPreview(r: CliBatchPreviewResult): string[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = [
    `  pulumi ${r.cliVersion}; ${r.records} records; preview without --refresh; the emulator ${r.latencyMs} ms away, ${r.rateLimit} requests a second; ${r.runs} runs of each, alternating`,
  ];
  for (const p of r.parallels) {
    lines.push(`  --parallel ${p.parallel}:`);
    for (const variant of PREVIEW_VARIANTS) {
      const v = p.variants[variant];
      lines.push(
        `    ${variant.padEnd(7)} ${s(v.ms.median).padStart(7)} (${s(v.ms.min)}–${s(v.ms.max)}); CPU runner ${s(v.runnerCpuMs.median)}, CLI and host ${s(v.cliCpuMs.median)}; ${v.requests} requests`,
      );
    }
    for (const [floor, o] of [
      ["trivial", p.oursOverTrivial],
      ["shaped", p.oursOverShaped],
    ] as const)
      lines.push(
        `    ours / ${floor}: wall ${o.wall.median.toFixed(2)} (${o.wall.min.toFixed(2)}–${o.wall.max.toFixed(2)}), runner CPU ${o.runnerCpu.median.toFixed(2)}, CLI and host CPU ${o.cliCpu.median.toFixed(2)}`,
      );
  }
  for (const [variant, summaries] of Object.entries(r.profiles ?? {}))
    for (const p of summaries) {
      lines.push(
        `  profile ${variant} ${p.process}: ${s(p.totalMs)} sampled; ${p.byPackage
          .slice(0, 6)
          .map((b) => `${b.name} ${s(b.ms)}`)
          .join(", ")}`,
      );
      for (const f of p.oursTop.slice(0, 5)) lines.push(`    ${s(f.ms).padStart(7)} ${f.fn}`);
    }
  return lines;
}
