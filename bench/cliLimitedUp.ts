/**
 * Figure 15: `pulumi up` of figure 12's program on fresh stacks against a rate-limited emulator, dynamic
 * and native; every `up` must succeed, its wall time set against the rate limit's floor. What it
 * measures and its targets: bench/README.md [15].
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BUILTIN_ROLES, startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { packageSchema } from "../native/schema";
import { nodeProgramFolder } from "../tools/pulumi-cli/programFolder";
import { realCliStack } from "../tools/pulumi-cli/stack";
import type { RealCliRun, RealCliStack } from "../tools/pulumi-cli/stack";
import { BATCH_PER_TEAM, BATCH_PROGRAM, batchStack } from "./cliBatch";
import { timed } from "./stats";

/** The package's dynamic resources, or the native plugin's (the provider the engine starts from the package). */
export const LIMITED_UP_PROVIDERS = ["dynamic", "native"] as const;
export type LimitedUpProvider = (typeof LIMITED_UP_PROVIDERS)[number];

const NATIVE_PROJECT = "limited-up-native";

/**
 * Figure 12's graph on the native plugin: each resource registered as a generated SDK's class
 * registers it, every property of the schema declared (as in figure 11).
 */
function nativeProgram(): string {
  const declared = Object.fromEntries(
    ["Group", "Identity", "RoleBinding"].map((name) => {
      const spec = packageSchema("0.0.0").resources[`platform:iam:${name}`];
      return [name, [...new Set([...Object.keys(spec.properties ?? {}), ...Object.keys(spec.inputProperties ?? {})])]];
    }),
  );
  return `import * as pulumi from "@pulumi/pulumi";

const declared: Record<string, string[]> = ${JSON.stringify(declared)};
const resource = (kind: string, name: string, props: Record<string, unknown>): any =>
  new pulumi.CustomResource(\`platform:iam:\${kind}\`, name, {
    ...Object.fromEntries(declared[kind].map((key) => [key, undefined])),
    ...props,
  });
const config = new pulumi.Config();
const rootUid = config.require("rootUid");
const roleUid = config.require("roleUid");
const teams = Number(config.require("teams"));
for (let i = 0; i < teams; i++) {
  const team = resource("Group", \`team-\${i}\`, { parentUid: rootUid, name: \`team-\${i}\`, description: \`Team \${i}\` });
  for (const pipeline of ["deploy", "release"]) {
    const identity = resource("Identity", \`team-\${i}-\${pipeline}\`, {
      parentUid: team.uid,
      name: pipeline,
      description: \`GitHub Actions: \${pipeline} of team \${i}\`,
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: \`repo:acme/team-\${i}:environment:\${pipeline}\`,
      },
    });
    resource("RoleBinding", \`team-\${i}-\${pipeline}-viewer\`, { groupUid: team.uid, identityUid: identity.uid, roleUid });
  }
}
`;
}

function nativeStack(
  scratch: string,
  label: string,
  emu: RunningEmulator,
  teams: number,
  cliDir: string,
): RealCliStack {
  const programDir = nodeProgramFolder(path.join(scratch, label), NATIVE_PROJECT, nativeProgram());
  fs.writeFileSync(
    path.join(programDir, "Pulumi.yaml"),
    `name: ${NATIVE_PROJECT}\nruntime: nodejs\nplugins:\n  providers:\n    - name: platform\n      path: node_modules/platform-pulumi/native\n`,
  );
  return realCliStack({
    runnerPerOperation: true,
    programDir,
    project: NATIVE_PROJECT,
    stack: "bench",
    label,
    cliDir,
    config: {
      [`${NATIVE_PROJECT}:rootUid`]: emu.rootUid,
      [`${NATIVE_PROJECT}:roleUid`]: BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid,
      [`${NATIVE_PROJECT}:teams`]: String(teams),
      "platform:apiUrl": emu.url,
    },
    secretConfig: { "platform:token": emu.token },
  });
}

export interface LimitedUpRun {
  provider: LimitedUpProvider;
  ms: number;
  /** The requests the service accepted over its rate, in ms: the least any client could take. */
  floorMs: number;
  requests: number;
  rateLimited: number;
  /** Records in the stack's state after the `up`; `records` when it succeeded. */
  deployed: number;
  /** The `up`'s exit code, and the end of its output when it failed. */
  code: number;
  failure?: string;
}

export interface LimitedUpResult {
  cliVersion: string;
  records: number;
  parallel: number;
  latencyMs: number;
  rateLimit: number;
  runs: LimitedUpRun[];
  /** Every `up` exited 0 with every record in its state. */
  allSucceeded: boolean;
}

export interface LimitedUpOptions {
  records: number;
  stacks: number;
  parallel: number;
  latencyMs: number;
  rateLimit: number;
  /** Each provider deploys `stacks` fresh stacks. */
  providers: readonly LimitedUpProvider[];
  cliDir: string;
  cliVersion: string;
  /** Called after each stack, for progress. */
  progress?: (run: LimitedUpRun, index: number) => void;
}

/** The issue's setup: 444 records (445: whole teams) at --parallel 32, 50 ms away, 20 requests a second. */
export const LIMITED_UP_SETUP = {
  records: 444,
  stacks: 5,
  parallel: 32,
  latencyMs: 50,
  rateLimit: 20,
  providers: LIMITED_UP_PROVIDERS,
};

export async function benchLimitedUp(options: LimitedUpOptions): Promise<LimitedUpResult> {
  const teams = Math.max(1, Math.round(options.records / BATCH_PER_TEAM));
  const records = teams * BATCH_PER_TEAM;
  const runs: LimitedUpRun[] = [];
  for (const provider of options.providers)
    for (let i = 0; i < options.stacks; i++) {
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-bench-limited-up-"));
      const emu = await startEmulator({
        quiet: true,
        seed: false,
        latencyMs: options.latencyMs,
        rateLimit: options.rateLimit,
      });
      const label = `limited-up-${provider}-${i}`;
      const stack =
        provider === "native"
          ? nativeStack(scratch, label, emu, teams, options.cliDir)
          : batchStack({ scratch, label, program: BATCH_PROGRAM, emu, teams, cliDir: options.cliDir });
      try {
        let result: RealCliRun | undefined;
        // Checkpoints skipped: the figure is the provider against the rate limit, not the state file's writes.
        const ms = await timed(
          async () =>
            (result = await stack.run("up", { parallel: options.parallel, env: { PULUMI_SKIP_CHECKPOINTS: "true" } })),
        );
        const logged = emu.requests();
        const rateLimited = logged.filter((r) => r.status === 429).length;
        const deployed = (stack.checkpoint()?.checkpoint.latest?.resources ?? []).filter(
          (r) =>
            r.custom && r.type.startsWith(provider === "native" ? "platform:iam:" : "pulumi-nodejs:dynamic/") && r.id,
        ).length;
        const run: LimitedUpRun = {
          provider,
          ms,
          floorMs: ((logged.length - rateLimited) / options.rateLimit) * 1000,
          requests: logged.length,
          rateLimited,
          deployed,
          code: result!.code,
          ...(result!.code === 0 ? {} : { failure: (result!.stdout + result!.stderr).slice(-3000) }),
        };
        runs.push(run);
        options.progress?.(run, i);
      } finally {
        await emu.close();
        stack.remove();
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    }
  return {
    cliVersion: options.cliVersion,
    records,
    parallel: options.parallel,
    latencyMs: options.latencyMs,
    rateLimit: options.rateLimit,
    runs,
    allSucceeded: runs.every((r) => r.code === 0 && r.deployed === records),
  };
}

/** One stack's line. */
export function limitedUpLine(run: LimitedUpRun, index: number): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (
    `    ${run.provider} stack ${index + 1}: ${run.code === 0 ? "ok" : `FAILED (exit ${run.code})`}, ${run.deployed} records; ` +
    `${s(run.ms)} against a floor of ${s(run.floorMs)} (${(run.ms / run.floorMs).toFixed(2)}×); ` +
    `${run.requests} requests, ${run.rateLimited} answered 429`
  );
}

/** The figure's lines, and what it missed. */
export function reportLimitedUp(r: LimitedUpResult): { lines: string[]; misses: string[] } {
  const lines = [
    `  pulumi ${r.cliVersion}; ${r.records} records, up --parallel ${r.parallel}; the emulator ${r.latencyMs} ms away, ${r.rateLimit} requests a second per token; ${r.runs.length} fresh stacks`,
    ...r.runs.map((run) => limitedUpLine(run, r.runs.filter((other) => other.provider === run.provider).indexOf(run))),
    `  every up succeeded with every record: ${r.allSucceeded ? "ok" : "MISSED"}`,
  ];
  const misses = r.allSucceeded
    ? []
    : r.runs
        .map((run, i) => ({ run, i }))
        .filter(({ run }) => run.code !== 0 || run.deployed !== r.records)
        .map(
          ({ run, i }) =>
            `[15] ${run.provider} stack ${i + 1}: up exited ${run.code}, ${run.deployed} of ${r.records} records`,
        );
  for (const { failure } of r.runs) if (failure) lines.push(`  a failed up ended:\n${failure}`);
  return { lines, misses };
}
