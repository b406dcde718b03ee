/**
 * Figure 11: the native provider against the dynamic one under the real CLI: two stacks of N groups,
 * `preview` and `preview --refresh` alternating between them, the native program declaring every
 * schema property as a generated SDK does. What it measures and its targets: bench/README.md [11].
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { packageSchema } from "../native/schema";
import { reapedChildrenCpuMs } from "../tools/pulumi-cli/automation";
import type { CheckpointResource } from "../tools/pulumi-cli/stack";
import { realCliStack, RealCliStack } from "../tools/pulumi-cli/stack";
import { ratios, spread, Spread, timed } from "./stats";

const PROJECT = "cli-native";
const FIXED_GROUPS = 10;
const NATIVE_TYPE = "platform:iam:Group";
const DYNAMIC_TYPE = "pulumi-nodejs:dynamic/iam:Group";

export const NATIVE_STEPS = ["preview", "previewRefresh"] as const;
export type NativeStep = (typeof NATIVE_STEPS)[number];
export const PROVIDERS = ["dynamic", "native"] as const;
export type ProviderVariant = (typeof PROVIDERS)[number];

const GROUPS = (declare: string) => `
const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const prefix = config.require("prefix");
const count = Number(config.require("count"));
for (let i = 0; i < count; i++) ${declare};
`;

const DYNAMIC_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";
${GROUPS("new platform.iam.Group(`group-${i}`, { parentUid: rootUid, name: `${prefix}-${i}` })")}`;

/** The native program: the Group's properties, from the package schema, declared as a generated SDK class does. */
function nativeProgram(): string {
  const spec = packageSchema("0.0.0").resources[NATIVE_TYPE];
  const declared = [...new Set([...Object.keys(spec.properties ?? {}), ...Object.keys(spec.inputProperties ?? {})])];
  return `import * as pulumi from "@pulumi/pulumi";
const declared = Object.fromEntries(${JSON.stringify(declared)}.map((key) => [key, undefined]));
${GROUPS(`new pulumi.CustomResource("${NATIVE_TYPE}", \`group-\${i}\`, { ...declared, parentUid: rootUid, name: \`\${prefix}-\${i}\` })`)}`;
}

const PULUMI_YAML = `name: ${PROJECT}
runtime: nodejs
plugins:
  providers:
    - name: platform
      path: node_modules/platform-pulumi/native
`;

const OPERATIONS: Record<NativeStep, (stack: RealCliStack) => ReturnType<RealCliStack["run"]>> = {
  preview: (stack) => stack.run("preview", { expectNoChanges: true }),
  previewRefresh: (stack) => stack.run("preview", { refresh: true, expectNoChanges: true }),
};

interface StepRuns {
  ms: number[];
  cpuMs: number[];
  runnerCpuMs: number[];
  cliCpuMs: number[];
  /** Requests the emulator logged during each run. */
  requests: number[];
}

interface SizeRuns {
  steps: Record<ProviderVariant, Record<NativeStep, StepRuns>>;
  state: Record<ProviderVariant, StateFigure>;
}

export interface StateFigure {
  /** The stack's state file after the deployment. */
  fileBytes: number;
  /** The median of one group's entry in it, as compact JSON. */
  entryBytes: number;
  /** The median of the `__provider` text in one group's inputs and outputs together. */
  providerBytes: number;
}

export interface NativeStepFigure {
  ms: Spread;
  cpuMs: Spread;
  /** (median - the fixed run's median) / (resources - FIXED_GROUPS). */
  perResourceMs: number;
  perResourceCpuMs: number;
  perResourceRunnerCpuMs: number;
  perResourceCliCpuMs: number;
  /** Requests per resource the emulator logged in a run (0 for preview, at most 1 for preview --refresh). */
  requestsPerResource: number;
}

export interface NativeVsDynamicResult {
  cliVersion: string;
  resources: number;
  runs: number;
  fixedGroups: number;
  variants: Record<ProviderVariant, { steps: Record<NativeStep, NativeStepFigure>; state: StateFigure }>;
  fixed: Record<ProviderVariant, Record<NativeStep, { ms: number; cpuMs: number }>>;
  /** State file bytes per group: (file at N - file at FIXED_GROUPS) / (N - FIXED_GROUPS). */
  stateBytesPerResource: Record<ProviderVariant, number>;
  /** native / dynamic: per resource (fixed cost off) from the medians, and whole runs run by run. */
  nativeOverDynamic: Record<
    NativeStep,
    { perResourceCpu: number; perResourceWall: number; wholeRunCpu: Spread; wholeRunWall: Spread }
  > & { stateBytesPerResource: number; entryBytes: number };
}

async function runSize(
  emu: RunningEmulator,
  n: number,
  runs: number,
  cliDir: string,
  scratch: string,
): Promise<SizeRuns> {
  const stacks = {} as Record<ProviderVariant, RealCliStack>;
  try {
    for (const variant of PROVIDERS) {
      const programDir = path.join(scratch, `${variant}-${n}`);
      fs.mkdirSync(programDir);
      fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), PULUMI_YAML);
      fs.writeFileSync(path.join(programDir, "index.ts"), variant === "native" ? nativeProgram() : DYNAMIC_PROGRAM);
      stacks[variant] = realCliStack({
        runnerPerOperation: true,
        programDir,
        project: PROJECT,
        stack: "bench",
        label: `native-bench-${variant}-${n}`,
        cliDir,
        config: {
          [`${PROJECT}:rootUid`]: emu.rootUid,
          [`${PROJECT}:count`]: String(n),
          [`${PROJECT}:prefix`]: `${variant}-${n}`,
          "platform:apiUrl": emu.url,
        },
        secretConfig: { "platform:token": emu.token },
      });
    }
    const state = {} as SizeRuns["state"];
    for (const variant of PROVIDERS) {
      const up = await stacks[variant].run("up", { env: { PULUMI_SKIP_CHECKPOINTS: "true" } });
      if (up.code !== 0)
        throw new Error(`up of ${n} (${variant}) exited ${up.code}:\n${(up.stdout + up.stderr).slice(-3000)}`);
      state[variant] = stateOf(stacks[variant], variant, n);
    }
    const steps = { dynamic: {}, native: {} } as SizeRuns["steps"];
    for (const variant of PROVIDERS)
      for (const step of NATIVE_STEPS)
        steps[variant][step] = { ms: [], cpuMs: [], runnerCpuMs: [], cliCpuMs: [], requests: [] };
    for (let run = 0; run < runs; run++) {
      for (const step of NATIVE_STEPS) {
        const order = run % 2 === 0 ? PROVIDERS : [...PROVIDERS].reverse();
        for (const variant of order) {
          emu.clearRequests();
          const cpuBefore = reapedChildrenCpuMs();
          let result: Awaited<ReturnType<RealCliStack["run"]>> | undefined;
          const ms = await timed(async () => (result = await OPERATIONS[step](stacks[variant])));
          const cpuMs = reapedChildrenCpuMs() - cpuBefore;
          if (result!.code !== 0)
            throw new Error(
              `${step} of ${n} (${variant}) exited ${result!.code}:\n${(result!.stdout + result!.stderr).slice(-3000)}`,
            );
          const into = steps[variant][step];
          into.ms.push(ms);
          into.cpuMs.push(cpuMs);
          into.runnerCpuMs.push(result!.runnerCpuMs);
          into.cliCpuMs.push(result!.cliCpuMs);
          into.requests.push(emu.requests().length);
        }
      }
    }
    return { steps, state };
  } finally {
    for (const stack of Object.values(stacks)) stack.remove();
  }
}

function stateOf(stack: RealCliStack, variant: ProviderVariant, n: number): StateFigure {
  const type = variant === "native" ? NATIVE_TYPE : DYNAMIC_TYPE;
  const groups = (stack.checkpoint()?.checkpoint.latest?.resources ?? []).filter((r) => r.type === type);
  if (groups.length !== n) throw new Error(`up of ${n} (${variant}) left ${groups.length} groups in the state`);
  const providerText = (r: CheckpointResource) =>
    [r.inputs?.__provider, r.outputs?.__provider].reduce<number>(
      (sum, text) => sum + (typeof text === "string" ? Buffer.byteLength(text) : 0),
      0,
    );
  const state: StateFigure = {
    fileBytes: fs.statSync(stack.checkpointFile).size,
    entryBytes: spread(groups.map((r) => Buffer.byteLength(JSON.stringify(r)))).median,
    providerBytes: spread(groups.map(providerText)).median,
  };
  if (variant === "native" && groups.some((r) => providerText(r) > 0 || "__provider" in (r.outputs ?? {})))
    throw new Error("the native provider's state holds a __provider");
  return state;
}

export async function benchNativeVsDynamic(options: {
  resources: number;
  runs: number;
  cliDir: string;
  cliVersion: string;
}): Promise<NativeVsDynamicResult> {
  const n = options.resources;
  if (n <= FIXED_GROUPS) throw new Error(`--native-resources must be above ${FIXED_GROUPS}`);
  const emu = await startEmulator({ quiet: true, seed: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-bench-native-"));
  try {
    const fixed = await runSize(emu, FIXED_GROUPS, options.runs, options.cliDir, scratch);
    const sized = await runSize(emu, n, options.runs, options.cliDir, scratch);
    const median = (values: number[]) => spread(values).median;
    const variants = {} as NativeVsDynamicResult["variants"];
    const fixedFigures = {} as NativeVsDynamicResult["fixed"];
    for (const variant of PROVIDERS) {
      const steps = {} as Record<NativeStep, NativeStepFigure>;
      fixedFigures[variant] = {} as Record<NativeStep, { ms: number; cpuMs: number }>;
      for (const step of NATIVE_STEPS) {
        const [big, small] = [sized.steps[variant][step], fixed.steps[variant][step]];
        const perResource = (key: "ms" | "cpuMs" | "runnerCpuMs" | "cliCpuMs") =>
          Math.max(0, median(big[key]) - median(small[key])) / (n - FIXED_GROUPS);
        steps[step] = {
          ms: spread(big.ms),
          cpuMs: spread(big.cpuMs),
          perResourceMs: perResource("ms"),
          perResourceCpuMs: perResource("cpuMs"),
          perResourceRunnerCpuMs: perResource("runnerCpuMs"),
          perResourceCliCpuMs: perResource("cliCpuMs"),
          requestsPerResource: median(big.requests) / n,
        };
        fixedFigures[variant][step] = { ms: median(small.ms), cpuMs: median(small.cpuMs) };
      }
      variants[variant] = { steps, state: sized.state[variant] };
    }
    const stateBytesPerResource = Object.fromEntries(
      PROVIDERS.map((v) => [v, (sized.state[v].fileBytes - fixed.state[v].fileBytes) / (n - FIXED_GROUPS)]),
    ) as Record<ProviderVariant, number>;
    const nativeOverDynamic = {
      stateBytesPerResource: stateBytesPerResource.native / stateBytesPerResource.dynamic,
      entryBytes: sized.state.native.entryBytes / sized.state.dynamic.entryBytes,
    } as NativeVsDynamicResult["nativeOverDynamic"];
    for (const step of NATIVE_STEPS) {
      const [native, dynamic] = [variants.native.steps[step], variants.dynamic.steps[step]];
      const [nativeRuns, dynamicRuns] = [sized.steps.native[step], sized.steps.dynamic[step]];
      nativeOverDynamic[step] = {
        perResourceCpu: native.perResourceCpuMs / dynamic.perResourceCpuMs,
        perResourceWall: native.perResourceMs / dynamic.perResourceMs,
        wholeRunCpu: spread(ratios(nativeRuns.cpuMs, dynamicRuns.cpuMs)),
        wholeRunWall: spread(ratios(nativeRuns.ms, dynamicRuns.ms)),
      };
    }
    return {
      cliVersion: options.cliVersion,
      resources: n,
      runs: options.runs,
      fixedGroups: FIXED_GROUPS,
      variants,
      fixed: fixedFigures,
      stateBytesPerResource,
      nativeOverDynamic,
    };
  } finally {
    await emu.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
