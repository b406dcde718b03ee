/**
 * Figure 7: scale. Up (Check + Create), preview (Check + Diff) and refresh (Read) of N groups
 * through the REAL dynamic-provider host at the engine's concurrency, at two sizes, each on a
 * fresh emulator and host: the cost per resource at the larger size should stay within 1.1 x
 * the cost at the smaller one (nothing grows faster than linear). The host's and this
 * process's resident memory (RSS, from /proc) are reported after each size.
 */
import * as fs from "node:fs";
import { Harness, startHarness } from "../tools/host/resourceHarness";
import { findHostPid } from "./hostCpu";
import { pool, timed } from "./stats";

type Props = Record<string, any>;

export interface ScaleStep {
  ms: number;
  perResourceMs: number;
}

export interface ScaleSize {
  resources: number;
  up: ScaleStep;
  preview: ScaleStep;
  refresh: ScaleStep;
  /** Resident memory after the size's steps, MB. */
  hostRssMb: number;
  programRssMb: number;
}

export interface ScaleResult {
  concurrency: number;
  sizes: ScaleSize[];
  /** Per-resource cost at the largest size over the smallest, per step. */
  perResourceRatio: { up: number; preview: number; refresh: number };
}

/** Resident memory of a process in MB (NaN where /proc is missing). */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Up, then preview, then refresh of `n` new groups named `<prefix>-<i>`, each step timed. */
async function cycle(h: Harness, prefix: string, n: number, concurrency: number) {
  const provider = h.providers.Group;
  const root = h.emu.rootUid;
  const states: { id: string; urn: string; inputs: Props; props: Props }[] = new Array(n);
  const step = async (work: (i: number) => Promise<void>): Promise<ScaleStep> => {
    const ms = await timed(() => pool(n, concurrency, work));
    return { ms, perResourceMs: ms / n };
  };
  const up = await step(async (i) => {
    const name = `${prefix}-${i}`;
    const urn = h.urn("Group", name);
    const checked = await h.host.check(urn, {}, { parentUid: root, name, __provider: provider });
    if (checked.failures.length) throw new Error(`check of ${name} failed: ${JSON.stringify(checked.failures)}`);
    const created = await h.host.create(urn, checked.inputs);
    states[i] = { id: created.id, urn, inputs: checked.inputs, props: created.props };
  });
  const preview = await step(async (i) => {
    const s = states[i];
    const checked = await h.host.check(s.urn, s.inputs, s.inputs);
    const diff = await h.host.diff(s.id, s.urn, s.props, checked.inputs);
    if (diff.changes === "some") throw new Error(`preview of unchanged ${s.id} reported a change`);
  });
  const refresh = await step(async (i) => {
    const s = states[i];
    const read = await h.host.read(s.id, s.urn, s.props, s.inputs);
    if (read.id !== s.id) throw new Error(`refresh of ${s.id} answered id "${read.id}"`);
  });
  return { up, preview, refresh };
}

/** Each size on a fresh emulator and host, warmed by the same steps over WARM_UP groups first. */
const WARM_UP = 200;

async function oneSize(n: number, concurrency: number): Promise<ScaleSize> {
  const h: Harness = await startHarness({ seed: true });
  try {
    const hostPid = findHostPid(h.staged.dir) ?? h.host.pid;
    await cycle(h, "warm", WARM_UP, concurrency);
    const steps = await cycle(h, "scale", n, concurrency);
    return { resources: n, ...steps, hostRssMb: rssMb(hostPid), programRssMb: rssMb(process.pid) };
  } finally {
    await h.close();
  }
}

export async function benchScale(options: { sizes: number[]; concurrency: number }): Promise<ScaleResult> {
  const sizes: ScaleSize[] = [];
  for (const n of options.sizes) sizes.push(await oneSize(n, options.concurrency));
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  const ratio = (pick: (s: ScaleSize) => ScaleStep) => pick(large).perResourceMs / pick(small).perResourceMs;
  return {
    concurrency: options.concurrency,
    sizes,
    perResourceRatio: { up: ratio((s) => s.up), preview: ratio((s) => s.preview), refresh: ratio((s) => s.refresh) },
  };
}
