/**
 * A drift report for people and for CI: JSON (one object), text (a short tree by parent, coloured
 * only on a terminal) and Markdown (a pull-request comment, `$GITHUB_STEP_SUMMARY`). Secret fields
 * are named, their values never written.
 */
import type { DriftReport } from "./compare";
import type { FieldChange } from "./managed";

export const FORMATS = ["text", "json", "markdown"] as const;
export type Format = (typeof FORMATS)[number];

/** What `--fail-on` can count. */
export const FINDINGS = ["changed", "deleted", "unmanaged", "conflicts"] as const;
export type Finding = (typeof FINDINGS)[number];

export function jsonReport(report: DriftReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}

const show = (value: unknown) => (value === undefined || value === null ? "(none)" : JSON.stringify(value));
const fieldLine = (f: FieldChange) =>
  f.secret ? `${f.name}: changed (secret)` : `${f.name}: ${show(f.recorded)} → ${show(f.live)}`;
const whereOf = (e: { source: string; urn?: string; address?: string }) =>
  `${e.source}${e.urn ? ` ${e.urn}` : e.address ? ` ${e.address}` : ""}`;

function summary(report: DriftReport): string {
  const { changed, deleted, unmanaged, conflicts, pending, coverage } = report;
  const percent = coverage.records === 0 ? 100 : Math.floor((coverage.managed / coverage.records) * 100);
  return (
    `${changed.length} changed, ${deleted.length} deleted, ${unmanaged.length} unmanaged, ` +
    `${conflicts.length} conflicts, ${pending.length} pending; ${coverage.managed} of ${coverage.records} records ` +
    `managed (${percent}%), read in ${report.requests} requests`
  );
}

export function textReport(report: DriftReport, colour: boolean): string {
  const paint = (code: number, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines = [`Drift below ${report.under}: ${summary(report)}`];
  const kinds = Object.entries(report.coverage.kinds).filter(([, k]) => k.records > 0 || k.managed > 0);
  if (kinds.length > 0)
    lines.push(`Coverage: ${kinds.map(([type, k]) => `${type} ${k.managed}/${k.records}`).join(", ")}`);
  if (report.ignored > 0) lines.push(`Ignored (--ignore): ${report.ignored} unmanaged record(s)`);
  // Every finding under its parent's path: where in the organization to look.
  const byParent = new Map<string, string[]>();
  const add = (parent: string, ...entry: string[]) => byParent.set(parent, [...(byParent.get(parent) ?? []), ...entry]);
  for (const e of report.changed)
    add(
      e.parent,
      paint(33, `~ ${e.type} ${e.uid}`) + `  changed since ${whereOf(e)}`,
      ...e.fields.map((f) => `    ${fieldLine(f)}`),
    );
  for (const e of report.deleted)
    add(e.parent, paint(31, `- ${e.type} ${e.uid}`) + `  deleted, managed by ${whereOf(e)}`);
  for (const e of report.unmanaged) add(e.parent, paint(36, `+ ${e.type} ${e.name}`) + `  ${e.uid}, unmanaged`);
  for (const parent of [...byParent.keys()].sort()) {
    lines.push(parent);
    for (const line of byParent.get(parent)!) lines.push(`  ${line}`);
  }
  for (const e of report.conflicts)
    lines.push(paint(35, `! ${e.type} ${e.uid}`) + `  managed by ${e.sources.map(whereOf).join(" and ")}`);
  for (const e of report.pending)
    lines.push(
      paint(35, `… ${e.type} ${e.uid ?? "(no uid yet)"}`) +
        `  ${e.operation} in ${whereOf(e)}, interrupted; the way back: ${e.way.join("; ")}`,
    );
  return lines.join("\n") + "\n";
}

/** A table cell: one line, no pipe, code spans safe. */
const cell = (text: string) => text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|").replace(/`/g, "ˋ");
const code = (text: string) => `\`${cell(text)}\``;

export function markdownReport(report: DriftReport): string {
  const clean = report.changed.length + report.deleted.length + report.unmanaged.length + report.conflicts.length === 0;
  const lines = [
    `### ${clean ? "✅ No drift" : "⚠️ Drift"} below ${code(report.under)}`,
    "",
    summary(report) + ".",
    "",
    "| Kind | Managed | Records |",
    "|---|---:|---:|",
    ...Object.entries(report.coverage.kinds)
      .filter(([, k]) => k.records > 0 || k.managed > 0)
      .map(([type, k]) => `| ${code(type)} | ${k.managed} | ${k.records} |`),
    `| **all** | **${report.coverage.managed}** | **${report.coverage.records}** |`,
  ];
  const section = (title: string, header: string, rows: string[]) => {
    if (rows.length > 0)
      lines.push("", `#### ${title}`, "", header, `|${"---|".repeat(header.split("|").length - 2)}`, ...rows);
  };
  section(
    "Changed",
    "| Parent | Record | Type | Managed by | Fields |",
    report.changed.map(
      (e) =>
        `| ${cell(e.parent)} | ${code(e.uid)} | ${code(e.type)} | ${cell(whereOf(e))} | ${e.fields.map((f) => cell(fieldLine(f))).join("<br>")} |`,
    ),
  );
  section(
    "Deleted",
    "| Parent | Record | Type | Managed by |",
    report.deleted.map((e) => `| ${cell(e.parent)} | ${code(e.uid)} | ${code(e.type)} | ${cell(whereOf(e))} |`),
  );
  section(
    "Unmanaged",
    "| Parent | Type | Name | Record |",
    report.unmanaged.map((e) => `| ${cell(e.parent)} | ${code(e.type)} | ${cell(e.name)} | ${code(e.uid)} |`),
  );
  section(
    "Conflicts",
    "| Record | Type | Managed by |",
    report.conflicts.map(
      (e) => `| ${code(e.uid)} | ${code(e.type)} | ${e.sources.map((s) => cell(whereOf(s))).join("<br>")} |`,
    ),
  );
  section(
    "Pending",
    "| Record | Type | Operation | The way back |",
    report.pending.map(
      (e) =>
        `| ${e.uid ? code(e.uid) : "(no uid yet)"} | ${code(e.type)} | ${cell(`${e.operation} in ${whereOf(e)}`)} | ${e.way.map(code).join("<br>")} |`,
    ),
  );
  return lines.join("\n") + "\n";
}

/** Whether the report holds any finding `failOn` counts. */
export function found(report: DriftReport, failOn: readonly Finding[]): boolean {
  return failOn.some((finding) => report[finding].length > 0);
}
