/**
 * Figure 12: `pulumi preview --refresh` of a drifted stack under the real CLI against an emulator 50 ms
 * away that allows 50 requests a second, with reads batched (ours) and one GET per read (`today`,
 * `platform:batchReads false`), alternating. What it measures and its targets: bench/README.md [12].
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BUILTIN_ROLES, startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { call } from "../tools/orgApi";
import { reapedChildrenCpuMs } from "../tools/pulumi-cli/automation";
import { nodeProgramFolder } from "../tools/pulumi-cli/programFolder";
import { realCliStack, RealCliRun, RealCliStack, RealCliStep } from "../tools/pulumi-cli/stack";
import { ratios, spread, Spread, timed } from "./stats";

const PROJECT = "cli-batch";
export const BATCH_VARIANTS = ["ours", "today"] as const;
export type BatchVariant = (typeof BATCH_VARIANTS)[number];
/** Records per team: its group, two identities, two role bindings. */
export const BATCH_PER_TEAM = 5;

export const BATCH_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const roleUid = config.require("roleUid");
const teams = Number(config.require("teams"));
for (let i = 0; i < teams; i++) {
  const team = new platform.iam.Group(\`team-\${i}\`, {
    parentUid: rootUid,
    name: \`team-\${i}\`,
    description: \`Team \${i}\`,
  });
  for (const pipeline of ["deploy", "release"]) {
    const identity = new platform.iam.Identity(\`team-\${i}-\${pipeline}\`, {
      parentUid: team.uid,
      name: pipeline,
      description: \`GitHub Actions: \${pipeline} of team \${i}\`,
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: \`repo:acme/team-\${i}:environment:\${pipeline}\`,
      },
    });
    new platform.iam.RoleBinding(\`team-\${i}-\${pipeline}-viewer\`, {
      groupUid: team.uid,
      identityUid: identity.uid,
      roleUid,
    });
  }
}
`;

export interface BatchRunFigure {
  ms: Spread;
  cpuMs: Spread;
  /** Every request the emulator logged (429s included) per record of the stack. */
  requestsPerRecord: Spread;
  /** Of those, answered 429 (summed over the runs). */
  rateLimited: number;
  /** From the first request the emulator logged to the answer of the last one (ms). */
  readsWindowMs: Spread;
  /** Steps that failed (a read that ran out of retries, among others), summed over the runs. */
  failedSteps: number;
}

export interface BatchParallelFigure {
  parallel: number;
  variants: Record<BatchVariant, BatchRunFigure>;
  /**
   * `preview` of the same stack without `--refresh`, with our provider, in the same run: the
   * program, every resource's Check and Diff and the CLI's own work, everything of a drift check
   * but its reads. No provider's reads can bring a `preview --refresh` below it.
   */
  previewOnly: { ms: Spread; requests: number };
  /** ours / today, run by run; `previewOnly`: the preview without its reads over `today`'s whole run. */
  oursOverToday: { wall: Spread; readsWindow: Spread; requests: Spread; previewOnly: Spread };
}

export interface CliBatchResult {
  cliVersion: string;
  records: number;
  runs: number;
  latencyMs: number;
  rateLimit: number;
  /** What was changed behind the program's back, by kind: edited and deleted. */
  drift: { edited: number; deleted: number; urns: string[] };
  /** Whether every run of both variants reported exactly the same drift, naming exactly the records changed. */
  driftIdentical: boolean;
  /** The drift as the runs reported it (one run's; all were the same when driftIdentical). */
  reported: string[];
  parallels: BatchParallelFigure[];
}

interface RunRecord {
  ms: number;
  cpuMs: number;
  requests: number;
  rateLimited: number;
  readsWindowMs: number;
  failedSteps: number;
  drift: string[];
}

/** A step as one line: the drift a user reads in the preview. */
const stepLine = (step: RealCliStep) =>
  `${step.op} ${step.urn.split("::").pop()}${step.exists ? "" : " (gone)"}${step.diffs.length ? ` [${step.diffs.join(",")}]` : ""}`;

/**
 * The records the preview plans to change: those edited (an update) and deleted (a create) behind
 * the program's back. (A role binding's refresh also shows its group's new description, which
 * it carries: a change of the binding's outputs that plans nothing.)
 */
export function changedRecords(drift: string[]): string[] {
  return [...new Set(drift.filter((line) => !line.startsWith("refresh ")).map((line) => line.split(" ")[1]))].sort();
}

/** The refreshed records that changed or are gone, and the changes the preview then plans: one line each, sorted. */
export function driftOf(steps: RealCliStep[]): string[] {
  const found = steps.filter((s) => !(s.op === "refresh" && s.exists && s.diffs.length === 0));
  return found.map(stepLine).sort();
}

/** A resource of a stack's checkpoint, as the console edits pick them. */
type CheckpointResource = { urn: string; type: string; id?: string; custom?: boolean };

/**
 * Console edits spread evenly over a stack's records: `edits` groups and as many identities get a
 * new description, `deletes` role bindings are deleted. Returns the resources edited and deleted.
 */
export async function consoleEdits(
  emu: RunningEmulator,
  resources: CheckpointResource[],
  edits: number,
  deletes: number,
): Promise<{ edited: CheckpointResource[]; deleted: CheckpointResource[] }> {
  const ofType = (suffix: string) => resources.filter((r) => r.custom && r.type.endsWith(suffix) && r.id);
  const spreadOver = <T>(list: T[], n: number) =>
    Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
  const edited: CheckpointResource[] = [];
  for (const [suffix, collection] of [
    ["iam:Group", "groups"],
    ["iam:Identity", "identities"],
  ] as const)
    for (const r of spreadOver(ofType(suffix), edits)) {
      await call(emu, "PATCH", `/iam/v2beta1/${collection}/${r.id}?updateMask=description`, {
        description: "edited in the console",
      });
      edited.push(r);
    }
  const deleted: CheckpointResource[] = [];
  for (const r of spreadOver(ofType("iam:RoleBinding"), deletes)) {
    await call(emu, "DELETE", `/iam/v2beta1/roleBindings/${r.id}`);
    deleted.push(r);
  }
  return { edited, deleted };
}

/** Edits `edits` groups and as many identities, deletes `deletes` role bindings, spread over the stack. */
async function makeDrift(
  emu: RunningEmulator,
  stack: RealCliStack,
  edits: number,
  deletes: number,
): Promise<CliBatchResult["drift"]> {
  const resources = stack.checkpoint()?.checkpoint.latest?.resources ?? [];
  const { edited, deleted } = await consoleEdits(emu, resources, edits, deletes);
  return { edited: 2 * edits, deleted: deletes, urns: [...edited, ...deleted].map((r) => r.urn).sort() };
}

/**
 * Closes `emu` and starts it again from its state file, at the same address, answering `latencyMs`
 * late and limiting each token to `rateLimit` requests a second: the same records, now far away.
 * At the same address a refresh reads with the provider's settings as the last deployment recorded them.
 */
export async function farAway(
  emu: RunningEmulator,
  statePath: string,
  limits: { latencyMs: number; rateLimit: number },
): Promise<RunningEmulator> {
  const port = Number(new URL(emu.url).port);
  await emu.close();
  return startEmulator({ port, quiet: true, seed: false, statePath, ...limits });
}

/**
 * A stack of figure 12's config (the root, the viewer role, `teams`) for `program` on `emu`, in a
 * folder of `scratch` named by `label`; `packages` are the local packages the program requires.
 */
export function batchStack(options: {
  scratch: string;
  label: string;
  program: string;
  emu: RunningEmulator;
  teams: number;
  cliDir: string;
  packages?: Record<string, string>;
}): RealCliStack {
  const { emu } = options;
  return realCliStack({
    runnerPerOperation: true,
    programDir: nodeProgramFolder(path.join(options.scratch, options.label), PROJECT, options.program),
    project: PROJECT,
    stack: "bench",
    label: options.label,
    cliDir: options.cliDir,
    packages: options.packages,
    config: {
      [`${PROJECT}:rootUid`]: emu.rootUid,
      [`${PROJECT}:roleUid`]: BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid,
      [`${PROJECT}:teams`]: String(options.teams),
      "platform:apiUrl": emu.url,
    },
    secretConfig: { "platform:token": emu.token },
  });
}

/** `up` of a batch stack, without checkpoints; throws unless every one of its `records` is in the state. */
export async function deployBatch(stack: RealCliStack, records: number): Promise<void> {
  const up = await stack.run("up", { env: { PULUMI_SKIP_CHECKPOINTS: "true" } });
  if (up.code !== 0) throw new Error(`up of ${records} exited ${up.code}:\n${(up.stdout + up.stderr).slice(-3000)}`);
  const deployed = (stack.checkpoint()?.checkpoint.latest?.resources ?? []).filter(
    (r) => r.custom && r.type.startsWith("pulumi-nodejs:dynamic/") && r.id,
  );
  if (deployed.length !== records) throw new Error(`up of ${records} left ${deployed.length} records in the state`);
}

/** What figures 12 and 12b are run with: the stack's size, the runs, the far-away service, the CLI. */
export interface BatchFigureOptions {
  records: number;
  parallels: number[];
  runs: number;
  latencyMs: number;
  rateLimit: number;
  cliDir: string;
  cliVersion: string;
}

export async function benchCliBatch(options: BatchFigureOptions): Promise<CliBatchResult> {
  const teams = Math.max(1, Math.round(options.records / BATCH_PER_TEAM));
  const records = teams * BATCH_PER_TEAM;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-bench-batch-"));
  const statePath = path.join(scratch, "emulator.json");
  let emu = await startEmulator({ quiet: true, seed: false, statePath });
  const stack = batchStack({
    scratch,
    label: "batch-bench",
    program: BATCH_PROGRAM,
    emu,
    teams,
    cliDir: options.cliDir,
  });
  try {
    await deployBatch(stack, records);
    const drift = await makeDrift(
      emu,
      stack,
      Math.max(1, Math.round(records / 100)),
      Math.max(1, Math.round(records / 100)),
    );
    emu = await farAway(emu, statePath, { latencyMs: options.latencyMs, rateLimit: options.rateLimit });
    const far = emu;

    const runOne = async (variant: BatchVariant, parallel: number): Promise<RunRecord> => {
      far.clearRequests();
      const cpuBefore = reapedChildrenCpuMs();
      let result: RealCliRun | undefined;
      const ms = await timed(
        async () =>
          (result = await stack.run("preview", {
            refresh: true,
            parallel,
            steps: true,
            // From the environment: a refresh reads with the provider's config as the last deployment recorded it.
            env: { PLATFORM_BATCH_READS: variant === "ours" ? "true" : "false" },
          })),
      );
      const cpuMs = reapedChildrenCpuMs() - cpuBefore;
      const run = result!;
      if (run.code !== 0)
        throw new Error(
          `preview --refresh --parallel ${parallel} (${variant}) exited ${run.code}:\n${(run.stdout + run.stderr).slice(-3000)}`,
        );
      const logged = far.requests();
      const times = logged.map((r) => Date.parse(r.time));
      const steps = run.steps ?? [];
      return {
        ms,
        cpuMs,
        requests: logged.length,
        rateLimited: logged.filter((r) => r.status === 429).length,
        readsWindowMs: logged.length ? Math.max(...times) - Math.min(...times) + options.latencyMs : 0,
        failedSteps: steps.filter((s) => s.failed).length,
        drift: driftOf(steps),
      };
    };

    /** The same preview without --refresh: what the drift check costs but its reads. */
    const previewOnly = async (parallel: number): Promise<{ ms: number; requests: number }> => {
      far.clearRequests();
      let result: RealCliRun | undefined;
      const ms = await timed(
        async () => (result = await stack.run("preview", { parallel, env: { PLATFORM_BATCH_READS: "true" } })),
      );
      if (result!.code !== 0)
        throw new Error(
          `preview --parallel ${parallel} exited ${result!.code}:\n${(result!.stdout + result!.stderr).slice(-3000)}`,
        );
      return { ms, requests: far.requests().length };
    };

    const byParallel = new Map<number, Record<BatchVariant, RunRecord[]>>();
    const previews = new Map<number, Array<{ ms: number; requests: number }>>();
    for (const parallel of options.parallels) {
      byParallel.set(parallel, { ours: [], today: [] });
      previews.set(parallel, []);
    }
    for (let run = 0; run < options.runs; run++)
      for (const parallel of options.parallels) {
        const order = run % 2 === 0 ? BATCH_VARIANTS : [...BATCH_VARIANTS].reverse();
        for (const variant of order) {
          const record = await runOne(variant, parallel);
          byParallel.get(parallel)![variant].push(record);
          process.stderr.write(
            `  [12] --parallel ${parallel} ${variant}: ${(record.ms / 1000).toFixed(1)} s, ${record.requests} requests ` +
              `(${record.rateLimited} answered 429), reads ${(record.readsWindowMs / 1000).toFixed(1)} s, drift ${record.drift.length}\n`,
          );
        }
        const preview = await previewOnly(parallel);
        previews.get(parallel)!.push(preview);
        process.stderr.write(
          `  [12] --parallel ${parallel} preview without --refresh: ${(preview.ms / 1000).toFixed(1)} s, ${preview.requests} requests\n`,
        );
      }

    const all = [...byParallel.values()].flatMap((v) => [...v.ours, ...v.today]);
    const reported = all[0]?.drift ?? [];
    const urnsReported = changedRecords(reported);
    const urnsChanged = drift.urns.map((urn) => urn.split("::").pop()!).sort();
    const driftIdentical =
      all.every((r) => JSON.stringify(r.drift) === JSON.stringify(reported)) &&
      JSON.stringify(urnsReported) === JSON.stringify(urnsChanged);

    const figure = (runs: RunRecord[]): BatchRunFigure => ({
      ms: spread(runs.map((r) => r.ms)),
      cpuMs: spread(runs.map((r) => r.cpuMs)),
      requestsPerRecord: spread(runs.map((r) => r.requests / records)),
      rateLimited: runs.reduce((n, r) => n + r.rateLimited, 0),
      readsWindowMs: spread(runs.map((r) => r.readsWindowMs)),
      failedSteps: runs.reduce((n, r) => n + r.failedSteps, 0),
    });
    const parallels: BatchParallelFigure[] = [...byParallel].map(([parallel, runs]) => ({
      parallel,
      variants: { ours: figure(runs.ours), today: figure(runs.today) },
      previewOnly: {
        ms: spread(previews.get(parallel)!.map((p) => p.ms)),
        requests: previews.get(parallel)!.reduce((n, p) => n + p.requests, 0),
      },
      oursOverToday: {
        previewOnly: spread(
          ratios(
            previews.get(parallel)!.map((p) => p.ms),
            runs.today.map((r) => r.ms),
          ),
        ),
        wall: spread(
          ratios(
            runs.ours.map((r) => r.ms),
            runs.today.map((r) => r.ms),
          ),
        ),
        readsWindow: spread(
          ratios(
            runs.ours.map((r) => r.readsWindowMs),
            runs.today.map((r) => r.readsWindowMs),
          ),
        ),
        requests: spread(
          ratios(
            runs.ours.map((r) => r.requests),
            runs.today.map((r) => r.requests),
          ),
        ),
      },
    }));
    return {
      cliVersion: options.cliVersion,
      records,
      runs: options.runs,
      latencyMs: options.latencyMs,
      rateLimit: options.rateLimit,
      drift,
      driftIdentical,
      reported,
      parallels,
    };
  } finally {
    await emu.close();
    stack.remove();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The far-away service of figure 12 and the engine's parallelism it is measured at. */
export const BATCH_SETUP = { latencyMs: 50, rateLimit: 50, parallels: [8, 64] };

/** The issue's targets for figure 12. */
export const BATCH_TARGETS = {
  /** Requests (all the emulator logged, 429s included) per record, at each --parallel. */
  requestsPerRecord: { 8: 0.2, 64: 0.1 } as Record<number, number>,
  /** Ours / today's wall time at --parallel 64. */
  wallAt64: 0.25,
};

/** The figure's lines, and what it missed. */
export function reportCliBatch(r: CliBatchResult): { lines: string[]; misses: string[] } {
  const lines: string[] = [];
  const misses: string[] = [];
  const f = (value: number, digits = 2) => value.toFixed(digits);
  const s = (ms: number) => `${f(ms / 1000, 1)} s`;
  const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");
  lines.push(
    `  pulumi ${r.cliVersion}; ${r.records} records; the emulator ${r.latencyMs} ms away, ${r.rateLimit} requests a second per token; ${r.runs} runs of each, alternating`,
  );
  for (const p of r.parallels) {
    lines.push(`  --parallel ${p.parallel}:`);
    for (const variant of BATCH_VARIANTS) {
      const v = p.variants[variant];
      lines.push(
        `    ${variant.padEnd(5)} ${s(v.ms.median).padStart(7)} (${s(v.ms.min)}–${s(v.ms.max)}), CPU ${s(v.cpuMs.median)}; reads ${s(v.readsWindowMs.median)};` +
          ` ${f(v.requestsPerRecord.median, 3)} requests/record, ${v.rateLimited} answered 429, ${v.failedSteps} steps failed`,
      );
    }
    lines.push(
      `    preview without --refresh ${s(p.previewOnly.ms.median).padStart(7)} (${s(p.previewOnly.ms.min)}–${s(p.previewOnly.ms.max)}), ${p.previewOnly.requests} requests: ` +
        `everything but the reads, ${f(p.oursOverToday.previewOnly.median)} of today's whole run (no provider's reads go below it)`,
    );
    const target = BATCH_TARGETS.requestsPerRecord[p.parallel];
    const perRecord = p.variants.ours.requestsPerRecord.max;
    const ratio = p.oursOverToday;
    lines.push(
      `    ours / today: wall ${f(ratio.wall.median)} (${f(ratio.wall.min)}–${f(ratio.wall.max)}), reads ${f(ratio.readsWindow.median)}, requests ${f(ratio.requests.median, 3)}` +
        (target === undefined ? "" : `; requests/record ≤ ${target} ${verdict(perRecord <= target)}`) +
        (p.parallel === 64
          ? `; wall ≤ ${BATCH_TARGETS.wallAt64} ${verdict(ratio.wall.median <= BATCH_TARGETS.wallAt64)}`
          : ""),
    );
    if (target !== undefined && perRecord > target)
      misses.push(`[12] --parallel ${p.parallel}: ${f(perRecord, 3)} requests per record > ${target}`);
    if (p.parallel === 64 && ratio.wall.median > BATCH_TARGETS.wallAt64)
      misses.push(
        `[12] --parallel 64: wall ours / today ${f(ratio.wall.median)} > ${BATCH_TARGETS.wallAt64} (reads alone ${f(ratio.readsWindow.median)}; ` +
          `the preview without its reads is ${f(ratio.previewOnly.median)} of today's run)`,
      );
    for (const variant of BATCH_VARIANTS)
      if (p.variants[variant].failedSteps > 0)
        misses.push(`[12] --parallel ${p.parallel} (${variant}): ${p.variants[variant].failedSteps} steps failed`);
  }
  lines.push(
    `  drift: ${r.reported.length} lines, the records changed ${r.drift.edited} edited and ${r.drift.deleted} deleted; the same in every run and naming exactly those: ${verdict(r.driftIdentical)}`,
  );
  if (!r.driftIdentical) misses.push("[12] the drift reported differs between runs or from the records changed");
  return { lines, misses };
}
