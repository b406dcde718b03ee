/**
 * `npm run generate`: writes every file derived from the kinds' descriptions (each kind's
 * `resource.ts` beside its description, the README's resources table); `--check` writes
 * nothing and fails naming each file that is stale. Runs from the compiled tree (dist/), and
 * reads the registry (resources/kinds.ts), so it knows the kinds the package ships and no other.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import * as estree from "prettier/plugins/estree";
import * as typescriptSyntax from "prettier/plugins/typescript";
import * as prettier from "prettier/standalone";
import type { FieldShape, ResourceKind } from "../../provider/kind";
import { KINDS, modulePathOf } from "../../resources/kinds";
import { KindModel, kindModel } from "../../provider/kindModel";
import { resourcesTable, withTable } from "./readmeTable";
import { resourceModule } from "./resourceModule";

/** The repository whose sources it writes, from the compiled tree (dist/) it runs from. */
export const repoRoot = path.resolve(__dirname, "..", "..", "..");

export interface GeneratedFile {
  /** Absolute path of the source file. */
  file: string;
  text: string;
}

/** The API document's messages and enums, from the repository's committed copy. */
export function documentedSchemas(root: string = repoRoot): Readonly<Record<string, FieldShape>> {
  const document = JSON.parse(fs.readFileSync(path.join(root, "api", "api-v2-schema.json"), "utf8")) as {
    schemas: Record<string, FieldShape>;
  };
  return document.schemas;
}

/**
 * `text` as `npm run lint` wants it: prettier's standalone build with the project's settings
 * (its main entry imports dynamically, which a test runner without ES module support refuses).
 */
async function formatted(file: string, text: string): Promise<string> {
  const settings = JSON.parse(fs.readFileSync(path.join(repoRoot, ".prettierrc.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return prettier.format(text, { ...settings, filepath: file, plugins: [typescriptSyntax, estree] });
}

/** The class module of one kind, in `folder`, importing the core from `core`. */
export async function generateKind(
  kind: ResourceKind,
  folder: string,
  schemas: Readonly<Record<string, FieldShape>>,
  core: string = path.relative(folder, path.join(repoRoot, "provider")).split(path.sep).join("/"),
): Promise<GeneratedFile> {
  return classFile(kindModel(kind, schemas), folder, schemas, core);
}

async function classFile(
  model: KindModel,
  folder: string,
  schemas: Readonly<Record<string, FieldShape>>,
  core: string = path.relative(folder, path.join(repoRoot, "provider")).split(path.sep).join("/"),
): Promise<GeneratedFile> {
  const file = path.join(folder, "resource.ts");
  const text = resourceModule(model, schemas, { core, provider: "./provider" });
  return { file, text: await formatted(file, text) };
}

/** Every generated file of the registry's kinds. */
export async function generatedFiles(): Promise<GeneratedFile[]> {
  const schemas = documentedSchemas();
  const files: GeneratedFile[] = [];
  const models: KindModel[] = [];
  for (const registered of KINDS) {
    const kind = registered.provider.kind;
    if (!kind) throw new Error(`${modulePathOf(registered)} carries no kind description`);
    const model = kindModel(kind, schemas);
    models.push(model);
    // The class goes beside the kind's provider module, in the kind's folder.
    files.push(await classFile(model, path.join(repoRoot, path.dirname(modulePathOf(registered))), schemas));
  }
  const readme = path.join(repoRoot, "README.md");
  files.push({ file: readme, text: withTable(fs.readFileSync(readme, "utf8"), resourcesTable(models)) });
  return files;
}

/** The generated files whose committed text differs from what the descriptions give now. */
export async function staleFiles(): Promise<string[]> {
  const stale: string[] = [];
  for (const { file, text } of await generatedFiles())
    if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text) stale.push(path.relative(repoRoot, file));
  return stale;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
  if (values.check) {
    const stale = await staleFiles();
    if (stale.length > 0) {
      console.error(`Stale generated files (run \`npm run generate\`):\n  ${stale.join("\n  ")}`);
      process.exitCode = 1;
    } else console.log("Every generated file is current.");
    return;
  }
  for (const { file, text } of await generatedFiles()) {
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) continue;
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(repoRoot, file)}`);
  }
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
