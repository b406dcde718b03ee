/**
 * `platform-pulumi drift`: the organization below a group, read in one paginated List per kind
 * (drift/organization.ts), against what Pulumi stacks and Terraform states manage
 * (drift/stackExport.ts, drift/terraformSource.ts), compared record by record
 * (drift/compare.ts) and reported (drift/report.ts). Every source is read, and every file
 * checked, before the first request; an error leaves no report.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ApiClient } from "../core/transport/client";
import { typeTokenOf } from "../native/kinds";
import type { LeftOut } from "../exporter/declarable";
import type { Subtree } from "../exporter/read";
import { compareOrganization, DriftReport } from "./compare";
import { Ignored, NOTHING_IGNORED, readIgnoreFile } from "./ignore";
import type { SourceRead } from "./managed";
import { Organization, readOrganization } from "./organization";
import { readStack, readStackFile } from "./stackExport";
import { readTerraformFile } from "./terraformSource";

export { FINDINGS, FORMATS, found, jsonReport, markdownReport, textReport } from "./report";
export type { Finding, Format } from "./report";
export type { DriftReport } from "./compare";

export interface DriftOptions {
  under: string;
  stacks?: readonly string[];
  stackFiles?: readonly string[];
  terraformStates?: readonly string[];
  /** Where `pulumi stack export` runs (default: the current folder). */
  cwd?: string;
  /** The `pulumi` to run (default: the one on PATH). */
  pulumi?: string;
  importFile?: string;
  ignoreFile?: string;
  client: ApiClient;
}

export interface DriftResult {
  report: DriftReport;
  /** Unmanaged records the import file leaves out (an invite: no import can bring it in), each with why. */
  leftOut: LeftOut[];
}

export async function driftOrganization(options: DriftOptions): Promise<DriftResult> {
  const ignored: Ignored = options.ignoreFile ? readIgnoreFile(options.ignoreFile) : NOTHING_IGNORED;
  const sources: SourceRead[] = [
    ...(options.stackFiles ?? []).map(readStackFile),
    ...(options.terraformStates ?? []).map(readTerraformFile),
  ];
  for (const stack of options.stacks ?? [])
    sources.push(await readStack(stack, options.cwd ?? process.cwd(), options.pulumi));
  const org = await readOrganization(options.client, options.under);
  const report = compareOrganization(org, sources, ignored);
  const leftOut = options.importFile ? writeImportFile(org, report, options.importFile) : [];
  return { report, leftOut };
}

/** Pulumi's import file for the unmanaged records, as `export --import-file` writes one. */
function writeImportFile(org: Organization, report: DriftReport, file: string): LeftOut[] {
  // Loaded only for --import-file: the exporter's models are most of what a drift would load otherwise.
  /* eslint-disable @typescript-eslint/no-require-imports -- see above */
  const { declareOrganization } = require("../exporter/declare") as typeof import("../exporter/declare");
  const { importFileOf, withoutUnimportable } =
    require("../exporter/importFile") as typeof import("../exporter/importFile");
  /* eslint-enable @typescript-eslint/no-require-imports */
  const unmanaged = new Set(report.unmanaged.map((e) => `${e.type} ${e.uid}`));
  const tree: Subtree = {
    under: org.under,
    kinds: org.kinds.map(({ exported, records }) => ({
      exported,
      records: records.filter((r) => unmanaged.has(`${typeTokenOf(exported.kind)} ${r.uid}`)),
    })),
  };
  const { importable, leftOut } = withoutUnimportable(tree);
  const model = declareOrganization(importable, { manageDeletes: false, roles: new Map(), leftOut });
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(importFileOf(model.resources), null, 2) + "\n");
  return leftOut;
}
