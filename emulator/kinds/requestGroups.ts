/**
 * Library request groups (v2beta1): a list of Java or Python requirements a group asks to have
 * built. Each requirement is an item whose availability follows the libraries catalog: built
 * when the catalog has that version, requestable when it has the library, else not found.
 */
import { createHash, randomBytes } from "node:crypto";
import { getBool, getString, textOf } from "../params";
import { Rec } from "../store";
import { findArtifact } from "../operations/librariesCatalog";
import { iso, KindRules } from "./kind";

export interface RequestItem {
  uid: string;
  requirement: string;
  packageName: string;
  version: string;
  removed: boolean;
  updateTime: number;
}

const ECOSYSTEM_OF_FORMAT: Record<string, string> = {
  INPUT_FORMAT_MAVEN_GAV_LIST: "ECOSYSTEM_JAVA",
};

/** `name==1.2` (Python) or `group:artifact:1.2` (Maven); anything else is an invalid requirement. */
export function parseRequirement(ecosystem: string, requirement: string): { packageName: string; version: string } {
  const text = requirement.trim();
  if (ecosystem === "ECOSYSTEM_JAVA") {
    const parts = text.split(":");
    return parts.length === 3
      ? { packageName: `${parts[0]}:${parts[1]}`, version: parts[2] }
      : { packageName: text, version: "" };
  }
  const match = /^([A-Za-z0-9_.-]+)\s*(?:==\s*([A-Za-z0-9_.+-]+))?/.exec(text);
  return match ? { packageName: match[1], version: match[2] ?? "" } : { packageName: text, version: "" };
}

export function availabilityOf(ecosystem: string, item: RequestItem): string {
  if (!item.packageName || !/^[A-Za-z0-9_.:+-]+$/.test(item.packageName)) return "AVAILABILITY_INVALID_REQUIREMENT";
  const artifact = findArtifact(ecosystem, item.packageName);
  if (!artifact) return "AVAILABILITY_NOT_FOUND_UPSTREAM";
  return artifact.versions.includes(item.version) ? "AVAILABILITY_BUILT" : "AVAILABILITY_CAN_BE_REQUESTED";
}

export const itemsOf = (rec: Rec) => (rec.data.items ?? []) as RequestItem[];

export function availabilitySummary(rec: Rec): Record<string, number> {
  const ecosystem = String(rec.data.ecosystem);
  const summary = { built: 0, canBeRequested: 0, notFoundUpstream: 0, invalidRequirement: 0, removed: 0 };
  for (const item of itemsOf(rec)) {
    if (item.removed) summary.removed++;
    else
      switch (availabilityOf(ecosystem, item)) {
        case "AVAILABILITY_BUILT":
          summary.built++;
          break;
        case "AVAILABILITY_CAN_BE_REQUESTED":
          summary.canBeRequested++;
          break;
        case "AVAILABILITY_NOT_FOUND_UPSTREAM":
          summary.notFoundUpstream++;
          break;
        default:
          summary.invalidRequirement++;
      }
  }
  return summary;
}

export function renderItem(ecosystem: string, item: RequestItem): Record<string, unknown> {
  const artifact = findArtifact(ecosystem, item.packageName);
  return {
    uid: item.uid,
    requirement: item.requirement,
    packageName: item.packageName,
    version: item.version,
    ecosystem,
    availability: availabilityOf(ecosystem, item),
    removed: item.removed,
    ...(artifact ? { upgrade: { latestVersion: artifact.versions[artifact.versions.length - 1] } } : {}),
    updateTime: iso(item.updateTime),
  };
}

export const requestGroups: KindRules = {
  uniqueNames: false,
  check: (values) => {
    // Stored items are records, not requirement lines: only a create's body is checked here.
    if ((values.items as unknown[] | undefined)?.some((item) => typeof item !== "string")) return [];
    const lines = [...((values.items as string[]) ?? []), ...textOf(values.content).split("\n")];
    return lines.some((l) => l.trim() !== "" && !l.trim().startsWith("#"))
      ? []
      : [{ field: "items", description: "name at least one requirement (items, or lines of content)" }];
  },
  initialData: (ctx, values, now) => {
    const ecosystem = ECOSYSTEM_OF_FORMAT[String(values.format)] ?? "ECOSYSTEM_PYTHON";
    const content = textOf(values.content);
    const requirements = [...((values.items as string[]) ?? []), ...content.split("\n")]
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"));
    const items: RequestItem[] = requirements.map((requirement) => ({
      uid: randomBytes(8).toString("hex"),
      requirement,
      ...parseRequirement(ecosystem, requirement),
      removed: false,
      updateTime: now,
    }));
    return {
      ecosystem,
      items,
      createdBy: ctx.principal.identityUid,
      source: "REQUEST_SOURCE_API",
      status: "REQUEST_GROUP_STATUS_PENDING",
      itemsUpdateTime: now,
      input: {
        filename: textOf(values.filename),
        format: typeof values.format === "string" ? values.format : "INPUT_FORMAT_UNSPECIFIED",
        itemCount: items.length,
        contentHash: createHash("sha256").update(content).digest("hex"),
      },
    };
  },
  defaults: { forCveRemediation: false, cveRemediationSummary: {}, orgUpstreamEnabled: false },
  derived: (rec) => ({
    parentId: rec.parentUid,
    availabilitySummary: availabilitySummary(rec),
    // Records kept before items had their own time were last changed with the request group.
    itemsUpdateTime: iso(Number(rec.data.itemsUpdateTime ?? rec.updateTime)),
  }),
  filters: (params) => {
    const parent = getString(params, "parent");
    const state = getString(params, "state");
    const status = getString(params, "status");
    const ecosystem = getString(params, "ecosystem");
    const source = getString(params, "source");
    const forCve = getBool(params, "for_cve_remediation");
    const predicates: Array<(rec: Rec) => boolean> = [];
    if (parent) predicates.push((r) => r.parentUid === parent);
    if (state === "REQUEST_GROUP_STATE_DRAFT") predicates.push((r) => r.data.submitTime === undefined);
    if (state === "REQUEST_GROUP_STATE_SUBMITTED") predicates.push((r) => r.data.submitTime !== undefined);
    if (status && status !== "REQUEST_GROUP_STATUS_UNSPECIFIED") predicates.push((r) => r.data.status === status);
    if (ecosystem && ecosystem !== "ECOSYSTEM_UNSPECIFIED") predicates.push((r) => r.data.ecosystem === ecosystem);
    if (source && source !== "REQUEST_SOURCE_UNSPECIFIED") predicates.push((r) => r.data.source === source);
    if (forCve !== undefined) predicates.push((r) => (r.data.forCveRemediation === true) === forCve);
    return { predicates, signature: [parent, state, status, ecosystem, source, forCve] };
  },
};
