/**
 * `platform-pulumi export`: reads every record below a group with the provider's own settings
 * (PLATFORM_API_URL and a token or an identity, from the environment) and writes a complete
 * Pulumi project that declares exactly them (Pulumi.yaml, package.json, tsconfig.json and
 * index.ts, or index.js with --js).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as YAML from "yaml";
import type { ApiClient } from "../provider/client";
import { uidIssue } from "../provider/uid";
import { LeftOut, leftOutLine, sortOut } from "./declarable";
export { leftOutLine } from "./declarable";
import { exportedKinds, servedKinds } from "./kinds";
import { importFileOf, withoutUnimportable } from "./importFile";
import { generateProgram } from "./program";
import { Progress, readGroup, readRole, readSubtree } from "./read";
import { referenceFields } from "./references";

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

const PROJECT_FILES = ["Pulumi.yaml", "package.json", "tsconfig.json", "index.ts", "index.js"];

export async function exportOrganization(options: ExportOptions): Promise<ExportResult> {
  const issue = uidIssue(options.under, "path");
  if (issue) throw new Error(`--under must be a group's uid: it ${issue}`);
  if (options.out === undefined && options.importFile === undefined)
    throw new Error("export writes a project (--out) or an import file (--import-file): give at least one");
  const out = options.out;
  const clash = out === undefined ? [] : PROJECT_FILES.filter((file) => fs.existsSync(path.join(out, file)));
  if (clash.length > 0) {
    throw new Error(`${out} already holds ${clash.join(", ")}; choose an empty or new folder with --out`);
  }
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
  const { importable, leftOut: notImportable } = options.importFile
    ? withoutUnimportable(read)
    : { importable: read, leftOut: [] };
  const sorted = sortOut(importable);
  const declarable = sorted.declarable;
  const leftOut = [...notImportable, ...sorted.leftOut];
  if (leftOut.length > 0 && !options.partial) throw new ExportRefusedError(leftOut);

  // Roles that records refer to outside the tree (built-in ones, or a custom role of a group
  // above): named by uid in the program, with their names read here for its variables.
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
    const role = await readRole(options.client, uid);
    if (role) roles.set(uid, role.name);
  }

  const program = generateProgram(declarable, {
    js: !!options.js,
    manageDeletes: !!options.manageDeletes,
    roles,
    leftOut,
  });
  const name = options.name ?? `platform-${options.under.split("/").pop()!.toLowerCase()}`;
  const files: Record<string, string> = {
    "Pulumi.yaml": YAML.stringify({
      name,
      runtime: "nodejs",
      description: `Exported from the organization below ${options.under} by platform-pulumi export`,
      ...(program.secretKeys.length > 0 ? { config: secretConfig(name, program.secretKeys) } : {}),
    }),
    "package.json": JSON.stringify(packageJson(name, !!options.js), null, 2) + "\n",
    [options.js ? "index.js" : "index.ts"]: program.text,
  };
  if (!options.js) files["tsconfig.json"] = JSON.stringify(TSCONFIG, null, 2) + "\n";
  if (out !== undefined) {
    fs.mkdirSync(out, { recursive: true });
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(out, file), text);
  }
  if (options.importFile !== undefined) {
    fs.mkdirSync(path.dirname(path.resolve(options.importFile)), { recursive: true });
    fs.writeFileSync(options.importFile, JSON.stringify(importFileOf(program.resources), null, 2) + "\n");
  }
  return {
    files: out === undefined ? [] : Object.keys(files),
    counts: program.counts,
    secretKeys: program.secretKeys,
    leftOut,
  };
}

/** Declared in Pulumi.yaml so `pulumi up` asks for them: set each with `pulumi config set --secret`. */
function secretConfig(project: string, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [`${project}:${key}`, { type: "string", secret: true }]));
}

function packageJson(name: string, js: boolean): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json sits outside the compiled tree
  const own = require("../../package.json") as { version: string; dependencies: Record<string, string> };
  return {
    name,
    private: true,
    main: js ? "index.js" : "index.ts",
    dependencies: {
      "@pulumi/pulumi": own.dependencies["@pulumi/pulumi"],
      "platform-pulumi": `^${own.version}`,
    },
    ...(js ? {} : { devDependencies: { "@types/node": "^20.0.0", typescript: "^5.0.0" } }),
  };
}

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: "ES2020",
    module: "commonjs",
    moduleResolution: "node",
    esModuleInterop: true,
    skipLibCheck: true,
    outDir: "bin",
  },
  files: ["index.ts"],
};
