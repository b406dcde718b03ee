/**
 * Figure 14: `platform-pulumi drift` beside `pulumi preview --refresh` and `pulumi refresh --preview-only`
 * on figure 12's drifted stack and rate-limited emulator, then drift alone as the organization grows
 * (`cloneTo`). What it measures and its targets: bench/README.md [14].
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import type { EmulatorState } from "../emulator/persistence";
import { withoutPlatformEnv } from "../tools/orgProject";
import type { RealCliStep } from "../tools/pulumi-cli/stack";
import { runProcess } from "../tools/runProcess";
import { call } from "../tools/orgApi";
import {
  BATCH_PER_TEAM,
  BATCH_PROGRAM,
  batchStack,
  changedRecords,
  consoleEdits,
  deployBatch,
  driftOf,
  farAway,
} from "./cliBatch";

const cliJs = path.join(__dirname, "..", "cli.js");

export interface DriftFigureOptions {
  /** Records of each stack (groups, identities, role bindings), one stack per size. */
  sizes: number[];
  /** Records of those kinds the emulator holds for drift alone on the largest stack (0: none). */
  cloneTo: number;
  parallel: number;
  latencyMs: number;
  rateLimit: number;
  cliDir: string;
  cliVersion: string;
}

export interface DriftRun {
  ms: number;
  /** Requests the emulator logged (429s included). */
  requests: number;
  rateLimited: number;
}

export interface DriftAlone extends DriftRun {
  /** Records of the kinds drift reads below the group (managed or not). */
  records: number;
  /** The requests drift counted itself (its report's `requests`). */
  reportedRequests: number;
  /** The List pages of every kind read (ceil(records / 200), at least 1) and the group's own GET. */
  pagesFloor: number;
  peakRssMb: number;
  changed: number;
  deleted: number;
  unmanaged: number;
}

export interface DriftSizeFigure {
  records: number;
  deployMs: number;
  /** What was changed behind the program's back: edited, deleted, made by hand. */
  made: { edited: string[]; deleted: string[]; unmanaged: number };
  previewRefresh: DriftRun;
  refreshPreviewOnly: DriftRun;
  drift: DriftAlone;
  /** `pulumi stack export` of the stack, which drift's `--stack` would run first (reported, not in drift's time). */
  stackExportMs: number;
  /** drift / preview --refresh wall time. */
  driftOverPreviewRefresh: number;
  driftOverRefreshPreviewOnly: number;
  /** The resources each names changed or deleted (their URN's last part), sorted. */
  named: { previewRefresh: string[]; refreshPreviewOnly: string[]; drift: string[] };
  /** All three name the same records, and exactly those edited and deleted. */
  sameNamed: boolean;
}

export interface CliDriftResult {
  cliVersion: string;
  parallel: number;
  latencyMs: number;
  rateLimit: number;
  sizes: DriftSizeFigure[];
  /** Drift alone as the organization grows: each stack, then the largest with clones up to cloneTo. */
  growth: Array<DriftAlone & { managed: number; cloned: number }>;
}

/** Console edits: 1% of the groups and identities edited, 1% of the bindings deleted, an identity and binding made. */
async function makeDrift(
  emu: RunningEmulator,
  resources: Array<{ urn: string; type: string; id?: string; custom?: boolean }>,
  records: number,
): Promise<DriftSizeFigure["made"]> {
  const n = Math.max(1, Math.round(records / 100));
  const name = (urn: string) => urn.split("::").pop()!;
  const { edited, deleted } = await consoleEdits(emu, resources, n, n);
  // Made by hand: only drift can see these.
  const team = resources.find((r) => r.custom && r.type.endsWith("iam:Group") && r.id)!;
  const identity = await call(emu, "POST", `/iam/v2beta1/identities/${team.id}`, {
    name: "hand-made",
    claimMatch: {
      issuer: "https://token.actions.githubusercontent.com",
      subject: "repo:acme/unknown:ref:refs/heads/main",
    },
  });
  const owner = (await call(emu, "GET", "/iam/v2beta1/roles?name=owner")).roles[0];
  await call(emu, "POST", `/iam/v2beta1/roleBindings/${team.id}`, { identityUid: identity.uid, roleUid: owner.uid });
  return {
    edited: edited.map((r) => name(r.urn)).sort(),
    deleted: deleted.map((r) => name(r.urn)).sort(),
    unmanaged: 2,
  };
}

/**
 * The resources a refresh shows gone (a delete), or changed in a field the program declares (an
 * input), not only in one the service keeps (updateTime, or a binding's copy of its group).
 */
function refreshNamed(steps: RealCliStep[], inputsOf: Map<string, Set<string>>): string[] {
  const named = steps
    .filter(
      (s) =>
        s.op === "delete" ||
        (s.op === "refresh" && !s.exists) ||
        ((s.op === "update" || s.op === "refresh") && s.diffs.some((d) => inputsOf.get(s.urn)?.has(d))),
    )
    .map((s) => s.urn.split("::").pop()!);
  return [...new Set(named)].sort();
}

/** `platform-pulumi drift` as a user runs it, its peak RSS taken by /usr/bin/time. */
async function runDrift(
  emu: RunningEmulator,
  scratch: string,
  stackFile: string,
): Promise<{ run: DriftRun; report: any; peakRssMb: number }> {
  const rssFile = path.join(scratch, `drift-rss-${Date.now()}`);
  emu.clearRequests();
  const started = performance.now();
  const answer = await runProcess(
    "/usr/bin/time",
    [
      "-f",
      "%M",
      "-o",
      rssFile,
      process.execPath,
      cliJs,
      "drift",
      "--under",
      emu.rootUid,
      "--stack-file",
      stackFile,
      "--format",
      "json",
    ],
    { env: { ...withoutPlatformEnv(), PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: emu.token } },
  );
  const ms = performance.now() - started;
  // 3: drift found, as here it must be.
  if (answer.code !== 3) throw new Error(`drift exited ${answer.code}, not 3:\n${answer.stderr.slice(-3000)}`);
  const logged = emu.requests();
  const kb = Number(fs.readFileSync(rssFile, "utf8").trim().split("\n").pop());
  return {
    run: { ms, requests: logged.length, rateLimited: logged.filter((r) => r.status === 429).length },
    report: JSON.parse(answer.stdout),
    peakRssMb: kb / 1024,
  };
}

function alone(drift: { run: DriftRun; report: any; peakRssMb: number }): DriftAlone {
  const kinds = Object.values<{ records: number }>(drift.report.coverage.kinds);
  return {
    ...drift.run,
    records: drift.report.coverage.records,
    reportedRequests: drift.report.requests,
    pagesFloor: 1 + kinds.reduce((n, k) => n + Math.max(1, Math.ceil(k.records / 200)), 0),
    peakRssMb: drift.peakRssMb,
    changed: drift.report.changed.length,
    deleted: drift.report.deleted.length,
    unmanaged: drift.report.unmanaged.length,
  };
}

/**
 * Whole teams of the emulator's state copied until its groups, identities and bindings number
 * `total`: each copy's group gets a new last segment (so everything below it new uids), its name numbered.
 */
function cloneTeams(statePath: string, total: number): number {
  const state = JSON.parse(fs.readFileSync(statePath, "utf8")) as EmulatorState;
  const records = state.records;
  const teams = (records.groups ?? []).filter((g) => /^team-\d+$/.test(String(g.name)));
  const count = () =>
    (records.groups?.length ?? 0) + (records.identities?.length ?? 0) + (records.roleBindings?.length ?? 0);
  const below = (kind: "identities" | "roleBindings", uid: string) =>
    (records[kind] ?? []).filter((r) => r.uid.startsWith(`${uid}/`));
  const templates = teams.map((g) => ({
    group: g,
    identities: below("identities", g.uid),
    bindings: below("roleBindings", g.uid),
  }));
  const added = { groups: [] as any[], identities: [] as any[], roleBindings: [] as any[] };
  let have = count();
  for (let copy = 0; have < total; copy++) {
    const t = templates[copy % templates.length];
    const slash = t.group.uid.lastIndexOf("/");
    const segment = createHash("sha1")
      .update(`drift-clone:${copy}`)
      .digest("hex")
      .slice(0, t.group.uid.length - slash - 1);
    const uid = t.group.uid.slice(0, slash + 1) + segment;
    const moved = (r: object) => JSON.parse(JSON.stringify(r).split(t.group.uid).join(uid));
    added.groups.push({ ...moved(t.group), name: `${String(t.group.name)}-copy-${copy}` });
    added.identities.push(...t.identities.map(moved));
    added.roleBindings.push(...t.bindings.map(moved));
    have += 1 + t.identities.length + t.bindings.length;
  }
  const cloned = added.groups.length + added.identities.length + added.roleBindings.length;
  for (const kind of ["groups", "identities", "roleBindings"] as const)
    records[kind] = [...(records[kind] ?? []), ...added[kind]];
  fs.writeFileSync(statePath, JSON.stringify(state));
  return cloned;
}

export async function benchCliDrift(options: DriftFigureOptions): Promise<CliDriftResult> {
  const sizes: DriftSizeFigure[] = [];
  const growth: CliDriftResult["growth"] = [];
  const limits = { latencyMs: options.latencyMs, rateLimit: options.rateLimit };
  for (const [index, size] of options.sizes.entries()) {
    const teams = Math.max(1, Math.round(size / BATCH_PER_TEAM));
    const records = teams * BATCH_PER_TEAM;
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-bench-drift-"));
    const statePath = path.join(scratch, "emulator.json");
    let emu = await startEmulator({ quiet: true, seed: false, statePath });
    const stack = batchStack({
      scratch,
      label: "drift-bench",
      program: BATCH_PROGRAM,
      emu,
      teams,
      cliDir: options.cliDir,
    });
    const log = (line: string) => process.stderr.write(`  [14] ${records}: ${line}\n`);
    try {
      const deployStart = performance.now();
      await deployBatch(stack, records);
      const deployMs = performance.now() - deployStart;
      log(`deployed in ${(deployMs / 1000).toFixed(1)} s`);
      const resources = stack.checkpoint()?.checkpoint.latest?.resources ?? [];
      const inputsOf = new Map(
        resources.map((r) => [r.urn, new Set(Object.keys(r.inputs ?? {}).filter((k) => k !== "__provider"))]),
      );
      const made = await makeDrift(emu, resources, records);
      const stackFile = path.join(scratch, "stack.json");
      const exportStart = performance.now();
      const exported = await stack.cli(["stack", "export", "--file", stackFile]);
      const stackExportMs = performance.now() - exportStart;
      if (exported.code !== 0) throw new Error(`pulumi stack export exited ${exported.code}: ${exported.stderr}`);
      emu = await farAway(emu, statePath, limits);
      const far = emu;

      const cliRun = async (previewRefresh: boolean): Promise<{ run: DriftRun; steps: RealCliStep[] }> => {
        far.clearRequests();
        const started = performance.now();
        const result = previewRefresh
          ? await stack.run("preview", { refresh: true, parallel: options.parallel, steps: true })
          : await stack.run("refresh", { previewOnly: true, parallel: options.parallel, steps: true });
        const ms = performance.now() - started;
        const name = previewRefresh ? "preview --refresh" : "refresh --preview-only";
        if (result.code !== 0)
          throw new Error(`${name} exited ${result.code}:\n${(result.stdout + result.stderr).slice(-3000)}`);
        const logged = far.requests();
        log(`${name}: ${(ms / 1000).toFixed(1)} s, ${logged.length} requests`);
        return {
          run: { ms, requests: logged.length, rateLimited: logged.filter((r) => r.status === 429).length },
          steps: result.steps ?? [],
        };
      };
      const preview = await cliRun(true);
      const refresh = await cliRun(false);
      const drift = await runDrift(far, scratch, stackFile);
      log(
        `drift: ${(drift.run.ms / 1000).toFixed(1)} s, ${drift.run.requests} requests, ${drift.peakRssMb.toFixed(0)} MB`,
      );
      const driftAlone = alone(drift);
      const named = {
        previewRefresh: changedRecords(driftOf(preview.steps)),
        refreshPreviewOnly: refreshNamed(refresh.steps, inputsOf),
        drift: [...drift.report.changed, ...drift.report.deleted]
          .map((e: { urn?: string; uid: string }) => (e.urn ?? e.uid).split("::").pop()!)
          .sort(),
      };
      const truth = JSON.stringify([...made.edited, ...made.deleted].sort());
      sizes.push({
        records,
        deployMs,
        made,
        previewRefresh: preview.run,
        refreshPreviewOnly: refresh.run,
        drift: driftAlone,
        stackExportMs,
        driftOverPreviewRefresh: drift.run.ms / preview.run.ms,
        driftOverRefreshPreviewOnly: drift.run.ms / refresh.run.ms,
        named,
        sameNamed: Object.values(named).every((list) => JSON.stringify(list) === truth),
      });
      growth.push({ ...driftAlone, managed: records, cloned: 0 });

      if (index === options.sizes.length - 1 && options.cloneTo > driftAlone.records) {
        await far.close();
        const cloned = cloneTeams(statePath, options.cloneTo);
        emu = await startEmulator({
          port: Number(new URL(far.url).port),
          quiet: true,
          seed: false,
          statePath,
          ...limits,
        });
        const big = alone(await runDrift(emu, scratch, stackFile));
        log(
          `drift with ${cloned} clones: ${(big.ms / 1000).toFixed(1)} s, ${big.requests} requests, ${big.peakRssMb.toFixed(0)} MB`,
        );
        growth.push({ ...big, managed: records, cloned });
      }
    } finally {
      await emu.close();
      stack.remove();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  return {
    cliVersion: options.cliVersion,
    parallel: options.parallel,
    latencyMs: options.latencyMs,
    rateLimit: options.rateLimit,
    sizes,
    growth,
  };
}

/** The issue's targets for figure 14. */
export const DRIFT_TARGETS = {
  /** drift / preview --refresh wall time at --parallel 64. */
  wallOverPreviewRefresh: 0.05,
  /** Requests above the kinds' pages. */
  requestsOverPages: 5,
  /** Peak RSS of the drift process at 10,000 records. */
  peakRssMbAt10k: 250,
};

/** The figure's lines, and what it missed. */
export function reportCliDrift(r: CliDriftResult): { lines: string[]; misses: string[] } {
  const lines: string[] = [];
  const misses: string[] = [];
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");
  lines.push(
    `  pulumi ${r.cliVersion}; the emulator ${r.latencyMs} ms away, ${r.rateLimit} requests a second per token; --parallel ${r.parallel}; one run of each`,
  );
  for (const f of r.sizes) {
    const wallOk = f.driftOverPreviewRefresh <= DRIFT_TARGETS.wallOverPreviewRefresh;
    const requestsOk = f.drift.requests <= f.drift.pagesFloor + DRIFT_TARGETS.requestsOverPages;
    lines.push(`  ${f.records} records (deployed in ${s(f.deployMs)}):`);
    lines.push(
      `    preview --refresh       ${s(f.previewRefresh.ms).padStart(8)}, ${f.previewRefresh.requests} requests (${f.previewRefresh.rateLimited} answered 429)`,
    );
    lines.push(
      `    refresh --preview-only  ${s(f.refreshPreviewOnly.ms).padStart(8)}, ${f.refreshPreviewOnly.requests} requests (${f.refreshPreviewOnly.rateLimited} answered 429)`,
    );
    lines.push(
      `    drift                   ${s(f.drift.ms).padStart(8)}, ${f.drift.requests} requests (report: ${f.drift.reportedRequests}; the kinds' pages ${f.drift.pagesFloor}), peak RSS ${f.drift.peakRssMb.toFixed(0)} MB;` +
        ` ${f.drift.changed} changed, ${f.drift.deleted} deleted, ${f.drift.unmanaged} unmanaged (pulumi stack export first: ${s(f.stackExportMs)})`,
    );
    lines.push(
      `    drift / preview --refresh ${f.driftOverPreviewRefresh.toFixed(3)} (≤ ${DRIFT_TARGETS.wallOverPreviewRefresh} ${verdict(wallOk)}); / refresh --preview-only ${f.driftOverRefreshPreviewOnly.toFixed(3)};` +
        ` requests ≤ pages + ${DRIFT_TARGETS.requestsOverPages} ${verdict(requestsOk)}`,
    );
    lines.push(
      `    changed and deleted: ${f.named.drift.length} named by drift, ${f.named.previewRefresh.length} by preview --refresh, ${f.named.refreshPreviewOnly.length} by refresh --preview-only;` +
        ` the same and exactly the ${f.made.edited.length} edited and ${f.made.deleted.length} deleted: ${verdict(f.sameNamed)}`,
    );
    if (!wallOk)
      misses.push(
        `[14] ${f.records}: drift / preview --refresh ${f.driftOverPreviewRefresh.toFixed(3)} > ${DRIFT_TARGETS.wallOverPreviewRefresh}`,
      );
    if (!requestsOk)
      misses.push(`[14] ${f.records}: drift sent ${f.drift.requests} requests, pages + 5 = ${f.drift.pagesFloor + 5}`);
    if (!f.sameNamed)
      misses.push(
        `[14] ${f.records}: the three name different changed and deleted records: ${JSON.stringify(f.named)}, made ${JSON.stringify(f.made)}`,
      );
    if (f.records >= 10_000 && f.drift.peakRssMb > DRIFT_TARGETS.peakRssMbAt10k)
      misses.push(
        `[14] ${f.records}: drift's peak RSS ${f.drift.peakRssMb.toFixed(0)} MB > ${DRIFT_TARGETS.peakRssMbAt10k}`,
      );
  }
  lines.push("  drift alone as the organization grows:");
  const first = r.growth[0];
  for (const g of r.growth)
    lines.push(
      `    ${String(g.records).padStart(7)} records (${g.managed} managed${g.cloned ? `, ${g.cloned} cloned` : ""}): ${s(g.ms)}, ${g.requests} requests (pages ${g.pagesFloor}), peak RSS ${g.peakRssMb.toFixed(0)} MB;` +
        ` per record ${((g.ms / g.records) * 1000).toFixed(0)} µs (× ${(g.ms / g.records / (first.ms / first.records)).toFixed(2)} the first)`,
    );
  return { lines, misses };
}
