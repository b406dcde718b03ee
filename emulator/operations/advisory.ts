/**
 * The security advisory feed, derived from the advisories the caller may read: documents
 * (advisories per package, with their events), vulnerability metadata per CVE, and reports
 * of what was resolved per day.
 */
import { capability } from "../capabilities";
import { Context } from "../context";
import { OperationHandler } from "../dispatch";
import { invalidField } from "../errors";
import { inSubtree } from "../ids";
import { AdvisoryEvent, kindOf } from "../kinds/advisoryEvents";
import { iso } from "../kinds/kind";
import { getList, getString, getTime, textOf } from "../params";
import { Rec } from "../store";
import { pageOf } from "./paging";

function readable(ctx: Context): Rec[] {
  const scope = ctx.principal.scope(capability(ctx, "advisories", "LIST"));
  return ctx.store.of("advisories").indexes.uid.items.filter((r) => scope.some((g) => inSubtree(r.uid, g)));
}

const eventsOf = (r: Rec) => (Array.isArray(r.data.events) ? (r.data.events as AdvisoryEvent[]) : []);
const aliasesOf = (r: Rec) => (Array.isArray(r.data.aliases) ? (r.data.aliases as string[]).map(String) : []);

/** Event kinds the feed's documents describe, with the fields they keep. */
const DOCUMENT_KINDS: Record<string, string[]> = {
  detection: ["manual", "nvdapi", "scanv1"],
  fixed: ["fixedVersion", "grypeDbBuilt", "grypeDbChecksum", "scannerVersion"],
  pendingUpstreamFix: ["note"],
  fixNotPlanned: ["note"],
  analysisNotPlanned: ["note"],
  falsePositiveDetermination: ["note", "type"],
  truePositiveDetermination: ["note"],
};

const SCANV1_FIELDS: Record<string, string> = {
  artifactVersion: "artifactVersion",
  componentId: "componentId",
  componentLocation: "componentLocation",
  component: "componentName",
  componentType: "componentType",
  componentVersion: "componentVersion",
  scanner: "scanner",
  scannerVersion: "scannerVersion",
  subpackage: "subpackageName",
};

/** One event as the feed's documents show it: a timestamp and its kind with the fields the feed keeps. */
function documentEvent(event: AdvisoryEvent): Record<string, unknown> {
  const kind = kindOf(event);
  const out: Record<string, unknown> = { timestamp: event.createTime ?? iso(0) };
  if (!kind || !DOCUMENT_KINDS[kind]) return out;
  const source = (event[kind] ?? {}) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of DOCUMENT_KINDS[kind]) if (source[field] !== undefined) kept[field] = source[field];
  if (kind === "detection" && source.scanv1) {
    const scan = source.scanv1 as Record<string, unknown>;
    kept.scanv1 = Object.fromEntries(
      Object.entries(SCANV1_FIELDS)
        .filter(([from]) => scan[from] !== undefined)
        .map(([from, to]) => [to, scan[from]]),
    );
  }
  out[kind] = kept;
  return out;
}

const listDocuments: OperationHandler = (ctx, { params }) => {
  const id = getString(params, "id");
  const cves = getList(params, "cves");
  const byPackage = new Map<string, Array<Record<string, unknown>>>();
  for (const rec of readable(ctx)) {
    const pkg = textOf(rec.data.componentName) || textOf(rec.data.artifactName);
    if (id && pkg !== id) continue;
    if (cves && !aliasesOf(rec).some((a) => cves.includes(a))) continue;
    const list = byPackage.get(pkg) ?? [];
    list.push({
      id: textOf(rec.data.advisoryId),
      aliases: aliasesOf(rec),
      packageNamespace: textOf(rec.data.artifactType) || "image",
      events: eventsOf(rec).map(documentEvent),
    });
    byPackage.set(pkg, list);
  }
  const documents = [...byPackage]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([pkg, advisories]) => ({ id: pkg, advisories }));
  return { documents };
};

function severitiesOf(rec: Rec): Array<Record<string, string>> {
  const stored = Array.isArray(rec.data.severities) ? (rec.data.severities as Array<Record<string, unknown>>) : [];
  return stored.map((s) => ({ type: textOf(s.type) || "TYPE_UNSPECIFIED", score: textOf(s.score) }));
}

const listMetadata: OperationHandler = (ctx, { params }) => {
  const wanted = [...(getList(params, "ids") ?? []), ...(getString(params, "id") ? [getString(params, "id")!] : [])];
  const byId = new Map<string, Rec>();
  for (const rec of readable(ctx))
    for (const alias of aliasesOf(rec).filter((a) => a.startsWith("CVE-"))) if (!byId.has(alias)) byId.set(alias, rec);
  const ids = (wanted.length ? wanted.filter((id) => byId.has(id)) : [...byId.keys()]).sort();
  const metadata = ids.map((id) => {
    const rec = byId.get(id)!;
    return {
      id,
      summary: `${id} in ${textOf(rec.data.componentName)}`,
      details: `${id} affects ${textOf(rec.data.componentName)} in ${textOf(rec.data.artifactName)}`,
      severities: severitiesOf(rec).filter((s) => s.type !== "TYPE_UNSPECIFIED" || s.score),
      references: [{ type: "TYPE_ADVISORY", url: `https://nvd.nist.gov/vuln/detail/${id}` }],
    };
  });
  return pageOf(metadata, params, "vulnerabilityMetadata");
};

const DAY_MS = 24 * 3600 * 1000;

/** Per UTC day in [startTime, endTime): the advisories whose fix was recorded that day. */
const listResolved: OperationHandler = (ctx, { params }) => {
  const start = getTime(params, "start_time")!;
  const end = getTime(params, "end_time")!;
  if (end <= start) throw invalidField("endTime", "must be after startTime");
  if (end - start > 366 * DAY_MS) throw invalidField("endTime", "must be at most 366 days after startTime");
  const byDay = new Map<number, Array<Record<string, unknown>>>();
  for (const rec of readable(ctx)) {
    const fixed = eventsOf(rec).find((e) => kindOf(e) === "fixed");
    const at = fixed?.createTime ? Date.parse(fixed.createTime) : NaN;
    if (!(at >= start && at < end)) continue;
    const day = Math.floor(at / DAY_MS) * DAY_MS;
    const list = byDay.get(day) ?? [];
    list.push({ id: textOf(rec.data.advisoryId), aliases: aliasesOf(rec), cvssSeverities: severitiesOf(rec) });
    byDay.set(day, list);
  }
  return {
    resolvedVulnsReports: [...byDay]
      .sort(([a], [b]) => a - b)
      .map(([day, resolvedVulns]) => ({ date: iso(day), resolvedVulns })),
  };
};

export const ADVISORY_OPERATIONS: Record<string, OperationHandler> = {
  SecurityAdvisoryService_ListDocuments: listDocuments,
  SecurityAdvisoryService_ListVulnerabilityMetadata: listMetadata,
  SecurityAdvisoryService_ListResolvedVulnsReports: listResolved,
  PingService_Ping: () => ({ response: "pong" }),
};
