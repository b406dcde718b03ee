/**
 * `npm run bench`: the provider's cost against the floor, measured in one run on one emulator
 * and one dynamic-provider host. Each figure is printed with the command that reproduces it and
 * written to bench/results.json (medians of several runs with their spread). What each figure
 * means and its target: bench/README.md.
 *
 *   node dist/bench/run.js [--quick]
 *                          [--only requests,size,refresh,read,preview,emulator,require,scale,lookup,cli,
 *                                  native,plugin,batch,batch-preview,drift,limited-up]
 *                          [--runs N] [--baseline DIR] [--resources N] [--concurrency N] [--scale-sizes N,M]
 *                          [--cli-sizes N,M] [--cli-checkpoint-sizes N,M]
 *                          [--native-resources N] [--native-runs N] [--batch-records N] [--batch-runs N] [--cpu-prof]
 *                          [--drift-sizes N,M] [--drift-clone-to N]
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { benchEmulator, EmulatorBenchResult } from "./emulator";
import { benchPreview } from "./preview";
import { measureProviderSize } from "./providerSize";
import { adoptGroups, benchRefresh } from "./refresh";
import {
  aboveFloor,
  CountedOperation,
  isAboveFloor,
  countExchangesOverHours,
  countExchangesThroughHost,
  countLookupRequests,
  countResourceRequests,
} from "./requests";
import { benchRequireTime } from "./requireTime";
import { benchEmulatorKinds } from "./emulatorKinds";
import { benchCliScale } from "./cliScale";
import { benchNativeVsDynamic, NATIVE_STEPS } from "./cliNative";
import { BATCH_SETUP, BATCH_TARGETS, benchCliBatch, reportCliBatch } from "./cliBatch";
import { benchCliBatchPreview, reportCliBatchPreview } from "./cliBatchPreview";
import { benchCliDrift, DRIFT_TARGETS, reportCliDrift } from "./cliDrift";
import { benchLimitedUp, LIMITED_UP_SETUP, limitedUpLine, reportLimitedUp } from "./cliLimitedUp";
import { locatePulumiCli } from "../tools/pulumi-cli/find";
import { benchLookupMemory } from "./lookupMemory";
import { benchReadInProcess } from "./readInProcess";
import { benchScale } from "./scale";
import { benchPluginStart, pluginStartLines } from "./pluginStart";
import { describe, fmt, spread } from "./stats";
import { startWorld, World } from "./world";

const FIGURES = [
  "requests",
  "size",
  "refresh",
  "read",
  "preview",
  "emulator",
  "require",
  "scale",
  "lookup",
  "cli",
  "native",
  "batch",
  "batch-preview",
  "plugin",
  "drift",
  "limited-up",
] as const;
type Figure = (typeof FIGURES)[number];

const repoRoot = path.resolve(__dirname, "..", "..");
const resultsPath = path.join(repoRoot, "bench", "results.json");

const TARGETS = {
  refreshOverFloor: 1.1,
  previewOverFloor: 1.1,
  emulatorListRatio: 2,
  requireMs: 25,
  scalePerResourceRatio: 1.1,
  cliOursOverNoop: 1.1,
  nativeOverDynamic: 1,
};

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      only: { type: "string", multiple: true },
      runs: { type: "string" },
      baseline: { type: "string" },
      resources: { type: "string" },
      concurrency: { type: "string" },
      "scale-sizes": { type: "string" },
      "cli-sizes": { type: "string" },
      "cli-checkpoint-sizes": { type: "string" },
      "native-resources": { type: "string" },
      "native-runs": { type: "string" },
      "batch-records": { type: "string" },
      "batch-runs": { type: "string" },
      "cpu-prof": { type: "boolean", default: false },
      "drift-sizes": { type: "string" },
      "drift-clone-to": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      `usage: node dist/bench/run.js [--quick] [--only ${FIGURES.join(",")}] [--runs N] [--baseline DIR] [--resources N] [--concurrency N] [--scale-sizes N,M] [--cli-sizes N,M] [--cli-checkpoint-sizes N,M] [--native-resources N] [--native-runs N] [--batch-records N] [--batch-runs N] [--cpu-prof] [--drift-sizes N,M] [--drift-clone-to N]`,
    );
    process.exit(0);
  }
  const count = (name: string, value: string | undefined, fallback: number, min: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got "${value}"`);
    return n;
  };
  const only = (values.only ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const name of only)
    if (!FIGURES.includes(name as Figure))
      throw new Error(`--only: "${name}" is not a figure; choose from ${FIGURES.join(", ")}`);
  const quick = values.quick;
  return {
    quick,
    figures: new Set<Figure>(only.length ? (only as Figure[]) : FIGURES),
    runs: count("runs", values.runs, quick ? 3 : 5, 1),
    /** Figure 13's earlier build: a folder with its plugin and CLI archives. */
    baseline: values.baseline,
    resources: count("resources", values.resources, quick ? 200 : 1000, 1),
    concurrency: count("concurrency", values.concurrency, 32, 1),
    requireRuns: quick ? 5 : 11,
    breakdownRuns: quick ? 1 : 3,
    emulatorRuns: quick ? 1 : 3,
    repos: quick ? 250 : 450,
    groupLimits: [1, 200, 201, 1000],
    longRunHours: 4,
    longRunBurst: quick ? 4 : 8,
    scaleSizes: sizes("scale-sizes", values["scale-sizes"] ?? (quick ? "200,2000" : "1000,10000")),
    nativeResources: count("native-resources", values["native-resources"], quick ? 200 : 1000, 11),
    nativeRuns: count("native-runs", values["native-runs"], quick ? 1 : 3, 1),
    batchRecords: count("batch-records", values["batch-records"], quick ? 200 : 1000, 5),
    batchRuns: count("batch-runs", values["batch-runs"], quick ? 1 : 3, 1),
    cliSizes: sizes("cli-sizes", values["cli-sizes"] ?? (quick ? "100,1000" : "1000,10000")),
    cliCheckpointSizes: sizes(
      "cli-checkpoint-sizes",
      values["cli-checkpoint-sizes"] ?? (quick ? "50,200" : "250,1000"),
    ),
    cpuProf: values["cpu-prof"],
    driftSizes: sizes("drift-sizes", values["drift-sizes"] ?? (quick ? "200,1000" : "1000,10000")),
    driftCloneTo: count("drift-clone-to", values["drift-clone-to"], quick ? 10_000 : 100_000, 0),
  };
}

function sizes(name: string, text: string): number[] {
  return text.split(",").map((v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: "${v}" is not a positive integer`);
    return n;
  });
}

type Options = ReturnType<typeof options>;

/** The command that reproduces one figure with the same sizes. */
function command(o: Options, figure: Figure): string {
  const flags = [`--only ${figure}`];
  if (o.quick) flags.push("--quick");
  if (["refresh", "preview"].includes(figure))
    flags.push(`--runs ${o.runs}`, `--resources ${o.resources}`, `--concurrency ${o.concurrency}`);
  if (figure === "scale") flags.push(`--scale-sizes ${o.scaleSizes.join(",")}`, `--concurrency ${o.concurrency}`);
  if (figure === "cli")
    flags.push(`--cli-sizes ${o.cliSizes.join(",")}`, `--cli-checkpoint-sizes ${o.cliCheckpointSizes.join(",")}`);
  if (figure === "plugin") flags.push(`--runs ${o.runs}`, ...(o.baseline ? [`--baseline ${o.baseline}`] : []));
  if (figure === "native") flags.push(`--native-resources ${o.nativeResources}`, `--native-runs ${o.nativeRuns}`);
  if (figure === "batch-preview" && o.cpuProf) flags.push("--cpu-prof");
  if (figure === "batch" || figure === "batch-preview")
    flags.push(`--batch-records ${o.batchRecords}`, `--batch-runs ${o.batchRuns}`);
  if (figure === "drift") flags.push(`--drift-sizes ${o.driftSizes.join(",")}`, `--drift-clone-to ${o.driftCloneTo}`);
  if (figure === "read") flags.push(`--runs ${o.runs}`, `--resources ${o.resources}`, `--concurrency ${o.concurrency}`);
  if (figure === "requests") flags.push(`--resources ${o.resources}`, `--concurrency ${o.concurrency}`);
  return `npm run build && node dist/bench/run.js ${flags.join(" ")}`;
}

const results: Record<string, unknown> = {};
const misses: string[] = [];

function heading(o: Options, figure: Figure, title: string): void {
  console.log(`\n${title}\n  $ ${command(o, figure)}`);
}

function record(o: Options, figure: Figure, value: object): void {
  results[figure] = { command: command(o, figure), measuredAt: new Date().toISOString(), quick: o.quick, ...value };
}

function printCounts(ops: CountedOperation[]): void {
  for (const op of ops) {
    const verdict = isAboveFloor(op) ? "ABOVE FLOOR" : "ok";
    console.log(
      `  ${`${op.subject} ${op.operation}`.padEnd(64)} ${String(op.measured).padStart(4)}  floor ${String(op.floor).padStart(3)}  ${verdict}`,
    );
    if (isAboveFloor(op))
      console.log(`      logged: ${op.calls.slice(0, 12).join(" | ")}${op.calls.length > 12 ? " | …" : ""}`);
  }
}

async function figureRequests(o: Options, world: World): Promise<void> {
  heading(o, "requests", "[1] Requests per operation (emulator request log; measured vs floor)");
  const resources = await countResourceRequests(world.h);
  const lookups = await countLookupRequests(world.h, o.groupLimits);
  const exchanges = [
    await countExchangesThroughHost(world.h, world.groupUids, o.concurrency),
    await countExchangesOverHours(world.h.staged, o.longRunHours, o.longRunBurst),
  ];
  const all = [...resources, ...lookups, ...exchanges];
  printCounts(all);
  for (const op of aboveFloor(all))
    misses.push(`[1] ${op.subject} ${op.operation}: measured ${op.measured}, floor ${op.floor}`);
  record(o, "requests", {
    operations: all,
    exchangesPerHour: exchanges[1].measured,
    aboveFloor: aboveFloor(all).map((op) => `${op.subject} ${op.operation}`),
  });
}

function figureSize(o: Options, world: World): void {
  heading(o, "size", "[2] Bytes of __provider per resource (stored in inputs and outputs, sent with every host call)");
  const size = measureProviderSize(world);
  console.log(`  floor (smallest provider object, a module's exports):  ${size.floorBytes} bytes`);
  for (const [type, r] of Object.entries(size.resources)) {
    console.log(
      `  ${type.padEnd(12)} ${String(r.bytes).padStart(5)} bytes  (+${r.overFloor} over the floor; requires ${r.requires.join(", ")})`,
    );
  }
  record(o, "size", size);
}

async function figureRefreshAndPreview(o: Options, world: World): Promise<void> {
  const states = await adoptGroups(world, o.concurrency);
  if (o.figures.has("refresh")) {
    heading(o, "refresh", `[3] Refresh of ${o.resources} groups through the host, concurrency ${o.concurrency}`);
    const r = await benchRefresh(world, states, { runs: o.runs, concurrency: o.concurrency });
    const cpu = (v: keyof typeof r.hostCpuMs) =>
      r.hostCpuMs[v] ? `   host CPU ${fmt(r.hostCpuMs[v].median, 0)} ms` : "";
    console.log(`  ours:                                 ${describe(r.wallMs.ours, "ms", 0)}${cpu("ours")}`);
    console.log(`  (b) floor provider, bare GET:         ${describe(r.wallMs.floor, "ms", 0)}${cpu("floor")}`);
    console.log(
      `  (b+) bare GET answering inputs too:   ${describe(r.wallMs.floorWithInputs, "ms", 0)}${cpu("floorWithInputs")}`,
    );
    console.log(`  (a) plain undici GETs:                ${describe(r.wallMs.plain, "ms", 0)}`);
    console.log(
      `  ours / (b):  ${describe(r.oursOverFloor)}  target ≤ ${TARGETS.refreshOverFloor}  ${r.oursOverFloor.median <= TARGETS.refreshOverFloor ? "ok" : "MISSED"}`,
    );
    console.log(
      `  ours / (b+): ${describe(r.oursOverFloorWithInputs)}   ((b+) / (b): ${fmt(r.floorWithInputsOverFloor.median)})`,
    );
    if (r.hostCpuOursOverFloor)
      console.log(
        `  host CPU ours / (b): ${describe(r.hostCpuOursOverFloor)}   ours / (b+): ${fmt(r.hostCpuOursOverFloorWithInputs!.median)}`,
      );
    console.log(`  ours / (a):  ${describe(r.oursOverPlain)}`);
    console.log(`  requests per resource during a refresh: ${fmt(r.requestsPerResource)} (floor 1)`);
    if (r.oursOverFloor.median > TARGETS.refreshOverFloor)
      misses.push(`[3] refresh ours/(b) ${fmt(r.oursOverFloor.median)} > ${TARGETS.refreshOverFloor}`);
    if (r.requestsPerResource > 1)
      misses.push(`[3] refresh sent ${fmt(r.requestsPerResource)} requests per resource, floor 1`);
    record(o, "refresh", { ...r, target: { oursOverFloor: TARGETS.refreshOverFloor } });
  }
  if (o.figures.has("preview")) {
    heading(
      o,
      "preview",
      `[4] Preview (Check + Diff) of ${o.resources} unchanged groups through the host, concurrency ${o.concurrency}`,
    );
    const p = await benchPreview(world, states, { runs: o.runs, concurrency: o.concurrency });
    console.log(`  ours:   ${describe(p.oursPerResourceMs, "ms per resource", 3)}`);
    console.log(`  floor:  ${describe(p.floorPerResourceMs, "ms per resource", 3)}  (check and diff answer at once)`);
    console.log(
      `  ours / floor: ${describe(p.oursOverFloor)}  target ≤ ${TARGETS.previewOverFloor}  ${p.oursOverFloor.median <= TARGETS.previewOverFloor ? "ok" : "MISSED"}`,
    );
    if (p.hostCpuOursOverFloor)
      console.log(
        `  host CPU ours / floor: ${describe(p.hostCpuOursOverFloor)}   (${fmt(p.hostCpuMs!.ours.median, 0)} vs ${fmt(p.hostCpuMs!.floor.median, 0)} ms per preview)`,
      );
    console.log(`  requests during the previews: ${p.requests} (floor 0)`);
    if (p.oursOverFloor.median > TARGETS.previewOverFloor)
      misses.push(`[4] preview ours/floor ${fmt(p.oursOverFloor.median)} > ${TARGETS.previewOverFloor}`);
    if (p.requests > 0) misses.push(`[4] preview sent ${p.requests} requests, floor 0`);
    record(o, "preview", { ...p, target: { oursOverFloor: TARGETS.previewOverFloor } });
  }
}

async function figureEmulator(o: Options): Promise<void> {
  heading(
    o,
    "emulator",
    "[5] Emulator: a List page of 200 at 1,000 vs 100,000 groups; creates/s with 16 concurrent clients",
  );
  const runs: EmulatorBenchResult[] = [];
  for (let i = 0; i < o.emulatorRuns; i++) runs.push(await benchEmulator());
  const of = (pick: (r: EmulatorBenchResult) => number) => spread(runs.map(pick));
  const e = {
    listPageMsAt1k: of((r) => r.listPageMedianMsAt1k),
    listPageMsAt100k: of((r) => r.listPageMedianMsAt100k),
    listPageRatio: of((r) => r.listPageRatio),
    createsPerSecond: of((r) => r.createsPerSecond),
    createClients: runs[0].createClients,
  };
  console.log(`  list page at 1,000:    ${describe(e.listPageMsAt1k, "ms")}  (each run: median of 200 pages)`);
  console.log(`  list page at 100,000:  ${describe(e.listPageMsAt100k, "ms")}`);
  console.log(
    `  ratio: ${describe(e.listPageRatio)}  target < ${TARGETS.emulatorListRatio}  ${e.listPageRatio.median < TARGETS.emulatorListRatio ? "ok" : "MISSED"}`,
  );
  console.log(`  creates: ${describe(e.createsPerSecond, "/s", 0)} with ${e.createClients} concurrent clients`);
  if (e.listPageRatio.median >= TARGETS.emulatorListRatio)
    misses.push(`[5] emulator list page ratio ${fmt(e.listPageRatio.median)} ≥ ${TARGETS.emulatorListRatio}`);
  const kinds = await benchEmulatorKinds({ samples: o.quick ? 40 : 100 });
  console.log(
    `  every listable kind, median of ${kinds.samples} pages of ${kinds.pageSize} (records cloned from the seed):`,
  );
  for (const k of kinds.kinds) {
    const verdict = k.ratio < TARGETS.emulatorListRatio ? "ok" : "MISSED";
    console.log(
      `    ${k.kind.padEnd(26)} ${fmt(k.medianMsAt1k).padStart(6)} ms at 1,000  ${fmt(k.medianMsAt100k).padStart(6)} ms at 100,000  ratio ${fmt(k.ratio)} ${verdict}`,
    );
    if (k.ratio >= TARGETS.emulatorListRatio)
      misses.push(`[5] emulator list page ratio of ${k.kind} ${fmt(k.ratio)} ≥ ${TARGETS.emulatorListRatio}`);
  }
  if (kinds.notMeasured.length)
    console.log(`    not measured (the seed holds no record to clone): ${kinds.notMeasured.join(", ")}`);
  record(o, "emulator", { ...e, kinds, target: { listPageRatio: TARGETS.emulatorListRatio } });
}

function figureRequire(o: Options, programDir: string): void {
  heading(o, "require", `[6] require("platform-pulumi") beyond require("@pulumi/pulumi"), fresh processes`);
  const profileDir = o.cpuProf ? path.join(repoRoot, ".work", "bench-profiles") : undefined;
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  const r = benchRequireTime(programDir, {
    runs: o.requireRuns,
    breakdownRuns: o.breakdownRuns,
    cpuProfileDir: profileDir,
  });
  console.log(`  @pulumi/pulumi alone:        ${describe(r.pulumiMs, "ms", 1)}`);
  console.log(
    `  platform-pulumi beyond it:   ${describe(r.oursMs, "ms", 1)}  target ≤ ${TARGETS.requireMs}  ${r.oursMs.median <= TARGETS.requireMs ? "ok" : "MISSED"}`,
  );
  console.log(`  where it goes (self time, median; modules first loaded by this require):`);
  for (const b of r.breakdown.filter((b) => b.ms >= 1).slice(0, 12))
    console.log(`    ${b.module.padEnd(56)} ${fmt(b.ms, 1).padStart(6)} ms  ${b.files} files`);
  if (profileDir) console.log(`  CPU profile: ${profileDir} (open in Chrome DevTools)`);
  if (r.oursMs.median > TARGETS.requireMs)
    misses.push(`[6] require time ${fmt(r.oursMs.median, 1)} ms > ${TARGETS.requireMs} ms`);
  record(o, "require", { ...r, target: { oursMs: TARGETS.requireMs } });
}

async function figureScale(o: Options): Promise<void> {
  heading(
    o,
    "scale",
    `[7] Scale: up, preview and refresh of ${o.scaleSizes.join(" and ")} groups through the host, concurrency ${o.concurrency}`,
  );
  const r = await benchScale({ sizes: o.scaleSizes, concurrency: o.concurrency });
  for (const s of r.sizes) {
    const per = (x: { perResourceMs: number; ms: number }) =>
      `${fmt(x.perResourceMs, 3)} ms (${fmt(x.ms / 1000, 1)} s)`;
    console.log(
      `  ${String(s.resources).padStart(6)}: up ${per(s.up)}  preview ${per(s.preview)}  refresh ${per(s.refresh)} per resource;` +
        `  RSS host ${fmt(s.hostRssMb, 0)} MB, program ${fmt(s.programRssMb, 0)} MB`,
    );
  }
  perResourceVerdicts("[7] scale", r.perResourceRatio);
  record(o, "scale", { ...r, target: { perResourceRatio: TARGETS.scalePerResourceRatio } });
}

/** Prints the per-resource ratios of the largest size to the smallest against their target, and notes each miss. */
function perResourceVerdicts(figure: string, ratios: Record<"up" | "preview" | "refresh", number>): void {
  const target = TARGETS.scalePerResourceRatio;
  const verdict = (v: number) => (v <= target ? "ok" : "MISSED");
  console.log(
    `  per resource, largest / smallest: up ${fmt(ratios.up)} ${verdict(ratios.up)}, preview ${fmt(ratios.preview)} ${verdict(ratios.preview)}, refresh ${fmt(ratios.refresh)} ${verdict(ratios.refresh)}  (target ≤ ${target})`,
  );
  for (const [step, v] of Object.entries(ratios))
    if (v > target) misses.push(`${figure} ${step} per resource ratio ${fmt(v)} > ${target}`);
}

async function figureRead(o: Options): Promise<void> {
  heading(
    o,
    "read",
    `[3b] Our read in this process, without the host: ${o.resources} groups read 5 times, concurrency ${o.concurrency}`,
  );
  const r = await benchReadInProcess({ resources: o.resources, runs: o.runs + 2, concurrency: o.concurrency });
  console.log(`  ours (the Group provider's read):        ${describe(r.oursCpuUs, "µs CPU per read", 1)}`);
  console.log(`  bare undici request + body.json():       ${describe(r.bareGetCpuUs, "µs CPU per read", 1)}`);
  console.log(`  ours / bare GET: ${describe(r.oursOverBareGet)}  (the emulator runs in a process of its own)`);
  record(o, "read", { ...r });
}

async function figureLookup(o: Options): Promise<void> {
  const groups = o.quick ? 20_000 : 100_000;
  heading(
    o,
    "lookup",
    `[9] A look-up of ${groups.toLocaleString("en")} groups: memory of the array and of the page walk`,
  );
  const r = await benchLookupMemory({ groups });
  const line = (name: string, x: typeof r.array) =>
    `  ${name} ${String(x.records)} records${x.pages ? ` in ${x.pages} pages` : ""}: live heap peak ${fmt(x.peakHeapOverBaseMb, 1)} MB over the start, ` +
    `held after ${fmt(x.retainedHeapMb, 1)} MB, peak RSS ${fmt(x.peakRssMb, 0)} MB`;
  console.log(line("getGroups (one array):      ", r.array));
  console.log(line("listPages (page by page):   ", r.pages));
  console.log(
    `  array: peak / result ${fmt(r.arrayPeakOverResult)} (1 = each record held once, pages dropped);` +
      ` page walk: peak / array's result ${fmt(r.pagesPeakOverResult)}`,
  );
  record(o, "lookup", { ...r });
}

async function figureCli(o: Options): Promise<void> {
  heading(
    o,
    "cli",
    `[10] The real Pulumi CLI: up and preview --refresh of ${o.cliSizes.join(" and ")} groups, ours beside a no-op dynamic provider`,
  );
  const cli = await locatePulumiCli({ progress: process.stderr });
  const r = await benchCliScale({
    sizes: o.cliSizes,
    checkpointSizes: o.cliCheckpointSizes,
    cliDir: cli.dir,
    cliVersion: cli.version,
  });
  const steps = { up: "up (one checkpoint)", previewRefresh: "preview --refresh" } as const;
  const stepEntries = Object.entries(steps) as [keyof typeof steps, string][];
  const variants = ["ours", "noop", "shaped"] as const;
  const target = TARGETS.cliOursOverNoop;
  const verdict = (v: number, limit = target) => (v <= limit ? "ok" : "MISSED");
  console.log(`  pulumi ${r.cliVersion} (${cli.dir}); fixed cost per run (${r.fixedGroups} resources):`);
  for (const variant of variants)
    console.log(
      `    ${variant.padEnd(6)} ${stepEntries
        .map(
          ([step, name]) =>
            `${name} ${fmt(r.fixed[variant][step].ms / 1000, 1)} s (CPU ${fmt(r.fixed[variant][step].cpuMs / 1000, 1)} s)`,
        )
        .join(", ")}`,
    );
  for (const s of r.sizes) {
    console.log(`  ${String(s.resources).padStart(6)}:`);
    for (const [step, name] of stepEntries) {
      console.log(`          ${name}:`);
      for (const variant of variants) {
        const f = s.variants[variant].steps[step];
        console.log(
          `            ${variant.padEnd(6)} ${fmt(f.ms / 1000, 1).padStart(6)} s, ${fmt(f.perResourceMs, 2)} ms/resource; CPU ${fmt(f.perResourceCpuMs, 2)}` +
            ` (runner ${fmt(f.perResourceRunnerCpuMs, 2)}, CLI+host ${fmt(f.perResourceCliCpuMs, 2)}); runner RSS ${f.runnerPeakRssMb} MB`,
        );
      }
      const [noop, shaped] = [s.oursOverNoop[step], s.oursOverShaped[step]];
      console.log(
        `            ours / no-op per resource: CPU ${fmt(noop.cpu)} (wall ${fmt(noop.wall)})  target ≤ ${target} ${verdict(noop.cpu)};` +
          ` ours / Group-shaped no-op: CPU ${fmt(shaped.cpu)} (wall ${fmt(shaped.wall)}) ${verdict(shaped.cpu)}`,
      );
      if (noop.cpu > target)
        misses.push(`[10] cli ${name} of ${s.resources}: ours / no-op CPU per resource ${fmt(noop.cpu)} > ${target}`);
    }
    console.log(
      `          state file: ${variants.map((v) => `${v} ${fmt(s.variants[v].stateBytes / 1e6, 1)} MB`).join(", ")}`,
    );
  }
  for (const variant of variants)
    for (const [step, name] of stepEntries) {
      const per = r.perResourceRatio[variant][step];
      const whole = r.wholeRunRatio[variant][step];
      const limit = TARGETS.scalePerResourceRatio;
      console.log(
        `  ${variant.padEnd(6)} ${name.padEnd(20)} largest / smallest per resource: CPU ${fmt(per.cpu)} (wall ${fmt(per.wall)}) ${verdict(per.cpu, limit)};` +
          ` whole run / (size ratio × smallest): CPU ${fmt(whole.cpu)} (wall ${fmt(whole.wall)}) ${verdict(whole.cpu, limit)}  (target ≤ ${limit})`,
      );
      if (variant === "ours" && per.cpu > limit)
        misses.push(`[10] cli ${name}: CPU per resource, largest / smallest ${fmt(per.cpu)} > ${limit}`);
    }
  console.log("  the default up, the whole state written after every step (whole runs, fixed cost included):");
  for (const c of r.checkpointed)
    console.log(
      `  ${String(c.resources).padStart(6)}: ${variants
        .map(
          (v) => `${v} ${fmt(c.variants[v].ms / 1000, 1)} s, CPU ${fmt(c.variants[v].perResourceCpuMs, 2)} ms/resource`,
        )
        .join("; ")}`,
    );
  record(o, "cli", {
    ...r,
    target: { oursOverNoop: TARGETS.cliOursOverNoop, perResourceRatio: TARGETS.scalePerResourceRatio },
  });
}

async function figureNative(o: Options): Promise<void> {
  heading(
    o,
    "native",
    `[11] The native provider against the dynamic one under the real Pulumi CLI: preview and preview --refresh of ${o.nativeResources} groups, state bytes`,
  );
  const cli = await locatePulumiCli({ progress: process.stderr });
  const r = await benchNativeVsDynamic({
    resources: o.nativeResources,
    runs: o.nativeRuns,
    cliDir: cli.dir,
    cliVersion: cli.version,
  });
  const names = { preview: "preview", previewRefresh: "preview --refresh" } as const;
  const target = TARGETS.nativeOverDynamic;
  const verdict = (v: number) => (v <= target ? "ok" : "MISSED");
  console.log(
    `  pulumi ${r.cliVersion} (${cli.dir}); ${r.runs} runs of each, alternating; fixed cost (${r.fixedGroups} groups):`,
  );
  for (const variant of ["dynamic", "native"] as const)
    console.log(
      `    ${variant.padEnd(7)} ${NATIVE_STEPS.map((step) => `${names[step]} ${fmt(r.fixed[variant][step].ms / 1000, 1)} s (CPU ${fmt(r.fixed[variant][step].cpuMs / 1000, 1)} s)`).join(", ")}`,
    );
  for (const step of NATIVE_STEPS) {
    console.log(`  ${names[step]} of ${r.resources}:`);
    for (const variant of ["dynamic", "native"] as const) {
      const f = r.variants[variant].steps[step];
      console.log(
        `    ${variant.padEnd(7)} ${fmt(f.ms.median / 1000, 1).padStart(6)} s (${fmt(f.ms.p25 / 1000, 1)}–${fmt(f.ms.p75 / 1000, 1)}), CPU ${fmt(f.cpuMs.median / 1000, 1)} s;` +
          ` per resource ${fmt(f.perResourceMs, 2)} ms, CPU ${fmt(f.perResourceCpuMs, 2)} (runner ${fmt(f.perResourceRunnerCpuMs, 2)}, CLI+provider ${fmt(f.perResourceCliCpuMs, 2)});` +
          ` ${fmt(f.requestsPerResource, 2)} requests/resource`,
      );
    }
    const ratio = r.nativeOverDynamic[step];
    console.log(
      `    native / dynamic: per resource CPU ${fmt(ratio.perResourceCpu)} ${verdict(ratio.perResourceCpu)} (wall ${fmt(ratio.perResourceWall)} ${verdict(ratio.perResourceWall)});` +
        ` whole runs CPU ${fmt(ratio.wholeRunCpu.median)} (${fmt(ratio.wholeRunCpu.min)}–${fmt(ratio.wholeRunCpu.max)}) ${verdict(ratio.wholeRunCpu.median)},` +
        ` wall ${fmt(ratio.wholeRunWall.median)} (${fmt(ratio.wholeRunWall.min)}–${fmt(ratio.wholeRunWall.max)}) ${verdict(ratio.wholeRunWall.median)}  (target ≤ ${target})`,
    );
    const figures: [string, number][] = [
      ["per resource CPU", ratio.perResourceCpu],
      ["per resource wall", ratio.perResourceWall],
      ["whole run CPU", ratio.wholeRunCpu.median],
      ["whole run wall", ratio.wholeRunWall.median],
    ];
    for (const [name, value] of figures)
      if (value > target) misses.push(`[11] native ${names[step]} ${name}: native / dynamic ${fmt(value)} > ${target}`);
    // A refresh reads each record at most once: reads that overlap are answered by one List.
    const floor = step === "preview" ? 0 : 1;
    for (const variant of ["dynamic", "native"] as const)
      if (r.variants[variant].steps[step].requestsPerResource > floor)
        misses.push(
          `[11] native ${names[step]} (${variant}): ${r.variants[variant].steps[step].requestsPerResource} requests per resource, at most ${floor}`,
        );
  }
  for (const variant of ["dynamic", "native"] as const) {
    const s = r.variants[variant].state;
    console.log(
      `  state ${variant.padEnd(7)} ${fmt(r.stateBytesPerResource[variant], 0)} bytes per group in the file (${fmt(s.fileBytes / 1e6, 2)} MB at ${r.resources});` +
        ` one group's entry ${s.entryBytes} bytes, __provider ${s.providerBytes}`,
    );
  }
  const state = r.nativeOverDynamic;
  console.log(
    `    native / dynamic: file bytes per group ${fmt(state.stateBytesPerResource)} ${verdict(state.stateBytesPerResource)}, entry ${fmt(state.entryBytes)} ${verdict(state.entryBytes)}`,
  );
  if (state.stateBytesPerResource > target)
    misses.push(`[11] native state bytes per group: native / dynamic ${fmt(state.stateBytesPerResource)} > ${target}`);
  record(o, "native", { ...r, target: { nativeOverDynamic: target } });
}

async function figureBatch(o: Options): Promise<void> {
  heading(
    o,
    "batch",
    `[12] A drift check against a far-away, rate-limited service under the real Pulumi CLI: preview --refresh of ${o.batchRecords} records, ours beside one GET per record`,
  );
  const cli = await locatePulumiCli({ progress: process.stderr });
  const r = await benchCliBatch({
    ...BATCH_SETUP,
    records: o.batchRecords,
    runs: o.batchRuns,
    cliDir: cli.dir,
    cliVersion: cli.version,
  });
  const report = reportCliBatch(r);
  for (const line of report.lines) console.log(line);
  misses.push(...report.misses);
  record(o, "batch", { ...r, target: BATCH_TARGETS });
}

async function figureBatchPreview(o: Options): Promise<void> {
  heading(
    o,
    "batch-preview",
    `[12b] Figure 12's drift check without its reads: preview (no --refresh) of ${o.batchRecords} records under the real Pulumi CLI, ours beside a trivial dynamic provider of the same graph`,
  );
  const cli = await locatePulumiCli({ progress: process.stderr });
  const profileDir = o.cpuProf ? path.join(repoRoot, ".work", "bench-profiles") : undefined;
  const r = await benchCliBatchPreview({
    ...BATCH_SETUP,
    records: o.batchRecords,
    runs: o.batchRuns,
    cliDir: cli.dir,
    cliVersion: cli.version,
    cpuProfileDir: profileDir,
  });
  for (const line of reportCliBatchPreview(r)) console.log(line);
  if (profileDir) console.log(`  CPU profiles: ${profileDir}/batch-preview-* (open in Chrome DevTools)`);
  record(o, "batch-preview", r);
}

async function figureDrift(o: Options): Promise<void> {
  heading(
    o,
    "drift",
    `[14] platform-pulumi drift beside preview --refresh and refresh --preview-only of ${o.driftSizes.join(" and ")} records under the real Pulumi CLI, against a far-away, rate-limited service`,
  );
  const cli = await locatePulumiCli({ progress: process.stderr });
  const r = await benchCliDrift({
    ...BATCH_SETUP,
    parallel: 64,
    sizes: o.driftSizes,
    cloneTo: o.driftCloneTo,
    cliDir: cli.dir,
    cliVersion: cli.version,
  });
  const report = reportCliDrift(r);
  for (const line of report.lines) console.log(line);
  misses.push(...report.misses);
  // The names themselves are in the run's output when they differ; the results keep their counts.
  const sizes = r.sizes.map((f) => ({
    ...f,
    made: { edited: f.made.edited.length, deleted: f.made.deleted.length, unmanaged: f.made.unmanaged },
    named: Object.fromEntries(Object.entries(f.named).map(([tool, names]) => [tool, names.length])),
  }));
  record(o, "drift", { ...r, sizes, target: DRIFT_TARGETS });
}

/**
 * Against the baseline, sample by sample: the handshake and GetSchema at most 0.3 of its (issue 41),
 * and the first Configure, which waits for the Node.js plugin, no later than the noise allows.
 */
const PLUGIN_TARGETS = { handshake: 0.3, schema: 0.3, configure: 1.1 };

async function figurePlugin(o: Options): Promise<void> {
  heading(
    o,
    "plugin",
    "[13] The plugin's archive (a Go front and its Node.js executable) against the npm package's launcher: size and start-up",
  );
  const r = await benchPluginStart({ runs: o.runs, baseline: o.baseline });
  for (const line of pluginStartLines(r)) console.log(`  ${line}`);
  if (r.baseline) {
    const { ratio } = r.baseline;
    if (ratio.handshake.median > PLUGIN_TARGETS.handshake)
      misses.push(`plugin: handshake ${ratio.handshake.median} of the baseline's (target ${PLUGIN_TARGETS.handshake})`);
    if (ratio.schema.median > PLUGIN_TARGETS.schema)
      misses.push(`plugin: GetSchema ${ratio.schema.median} of the baseline's (target ${PLUGIN_TARGETS.schema})`);
    if (ratio.configure.median > PLUGIN_TARGETS.configure)
      misses.push(
        `plugin: first Configure ${ratio.configure.median} of the baseline's (target ${PLUGIN_TARGETS.configure})`,
      );
  }
  record(o, "plugin", { ...r, ...(r.baseline && { target: PLUGIN_TARGETS }) });
}

async function figureLimitedUp(o: Options): Promise<void> {
  const { records, stacks, parallel, latencyMs, rateLimit } = LIMITED_UP_SETUP;
  heading(
    o,
    "limited-up",
    `[15] up of ${records} records at --parallel ${parallel} against a service ${latencyMs} ms away that allows ${rateLimit} requests a second, on ${stacks} fresh stacks of the dynamic resources and ${stacks} of the native plugin, under the real Pulumi CLI`,
  );
  const cli = await locatePulumiCli({ progress: process.stderr });
  const r = await benchLimitedUp({
    ...LIMITED_UP_SETUP,
    cliDir: cli.dir,
    cliVersion: cli.version,
    progress: (run, i) => process.stderr.write(`  [15]${limitedUpLine(run, i)}\n`),
  });
  const report = reportLimitedUp(r);
  for (const line of report.lines) console.log(line);
  misses.push(...report.misses);
  record(o, "limited-up", r);
}

function writeResults(): void {
  // Figures measured alone replace their own entry; the others keep theirs (each says when).
  let previous: Record<string, unknown> = {};
  try {
    previous = JSON.parse(fs.readFileSync(resultsPath, "utf8"));
  } catch {
    previous = {};
  }
  const merged = {
    ...previous,
    ...results,
    machine: { node: process.version, cpus: require("node:os").cpus().length },
  };
  const rounded = (_key: string, value: unknown) =>
    typeof value === "number" && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value;
  fs.writeFileSync(`${resultsPath}.tmp`, JSON.stringify(merged, rounded, 2) + "\n");
  fs.renameSync(`${resultsPath}.tmp`, resultsPath);
}

async function main(): Promise<void> {
  const o = options();
  const needsWorld = ["requests", "size", "refresh", "preview", "require"].some((f) => o.figures.has(f as Figure));
  console.log(`platform-pulumi benchmarks${o.quick ? " (quick)" : ""}: ${[...o.figures].join(", ")}`);
  const world = needsWorld ? await startWorld({ resources: o.resources, repos: o.repos }) : undefined;
  try {
    if (world && o.figures.has("requests")) await figureRequests(o, world);
    if (world && o.figures.has("size")) figureSize(o, world);
    if (world && (o.figures.has("refresh") || o.figures.has("preview"))) await figureRefreshAndPreview(o, world);
    // The emulator figure starts emulators of its own; the world's host and emulator sit idle meanwhile.
    if (o.figures.has("emulator")) await figureEmulator(o);
    if (world && o.figures.has("require")) figureRequire(o, world.h.staged.dir);
  } finally {
    await world?.close();
  }
  // Each size starts its own emulator and host, after the shared world is gone.
  if (o.figures.has("scale")) await figureScale(o);
  if (o.figures.has("read")) await figureRead(o);
  if (o.figures.has("lookup")) await figureLookup(o);
  if (o.figures.has("cli")) await figureCli(o);
  if (o.figures.has("native")) await figureNative(o);
  if (o.figures.has("batch")) await figureBatch(o);
  if (o.figures.has("batch-preview")) await figureBatchPreview(o);
  if (o.figures.has("plugin")) await figurePlugin(o);
  if (o.figures.has("drift")) await figureDrift(o);
  if (o.figures.has("limited-up")) await figureLimitedUp(o);
  writeResults();
  console.log(`\nWritten: ${path.relative(process.cwd(), resultsPath) || resultsPath}`);
  console.log(
    misses.length
      ? `Above a floor or over a target:\n  ${misses.join("\n  ")}`
      : "Every floor met and every target reached.",
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
