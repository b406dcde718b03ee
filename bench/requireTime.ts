/**
 * Figure 6: what `require("platform-pulumi")` costs a program beyond `require("@pulumi/pulumi")`
 * (which every Pulumi program pays anyway), each sample in a fresh node process started in a
 * program folder where the package is installed. Target: under 100 ms.
 *
 * Beside the figure, a breakdown of where the time goes: self time of every module loaded by
 * the package's require, summed per package (or per file of ours), median over the samples.
 */
import { execFileSync } from "node:child_process";
import { Spread, spread } from "./stats";

export interface RequireTimeResult {
  pulumiMs: Spread;
  oursMs: Spread;
  /** Self milliseconds per package (ours per file), largest first. */
  breakdown: { module: string; ms: number; files: number }[];
}

const MEASURE = `
const { performance } = require("node:perf_hooks");
const t0 = performance.now();
require("@pulumi/pulumi");
const t1 = performance.now();
require("platform-pulumi");
const t2 = performance.now();
process.stdout.write(JSON.stringify({ pulumiMs: t1 - t0, oursMs: t2 - t1 }));
`;

// Self time of each module load, attributed to the package the loaded file belongs to.
const BREAKDOWN = `
const Module = require("node:module");
const { performance } = require("node:perf_hooks");
require("@pulumi/pulumi");
const load = Module._load;
const stack = [];
const self = {};
const files = {};
const seen = new Set(Object.keys(require.cache));
Module._load = function (request, parent, isMain) {
  let key = request;
  let file;
  try {
    file = Module._resolveFilename(request, parent, isMain);
    const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/(.*)$/.exec(file);
    key = !m ? file : m[1] === "platform-pulumi" ? "platform-pulumi/" + m[2] : m[1];
  } catch {}
  if (file && !seen.has(file)) {
    seen.add(file);
    files[key] = (files[key] || 0) + 1;
  }
  const started = performance.now();
  stack.push(0);
  try {
    return load.apply(this, arguments);
  } finally {
    const elapsed = performance.now() - started;
    const children = stack.pop();
    self[key] = (self[key] || 0) + elapsed - children;
    if (stack.length) stack[stack.length - 1] += elapsed;
  }
};
require("platform-pulumi");
process.stdout.write(JSON.stringify({ self, files }));
`;

function child<T>(cwd: string, script: string, nodeArgs: string[] = []): T {
  const out = execFileSync(process.execPath, [...nodeArgs, "-e", script], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out) as T;
}

/** `programDir` resolves platform-pulumi and @pulumi/pulumi as a user's program does. */
export function benchRequireTime(
  programDir: string,
  options: { runs: number; breakdownRuns: number; cpuProfileDir?: string },
): RequireTimeResult {
  const pulumi: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const sample = child<{ pulumiMs: number; oursMs: number }>(programDir, MEASURE);
    pulumi.push(sample.pulumiMs);
    ours.push(sample.oursMs);
  }
  const perModule = new Map<string, { ms: number[]; files: number }>();
  for (let i = 0; i < options.breakdownRuns; i++) {
    const { self, files } = child<{ self: Record<string, number>; files: Record<string, number> }>(
      programDir,
      BREAKDOWN,
    );
    for (const [module, ms] of Object.entries(self)) {
      const entry = perModule.get(module) ?? { ms: [], files: files[module] ?? 0 };
      entry.ms.push(ms);
      perModule.set(module, entry);
    }
  }
  if (options.cpuProfileDir) child(programDir, MEASURE, ["--cpu-prof", "--cpu-prof-dir", options.cpuProfileDir]);
  const breakdown = [...perModule]
    .map(([module, { ms, files }]) => ({ module, ms: spread(ms).median, files }))
    .sort((a, b) => b.ms - a.ms);
  return { pulumiMs: spread(pulumi), oursMs: spread(ours), breakdown };
}
