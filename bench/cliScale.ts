/**
 * Figure 10: `pulumi up` then `pulumi preview --refresh` of N groups under the real CLI, beside a no-op
 * dynamic provider (plain and of the Group's shape), per size on a fresh emulator; the scaled `up` skips
 * checkpoints (the file backend's are O(N²)). What it measures and its targets: bench/README.md [10].
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { reapedChildrenCpuMs } from "../tools/pulumi-cli/automation";
import { localPackage, nodeProgramFolder } from "../tools/pulumi-cli/programFolder";
import { realCliStack, RealCliStack } from "../tools/pulumi-cli/stack";
import { timed } from "./stats";

/** A program of `count` groups under `rootUid`. */
const GROUPS_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const count = Number(config.require("count"));
for (let i = 0; i < count; i++) new platform.iam.Group(\`group-\${i}\`, { parentUid: rootUid, name: \`scale-\${i}\` });
`;

const PROJECT = "cli-scale";
const FIXED_GROUPS = 10;
const STEPS = ["up", "previewRefresh"] as const;
type CliStep = (typeof STEPS)[number];
/**
 * ours: the package's Group. noop: a no-op dynamic provider (the issue's floor). shaped: the same
 * no-op behind a class of the Group's shape (its eleven declared properties) answering a record of
 * the Group's shape, as figure 3's (b+) separates the cost of the larger answer from our code's.
 */
const VARIANTS = ["ours", "noop", "shaped"] as const;
type Variant = (typeof VARIANTS)[number];

const NOOP_PACKAGE = "bench-noop-provider";
const NOOP_PROVIDER = `module.exports = {
  async check(olds, news) { return { inputs: news }; },
  async diff() { return { changes: false }; },
  async create(inputs) { return { id: inputs.name, outs: inputs }; },
  async read(id, props) { return { id, props }; },
};
`;
const SHAPED_PACKAGE = "bench-noop-shaped-provider";
const SHAPED_PROVIDER = `const { createHash } = require("node:crypto");
const TIME = "2026-01-01T00:00:00.000Z";
module.exports = {
  async check(olds, news) { return { inputs: news }; },
  async diff() { return { changes: false }; },
  async create(inputs) {
    const uid = inputs.parentUid + "/" + createHash("sha256").update(inputs.name).digest("hex").slice(0, 16);
    const record = { uid, name: inputs.name, description: "", resourceLimits: {}, verified: false, createTime: TIME, updateTime: TIME };
    return { id: uid, outs: { ...record, parentUid: inputs.parentUid } };
  },
  async read(id, props) {
    return { id, props, inputs: { parentUid: props.parentUid, name: props.name } };
  },
};
`;
const noopProgram = (variant: "noop" | "shaped") => `import * as pulumi from "@pulumi/pulumi";
const provider = require("${variant === "noop" ? NOOP_PACKAGE : SHAPED_PACKAGE}");

class NoOp extends pulumi.dynamic.Resource {}
const shape = ${
  variant === "noop"
    ? "{}"
    : "{ uid: undefined, parentUid: undefined, name: undefined, description: undefined, verified: undefined, " +
      "resourceLimits: undefined, kind: undefined, status: undefined, createTime: undefined, updateTime: undefined, adopted: undefined }"
};
const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const count = Number(config.require("count"));
for (let i = 0; i < count; i++)
  new NoOp(provider, \`group-\${i}\`, { ...shape, parentUid: rootUid, name: \`scale-\${i}\` }, {}, "bench", "NoOp");
`;
const PROGRAMS: Record<Variant, string> = {
  ours: GROUPS_PROGRAM,
  noop: noopProgram("noop"),
  shaped: noopProgram("shaped"),
};

export interface CliStepFigure {
  ms: number;
  cpuMs: number;
  /** (ms - the same step over FIXED_GROUPS) / (resources - FIXED_GROUPS); likewise for CPU. */
  perResourceMs: number;
  perResourceCpuMs: number;
  /** The CPU per resource split: the runner (program, SDK, Automation API), the CLI with its provider host. */
  perResourceRunnerCpuMs: number;
  perResourceCliCpuMs: number;
  runnerPeakRssMb: number;
}

export interface CliVariantFigure {
  steps: Record<CliStep, CliStepFigure>;
  /** The stack's state file after the up. */
  stateBytes: number;
}

export interface CliScaleSize {
  resources: number;
  variants: Record<Variant, CliVariantFigure>;
  /** ours / no-op and ours / the Group-shaped no-op, per resource at this size, wall and CPU. */
  oursOverNoop: Record<CliStep, { wall: number; cpu: number }>;
  oursOverShaped: Record<CliStep, { wall: number; cpu: number }>;
}

export interface CliScaleResult {
  cliVersion: string;
  fixedGroups: number;
  fixed: Record<Variant, Record<CliStep, { ms: number; cpuMs: number }>>;
  sizes: CliScaleSize[];
  /** Per resource at the largest size / at the smallest, wall and CPU, per variant. */
  perResourceRatio: Record<Variant, Record<CliStep, { wall: number; cpu: number }>>;
  /** Whole runs: the largest size's / (the smallest's × the size ratio), the "10,000 ≤ 1.1 × 10 × 1,000". */
  wholeRunRatio: Record<Variant, Record<CliStep, { wall: number; cpu: number }>>;
  /** The default `up`, a checkpoint per step, per size: whole runs (no fixed cost taken off). */
  checkpointed: {
    resources: number;
    variants: Record<Variant, { ms: number; cpuMs: number; perResourceCpuMs: number }>;
  }[];
}

interface StepRun {
  ms: number;
  cpuMs: number;
  runnerCpuMs: number;
  cliCpuMs: number;
  runnerPeakRssMb: number;
  stateBytes: number;
}

type Operation = (stack: RealCliStack) => Promise<Awaited<ReturnType<RealCliStack["run"]>>>;

const OPERATIONS: Record<CliStep | "checkpointedUp", Operation> = {
  up: (stack) => stack.run("up", { env: { PULUMI_SKIP_CHECKPOINTS: "true" } }),
  previewRefresh: (stack) => stack.run("preview", { refresh: true, expectNoChanges: true }),
  checkpointedUp: (stack) => stack.run("up"),
};

/**
 * Runs `steps` on a stack of each variant with N resources, on a fresh emulator, alternating the
 * variants so that each pair of runs sees the same moment of the machine.
 */
async function runSize(
  n: number,
  cliDir: string,
  steps: readonly (keyof typeof OPERATIONS)[],
): Promise<Record<Variant, Record<string, StepRun>>> {
  const emu = await startEmulator({ quiet: true, seed: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `platform-bench-cli-${n}-`));
  const stacks: Partial<Record<Variant, RealCliStack>> = {};
  try {
    const packages = {
      [NOOP_PACKAGE]: localPackage(scratch, NOOP_PACKAGE, NOOP_PROVIDER),
      [SHAPED_PACKAGE]: localPackage(scratch, SHAPED_PACKAGE, SHAPED_PROVIDER),
    };
    for (const variant of VARIANTS) {
      stacks[variant] = realCliStack({
        runnerPerOperation: true,
        programDir: nodeProgramFolder(path.join(scratch, variant), PROJECT, PROGRAMS[variant]),
        project: PROJECT,
        stack: "bench",
        label: `bench-${variant}-${n}`,
        cliDir,
        packages: variant === "ours" ? undefined : packages,
        config: { [`${PROJECT}:rootUid`]: emu.rootUid, [`${PROJECT}:count`]: String(n), "platform:apiUrl": emu.url },
        secretConfig: variant === "ours" ? { "platform:token": emu.token } : {},
      });
    }
    const figures = { ours: {}, noop: {}, shaped: {} } as Awaited<ReturnType<typeof runSize>>;
    for (const step of steps) {
      for (const variant of VARIANTS) {
        const stack = stacks[variant]!;
        const cpuBefore = reapedChildrenCpuMs();
        let run: Awaited<ReturnType<Operation>> | undefined;
        const ms = await timed(async () => (run = await OPERATIONS[step](stack)));
        const cpuMs = reapedChildrenCpuMs() - cpuBefore;
        if (run!.code !== 0)
          throw new Error(
            `${step} of ${n} (${variant}) exited ${run!.code}:\n${(run!.stdout + run!.stderr).slice(-3000)}`,
          );
        const resources = (stack.checkpoint()?.checkpoint.latest?.resources ?? []).filter(
          (r) => r.custom && r.type.startsWith("pulumi-nodejs:dynamic/"),
        );
        if (resources.length !== n)
          throw new Error(`${step} of ${n} (${variant}) left ${resources.length} in the state`);
        const stateBytes = fs.statSync(stack.checkpointFile).size;
        const { runnerPeakRssMb, runnerCpuMs, cliCpuMs } = run!;
        figures[variant][step] = { ms, cpuMs, runnerCpuMs, cliCpuMs, runnerPeakRssMb, stateBytes };
      }
    }
    return figures;
  } finally {
    for (const stack of Object.values(stacks)) stack?.remove();
    await emu.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

export async function benchCliScale(options: {
  sizes: number[];
  checkpointSizes: number[];
  cliDir: string;
  cliVersion: string;
}): Promise<CliScaleResult> {
  for (const n of options.sizes)
    if (n <= FIXED_GROUPS) throw new Error(`--cli-sizes: each size must be above ${FIXED_GROUPS}`);
  const fixed = await runSize(FIXED_GROUPS, options.cliDir, STEPS);
  const sizes: CliScaleSize[] = [];
  for (const n of options.sizes) {
    const run = await runSize(n, options.cliDir, STEPS);
    const variants = {} as Record<Variant, CliVariantFigure>;
    for (const variant of VARIANTS) {
      const steps = {} as Record<CliStep, CliStepFigure>;
      for (const step of STEPS) {
        const measured = run[variant][step];
        const base = fixed[variant][step];
        const perResource = (key: "ms" | "cpuMs" | "runnerCpuMs" | "cliCpuMs") =>
          Math.max(0, measured[key] - base[key]) / (n - FIXED_GROUPS);
        steps[step] = {
          ms: measured.ms,
          cpuMs: measured.cpuMs,
          runnerPeakRssMb: measured.runnerPeakRssMb,
          perResourceMs: perResource("ms"),
          perResourceCpuMs: perResource("cpuMs"),
          perResourceRunnerCpuMs: perResource("runnerCpuMs"),
          perResourceCliCpuMs: perResource("cliCpuMs"),
        };
      }
      variants[variant] = { steps, stateBytes: run[variant].up.stateBytes };
    }
    const over = (floor: Variant) =>
      Object.fromEntries(
        STEPS.map((step) => [
          step,
          {
            wall: variants.ours.steps[step].perResourceMs / variants[floor].steps[step].perResourceMs,
            cpu: variants.ours.steps[step].perResourceCpuMs / variants[floor].steps[step].perResourceCpuMs,
          },
        ]),
      ) as CliScaleSize["oursOverNoop"];
    sizes.push({ resources: n, variants, oursOverNoop: over("noop"), oursOverShaped: over("shaped") });
  }
  const checkpointed: CliScaleResult["checkpointed"] = [];
  for (const n of options.checkpointSizes) {
    const run = await runSize(n, options.cliDir, ["checkpointedUp"]);
    const of = (variant: Variant) => ({
      ms: run[variant].checkpointedUp.ms,
      cpuMs: run[variant].checkpointedUp.cpuMs,
      perResourceCpuMs: run[variant].checkpointedUp.cpuMs / n,
    });
    checkpointed.push({ resources: n, variants: { ours: of("ours"), noop: of("noop"), shaped: of("shaped") } });
  }
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  const byVariant = <T>(of: (variant: Variant, step: CliStep) => T) =>
    Object.fromEntries(
      VARIANTS.map((variant) => [variant, Object.fromEntries(STEPS.map((step) => [step, of(variant, step)]))]),
    ) as Record<Variant, Record<CliStep, T>>;
  const perResourceRatio = byVariant((variant, step) => ({
    wall: large.variants[variant].steps[step].perResourceMs / small.variants[variant].steps[step].perResourceMs,
    cpu: large.variants[variant].steps[step].perResourceCpuMs / small.variants[variant].steps[step].perResourceCpuMs,
  }));
  const scale = large.resources / small.resources;
  const wholeRunRatio = byVariant((variant, step) => ({
    wall: large.variants[variant].steps[step].ms / (scale * small.variants[variant].steps[step].ms),
    cpu: large.variants[variant].steps[step].cpuMs / (scale * small.variants[variant].steps[step].cpuMs),
  }));
  const fixedFigures = byVariant((variant, step) => ({
    ms: fixed[variant][step].ms,
    cpuMs: fixed[variant][step].cpuMs,
  }));
  return {
    cliVersion: options.cliVersion,
    fixedGroups: FIXED_GROUPS,
    fixed: fixedFigures,
    sizes,
    perResourceRatio,
    wholeRunRatio,
    checkpointed,
  };
}
