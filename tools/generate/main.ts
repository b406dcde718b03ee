/**
 * `npm run generate`: writes every file derived from the kinds' descriptions (each kind's
 * `resource.ts` beside its description, the README's resources table, the reference pages under
 * docs/api/ and the examples of docs/_index.md); `--check` writes nothing and fails naming each
 * file that is stale, or left over under docs/api/. Runs from the compiled tree (dist/), and
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
import { nativeFunctions } from "../../native/functions";
import { PACKAGE_NAME, describedKinds } from "../../native/kinds";
import { docsContext, docsFiles, orphanedFiles } from "./docs/docsFiles";
import { ProgramContext, kindProgram } from "./docs/program";
import { typescriptDeclaration } from "./docs/typescript";
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

/** The kinds and functions an example may refer to: the registry's. */
function programContext(): ProgramContext {
  return { kinds: describedKinds(), functions: nativeFunctions(PACKAGE_NAME), packageName: PACKAGE_NAME };
}

/** The class's example: the kind's example resource declared in TypeScript. */
async function classExample(kind: ResourceKind, context: ProgramContext): Promise<string> {
  const program = kindProgram(kind, context);
  const text = await formatted("example.ts", typescriptDeclaration(program.resources[program.resources.length - 1]));
  return text.trimEnd();
}

/** The class module of one kind, in `folder`, importing the core from `core`. */
export async function generateKind(
  kind: ResourceKind,
  folder: string,
  schemas: Readonly<Record<string, FieldShape>>,
  core: string = path.relative(folder, path.join(repoRoot, "provider")).split(path.sep).join("/"),
): Promise<GeneratedFile> {
  return classFile(kindModel(kind, schemas), folder, schemas, programContext(), core);
}

async function classFile(
  model: KindModel,
  folder: string,
  schemas: Readonly<Record<string, FieldShape>>,
  context: ProgramContext,
  core: string = path.relative(folder, path.join(repoRoot, "provider")).split(path.sep).join("/"),
): Promise<GeneratedFile> {
  const file = path.join(folder, "resource.ts");
  const example = await classExample(model.kind, context);
  const text = resourceModule(model, schemas, { core, provider: "./provider" }, example);
  return { file, text: await formatted(file, text) };
}

/** The folder of the hand-written and generated docs pages. */
const DOCS = path.join(repoRoot, "docs");

/** Every generated file of the registry's kinds. */
export async function generatedFiles(): Promise<GeneratedFile[]> {
  const schemas = documentedSchemas();
  const files: GeneratedFile[] = [];
  const models: KindModel[] = [];
  const context = programContext();
  for (const registered of KINDS) {
    const kind = registered.provider.kind;
    if (!kind) throw new Error(`${modulePathOf(registered)} carries no kind description`);
    const model = kindModel(kind, schemas);
    models.push(model);
    // The class goes beside the kind's provider module, in the kind's folder.
    files.push(await classFile(model, path.join(repoRoot, path.dirname(modulePathOf(registered))), schemas, context));
  }
  const readme = path.join(repoRoot, "README.md");
  files.push({ file: readme, text: withTable(fs.readFileSync(readme, "utf8"), resourcesTable(models)) });
  const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
  const apiDocument = path.join(repoRoot, "api", "api-v2-schema.json");
  const docs = await docsFiles(
    DOCS,
    docsContext(version, apiDocument, (text) => formatted("example.ts", text)),
  );
  for (const { file, text } of docs) files.push({ file: path.join(DOCS, file), text });
  return files;
}

/** Files under docs/api/ that nothing generates any more, as absolute paths. */
function leftOver(files: readonly GeneratedFile[]): string[] {
  const docs = files
    .filter(({ file }) => file.startsWith(DOCS + path.sep))
    .map(({ file, text }) => ({ file: path.relative(DOCS, file).split(path.sep).join("/"), text }));
  return orphanedFiles(DOCS, docs).map((file) => path.join(DOCS, file));
}

/** The generated files whose committed text differs from what the descriptions give now, and those left over. */
export async function staleFiles(): Promise<string[]> {
  const stale: string[] = [];
  const files = await generatedFiles();
  for (const { file, text } of files)
    if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text) stale.push(path.relative(repoRoot, file));
  for (const file of leftOver(files)) stale.push(`${path.relative(repoRoot, file)} (nothing generates it: delete it)`);
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
  const files = await generatedFiles();
  for (const { file, text } of files) {
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(repoRoot, file)}`);
  }
  for (const file of leftOver(files)) {
    fs.rmSync(file);
    console.log(`deleted ${path.relative(repoRoot, file)}`);
  }
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
