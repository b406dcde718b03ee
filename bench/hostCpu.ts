/**
 * CPU time of the dynamic-provider host process, read from /proc (Linux). On a shared machine
 * wall time moves with everyone else's load; the host's own CPU time per refresh or preview does
 * not, so it is reported beside the wall-time ratios as the steadier view of what our provider
 * costs inside the host. Where /proc is missing, the figure is simply absent.
 */
import * as fs from "node:fs";
import { hostEntryPath } from "../tools/host/host";

/** The pid of the host started in `cwd`, found by its command line and working directory. */
export function findHostPid(cwd: string): number | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes(hostEntryPath)) continue;
      if (fs.readlinkSync(`/proc/${entry}/cwd`) === cwd) return Number(entry);
    } catch {
      // The process ended or is not ours to read.
    }
  }
  return undefined;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * User + system CPU milliseconds the process has used so far: the sum of its threads' run time
 * in nanoseconds (/proc/<pid>/task/<tid>/schedstat) where the kernel keeps it, else /proc/<pid>/stat
 * in ticks of 10 ms (a refresh of 1,000 groups is about 20 ticks: too coarse for a 10% target).
 */
export function cpuMs(pid: number): number {
  try {
    let ns = 0;
    for (const tid of fs.readdirSync(`/proc/${pid}/task`))
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    if (Number.isFinite(ns) && ns > 0) return ns / 1e6;
  } catch {
    // No schedstat: the ticks below.
  }
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Measures `work`'s wall time and the host's CPU time during it. */
export async function withHostCpu(
  pid: number | undefined,
  work: () => Promise<unknown>,
): Promise<{ wallMs: number; hostCpuMs: number }> {
  const cpuBefore = pid === undefined ? 0 : cpuMs(pid);
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  return { wallMs, hostCpuMs: pid === undefined ? NaN : cpuMs(pid) - cpuBefore };
}
