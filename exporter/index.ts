/**
 * `platform-pulumi export`: reads every record below a group with the provider's own settings
 * (PLATFORM_API_URL and a token or an identity, from the environment) and writes a complete
 * Pulumi project that declares exactly them, in TypeScript, JavaScript, YAML or Python
 * (exporter/project.ts). Reading (exporter/read.ts), what the program declares
 * (exporter/declare.ts, a model of exporter/model.ts) and writing it in one language are apart.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ApiClient } from "../core/transport/client";
import { uidIssue } from "../core/common/uid";
import { LeftOut, leftOutLine, sortOut } from "./declarable";
export { leftOutLine } from "./declarable";
export { LANGUAGES, type Language, pluginInstallCommand } from "./project";
import { exportedKinds, servedKinds } from "./kinds";
import { importFileOf, withoutUnimportable } from "./importFile";
import { declareOrganization } from "./declare";
import { countsOf, ProgramModel, secretKeysOf } from "./model";
import { Language, PROJECT_FILES, projectFiles } from "./project";
import { Progress, readGroup, readRole, readSubtree, Subtree } from "./read";
import { referenceFields } from "./references";
import { yamlRefusals } from "./yamlProgram";

export interface ExportOptions {
  /** The group whose descendants are exported (itself not declared). */
  under: string;
  /** The project folder to write: created, or empty. Without it only the import file is written. */
  out?: string;
  /**
   * Also (or only) write Pulumi's import file for the native provider here: `pulumi import --file`
   * then brings the records in. Records no import can bring in (an invite: its code) are left out
   * as records a program cannot declare are.
   */
  importFile?: string;
  /** The program's language (default: TypeScript). */
  language?: Language;
  /** @deprecated the same as `language: "javascript"`. */
  js?: boolean;
  manageDeletes?: boolean;
  /** The Pulumi project name (default: platform-<last segment of under>). */
  name?: string;
  /**
   * Write the program even when some records cannot be declared as they are (see
   * exporter/declarable.ts): they are left out, each named in a comment, instead of the export failing.
   */
  partial?: boolean;
  client: ApiClient;
  progress?: Progress;
}

export interface ExportResult {
  /** The project's files written in `out` (none without it). */
  files: string[];
  counts: Record<string, number>;
  secretKeys: string[];
  /** Records not declared (only with `partial`), each with why. */
  leftOut: LeftOut[];
}

/**
 * Some records cannot be declared as they are: nothing was written. An export is a promise that
 * the program declares exactly what exists, so one that would leave records out (and whose `up`
 * would then leave them unmanaged) fails unless asked for (--partial), naming each record and why.
 */
export class ExportRefusedError extends Error {
  constructor(readonly leftOut: LeftOut[]) {
    super(
      `${leftOut.length} record${leftOut.length === 1 ? "" : "s"} cannot be declared as ${leftOut.length === 1 ? "it is" : "they are"}, ` +
        "so nothing was written:\n" +
        leftOut.map(leftOutLine).join("\n") +
        "\nFix them in the organization and export again, or run the export with --partial to write the program " +
        "without them (they stay in the organization as they are, each named in a comment).",
    );
    this.name = "ExportRefusedError";
  }
}

export async function exportOrganization(options: ExportOptions): Promise<ExportResult> {
  const issue = uidIssue(options.under, "path");
  if (issue) throw new Error(`--under must be a group's uid: it ${issue}`);
  const { language, out } = checkDestination(options);
  // Kinds the API version does not serve cannot be read: an export that skipped them unasked
  // could leave records out unseen, so it is refused unless --partial says records may be.
  const { served, unserved } = servedKinds(exportedKinds());
  if (unserved.length > 0 && !options.partial)
    throw new Error(
      `${unserved.join("; ")}. Or export with --partial to leave those kinds out unread ` +
        "(the export cannot tell whether any such records exist)",
    );
  for (const why of unserved) options.progress?.(`not read: ${why}`);
  await readGroup(options.client, options.under);
  const read = await readSubtree(options.client, options.under, served, options.progress);
  const { declarable, leftOut } = declarableRecords(read, language, options);
  if (leftOut.length > 0 && !options.partial) throw new ExportRefusedError(leftOut);

  const roles = await referredRoles(options.client, declarable);
  const model = declareOrganization(declarable, { manageDeletes: !!options.manageDeletes, roles, leftOut });
  const name = options.name ?? `platform-${options.under.split("/").pop()!.toLowerCase()}`;
  const files = writeExport(model, {
    language,
    out,
    importFile: options.importFile,
    name,
    description: `Exported from the organization below ${options.under} by platform-pulumi export`,
  });
  return { files, counts: countsOf(model), secretKeys: secretKeysOf(model), leftOut };
}

/**
 * The language and the project folder an export writes, checked before anything is read: the
 * options agree, and the folder holds none of the files it would write.
 */
export function checkDestination(options: Pick<ExportOptions, "language" | "js" | "out" | "importFile">): {
  language: Language;
  out?: string;
} {
  if (options.js && options.language !== undefined && options.language !== "javascript")
    throw new Error(`--js writes JavaScript, and --language says ${options.language}: give one of them`);
  const language: Language = options.language ?? (options.js ? "javascript" : "typescript");
  if (options.out === undefined && options.importFile === undefined)
    throw new Error("export writes a project (--out) or an import file (--import-file): give at least one");
  const out = options.out;
  const clash = out === undefined ? [] : PROJECT_FILES.filter((file) => fs.existsSync(path.join(out, file)));
  if (clash.length > 0) {
    throw new Error(`${out} already holds ${clash.join(", ")}; choose an empty or new folder with --out`);
  }
  return { language, out };
}

/**
 * The records read that the program can declare, and the others with why: those no import can
 * bring in when an import file is written, and those the provider or the language refuses.
 */
export function declarableRecords(
  read: Subtree,
  language: Language,
  options: Pick<ExportOptions, "importFile">,
): { declarable: Subtree; leftOut: LeftOut[] } {
  const { importable, leftOut: notImportable } = options.importFile
    ? withoutUnimportable(read)
    : { importable: read, leftOut: [] };
  // A YAML program cannot carry every key a map may hold (exporter/yamlProgram.ts).
  const sorted = sortOut(importable, language === "yaml" ? yamlRefusals : undefined);
  return { declarable: sorted.declarable, leftOut: [...notImportable, ...sorted.leftOut] };
}

/**
 * Roles that records refer to outside what is declared (built-in ones, or a custom role of a
 * group above): named by uid in the program, with their names read here for its variables.
 */
export async function referredRoles(client: ApiClient, declarable: Subtree): Promise<Map<string, string>> {
  const declared = new Set(declarable.kinds.flatMap((k) => k.records.map((r) => r.uid)));
  const referred = new Set<string>();
  for (const { exported, records } of declarable.kinds) {
    const references = referenceFields(exported.kind);
    for (const record of records) {
      for (const [field, value] of Object.entries(exported.kind.toOutputs(record))) {
        // A role's uid is one segment: the references of that form are to roles.
        if (references.get(field) !== "segment" || typeof value !== "string") continue;
        if (!declared.has(value) && !uidIssue(value, "segment")) referred.add(value);
      }
    }
  }
  const roles = new Map<string, string>();
  for (const uid of [...referred].sort()) {
    const role = await readRole(client, uid);
    if (role) roles.set(uid, role.name);
  }
  return roles;
}

/** Writes the project of `model` in `out` and its import file, if asked: the project's files (none without `out`). */
export function writeExport(
  model: ProgramModel,
  options: { language: Language; out?: string; importFile?: string; name: string; description: string },
): string[] {
  const { out, importFile } = options;
  const files = projectFiles(model, options);
  if (out !== undefined) {
    fs.mkdirSync(out, { recursive: true });
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(out, file), text);
  }
  if (importFile !== undefined) {
    fs.mkdirSync(path.dirname(path.resolve(importFile)), { recursive: true });
    fs.writeFileSync(importFile, JSON.stringify(importFileOf(model.resources), null, 2) + "\n");
  }
  return out === undefined ? [] : Object.keys(files);
}
