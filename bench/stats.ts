/**
 * How every timed figure is reported: the median of several runs and their spread, so one
 * noisy run (the machine is shared) neither hides nor invents a regression.
 */
import { performance } from "node:perf_hooks";

export interface Spread {
  median: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
  runs: number;
}

/** Linear interpolation between the closest ranks. */
function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

export function spread(values: number[]): Spread {
  if (values.length === 0) throw new Error("spread of no values");
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    runs: sorted.length,
  };
}

/** Run-by-run ratios a[i] / b[i]: runs alternate, so each pair saw the same machine. */
export function ratios(a: number[], b: number[]): number[] {
  return a.map((value, i) => value / b[i]);
}

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Runs `work(i)` for i in [0, count) with at most `concurrency` in flight, as the engine does. */
export async function pool(count: number, concurrency: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

export function fmt(value: number, digits = 2): string {
  return value.toFixed(digits);
}

/** "12.3 (p25 11.9 – p75 12.8, min 11.5, max 13.0, 5 runs)". */
export function describe(s: Spread, unit = "", digits = 2): string {
  const u = unit ? ` ${unit}` : "";
  return `${fmt(s.median, digits)}${u} (p25 ${fmt(s.p25, digits)} – p75 ${fmt(s.p75, digits)}, min ${fmt(s.min, digits)}, max ${fmt(s.max, digits)}, ${s.runs} runs)`;
}
