/**
 * Figure 14: `pulumi up` of a new stack against a far-away, rate-limited service, under the real
 * Pulumi CLI. Figure 12's program (per team a group, two CI identities in it, a role binding of
 * each on it) deployed by `up --parallel P` on a fresh emulator that answers every request
 * `latencyMs` late and lets the token send `rateLimit` requests a second (then 429 with
 * Retry-After), `stacks` times, each a new stack on a new emulator. Every `up` must succeed with
 * every record in its state: a create refused 429 waits out Retry-After within its call's
 * deadline (provider/retryPolicy.ts), however often it is refused. Measured per stack: wall time
 * against the rate limit's floor (the requests the service accepted over its rate: no client
 * deploys the stack faster), the requests and how many were answered 429.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RealCliRun } from "../tools/pulumi-cli/stack";
import { BATCH_PER_TEAM, BATCH_PROGRAM, batchStack } from "./cliBatch";
import { timed } from "./stats";

export interface LimitedUpRun {
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
  cliDir: string;
  cliVersion: string;
  /** Called after each stack, for progress. */
  progress?: (run: LimitedUpRun, index: number) => void;
}

/** The issue's setup: 444 records (445: whole teams) at --parallel 32, 50 ms away, 20 requests a second. */
export const LIMITED_UP_SETUP = { records: 444, stacks: 5, parallel: 32, latencyMs: 50, rateLimit: 20 };

export async function benchLimitedUp(options: LimitedUpOptions): Promise<LimitedUpResult> {
  const teams = Math.max(1, Math.round(options.records / BATCH_PER_TEAM));
  const records = teams * BATCH_PER_TEAM;
  const runs: LimitedUpRun[] = [];
  for (let i = 0; i < options.stacks; i++) {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-bench-limited-up-"));
    const emu = await startEmulator({
      quiet: true,
      seed: false,
      latencyMs: options.latencyMs,
      rateLimit: options.rateLimit,
    });
    const stack = batchStack({
      scratch,
      label: `limited-up-${i}`,
      program: BATCH_PROGRAM,
      emu,
      teams,
      cliDir: options.cliDir,
    });
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
        (r) => r.custom && r.type.startsWith("pulumi-nodejs:dynamic/") && r.id,
      ).length;
      const run: LimitedUpRun = {
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
    `    stack ${index + 1}: ${run.code === 0 ? "ok" : `FAILED (exit ${run.code})`}, ${run.deployed} records; ` +
    `${s(run.ms)} against a floor of ${s(run.floorMs)} (${(run.ms / run.floorMs).toFixed(2)}×); ` +
    `${run.requests} requests, ${run.rateLimited} answered 429`
  );
}

/** The figure's lines, and what it missed. */
export function reportLimitedUp(r: LimitedUpResult): { lines: string[]; misses: string[] } {
  const lines = [
    `  pulumi ${r.cliVersion}; ${r.records} records, up --parallel ${r.parallel}; the emulator ${r.latencyMs} ms away, ${r.rateLimit} requests a second per token; ${r.runs.length} fresh stacks`,
    ...r.runs.map(limitedUpLine),
    `  every up succeeded with every record: ${r.allSucceeded ? "ok" : "MISSED"}`,
  ];
  const misses = r.allSucceeded
    ? []
    : r.runs
        .map((run, i) => ({ run, i }))
        .filter(({ run }) => run.code !== 0 || run.deployed !== r.records)
        .map(({ run, i }) => `[14] stack ${i + 1}: up exited ${run.code}, ${run.deployed} of ${r.records} records`);
  for (const { failure } of r.runs) if (failure) lines.push(`  a failed up ended:\n${failure}`);
  return { lines, misses };
}
