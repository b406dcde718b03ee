/**
 * Figure 8: the local engine (tools/engine) at scale. `up`, `preview` and `refresh` of a program
 * of N groups, each a whole engine run (its own process, the real dynamic-provider host, the
 * program run under the engine), for each size on a fresh emulator: the cost per resource at the
 * largest size should stay within 1.1 x the cost at the smallest. Each run's fixed cost (starting
 * node and the host, compiling the program, loading the provider and its libraries on first use)
 * is measured by the same steps over a program of FIXED_GROUPS groups and taken off, so the ratio
 * compares the per-resource work: at 1,000 groups the fixed cost is about half of a run. The
 * engine's and the host's peak RSS are reported per run (the engine prints them with
 * LOCAL_ENGINE_REPORT_MEMORY).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { repoRoot } from "../tools/host/stage";
import { withoutPlatformEnv } from "../tools/orgProject";
import { runEngine } from "../tools/engine/run";
import { timed } from "./stats";

/** A program of `count` groups under `rootUid` (figure 8, and figure 10 through the real CLI). */
export const GROUPS_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const count = Number(config.require("count"));
for (let i = 0; i < count; i++) new platform.iam.Group(\`group-\${i}\`, { parentUid: rootUid, name: \`scale-\${i}\` });
`;

const STEPS = ["up", "preview", "refresh"] as const;
/** The program whose runs stand for each step's fixed cost. */
const FIXED_GROUPS = 10;
type EngineStep = (typeof STEPS)[number];

export interface EngineStepFigure {
  ms: number;
  /** (ms - the same step over FIXED_GROUPS groups) / (resources - FIXED_GROUPS). */
  perResourceMs: number;
  enginePeakRssMb: number;
  hostPeakRssMb: number;
}

export interface EngineScaleSize {
  resources: number;
  /** The state file's bytes after the up. */
  stateBytes: number;
  steps: Record<EngineStep, EngineStepFigure>;
}

export interface EngineScaleResult {
  /** The fixed cost of each step (a program of `fixedGroups` groups), taken off before dividing. */
  fixedMs: Record<EngineStep, number>;
  fixedGroups: number;
  sizes: EngineScaleSize[];
  perResourceRatio: Record<EngineStep, number>;
}

const PEAK = /^Peak RSS: engine (\d+) MB, provider host (\d+|\?) MB$/m;

async function runSize(n: number): Promise<{ stateBytes: number; steps: Record<EngineStep, EngineStepFigure> }> {
  const emu = await startEmulator({ quiet: true, seed: true });
  const dir = path.join(repoRoot, ".work", `bench-engine-${n}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  try {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: engine-scale\nruntime: nodejs\n");
    fs.writeFileSync(path.join(dir, "index.ts"), GROUPS_PROGRAM);
    const state = path.join(dir, "state.json");
    const config = [
      ...["--config", `platform:apiUrl=${emu.url}`, "--secret-config", `platform:token=${emu.token}`],
      ...["--config", `rootUid=${emu.rootUid}`, "--config", `count=${n}`],
    ];
    const env = { ...withoutPlatformEnv(), LOCAL_ENGINE_REPORT_MEMORY: "1" };
    const steps = {} as Record<EngineStep, EngineStepFigure>;
    let stateBytes = 0;
    for (const step of STEPS) {
      const args = step === "preview" ? ["preview", "--expect-no-changes"] : [step];
      let run: Awaited<ReturnType<typeof runEngine>> | undefined;
      const ms = await timed(async () => (run = await runEngine([...args, ...config], { cwd: dir, state, env })));
      if (run!.code !== 0)
        throw new Error(
          `engine ${step} of ${n} groups failed (${run!.code}):\n${(run!.stdout + run!.stderr).slice(-2000)}`,
        );
      const peak = PEAK.exec(run!.stdout);
      steps[step] = {
        ms,
        perResourceMs: NaN,
        enginePeakRssMb: peak ? Number(peak[1]) : NaN,
        hostPeakRssMb: peak ? Number(peak[2]) : NaN,
      };
      if (step === "up") {
        stateBytes = fs.statSync(state).size;
        const created = run!.state?.resources.filter((r) => r.custom).length ?? 0;
        if (created !== n) throw new Error(`engine up of ${n} groups left ${created} in the state`);
      }
    }
    return { stateBytes, steps };
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchEngineScale(options: { sizes: number[] }): Promise<EngineScaleResult> {
  const fixed = await runSize(FIXED_GROUPS);
  const fixedMs = Object.fromEntries(STEPS.map((s) => [s, fixed.steps[s].ms])) as Record<EngineStep, number>;
  const sizes: EngineScaleSize[] = [];
  for (const n of options.sizes) {
    if (n <= FIXED_GROUPS) throw new Error(`--engine-sizes: each size must be above ${FIXED_GROUPS}`);
    const { stateBytes, steps } = await runSize(n);
    for (const step of STEPS)
      steps[step].perResourceMs = Math.max(0, steps[step].ms - fixedMs[step]) / (n - FIXED_GROUPS);
    sizes.push({ resources: n, stateBytes, steps });
  }
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  const perResourceRatio = Object.fromEntries(
    STEPS.map((s) => [s, large.steps[s].perResourceMs / small.steps[s].perResourceMs]),
  ) as Record<EngineStep, number>;
  return { fixedMs, fixedGroups: FIXED_GROUPS, sizes, perResourceRatio };
}
