/**
 * `npm run generate`: writes every file derived from the kinds' descriptions (each kind's
 * `resource.ts` beside its description, each domain's index (resources/<domain>/index.ts), the
 * resources table of docs/guides/resources.md, the reference pages under docs/api/, the examples
 * of docs/_index.md and the settings table of docs/installation-configuration.md) and the SDKs
 * under sdk/ (tools/pulumi-cli/sdks.ts, with `platform-gen-sdk` built beside the Pulumi CLI);
 * `--check` writes nothing and fails naming each file that is stale, or left over under docs/api/
 * or sdk/ (the SDKs regenerated into a temporary folder and compared with the committed trees).
 * Runs from the compiled tree (dist/), and reads the registry (resources/kinds.ts), so it knows
 * the kinds the package ships and no other.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import * as estree from "prettier/plugins/estree";
import * as typescriptSyntax from "prettier/plugins/typescript";
import * as prettier from "prettier/standalone";
import type { FieldShape, ResourceKind } from "../../core/model/kind";
import { KINDS, modulePathOf } from "../../resources/kinds";
import { KindModel, kindModel } from "../../core/model/kindModel";
import { nativeFunctions } from "../../native/functions";
import { PACKAGE_NAME, describedKinds } from "../../native/kinds";
import { packageSchema } from "../../native/schema";
import { loadApiDocument } from "../../emulator/apiDocument";
import { pulumiCliDir } from "../pulumi-cli/find";
import { generateSdks, sdkTreeDifferences } from "../pulumi-cli/sdks";
import { docsContext, docsFiles, orphanedFiles } from "./docs/docsFiles";
import { ProgramContext, kindProgram } from "./docs/program";
import { typescriptDeclaration } from "./docs/typescript";
import { resourcesTable, withTable } from "./resourcesTable";
import { resourceModule } from "./resourceModule";
import { domainIndexes } from "./domainIndex";

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
  core: string = path.relative(folder, path.join(repoRoot, "core")).split(path.sep).join("/"),
): Promise<GeneratedFile> {
  return classFile(kindModel(kind, schemas), folder, schemas, programContext(), core);
}

async function classFile(
  model: KindModel,
  folder: string,
  schemas: Readonly<Record<string, FieldShape>>,
  context: ProgramContext,
  core: string = path.relative(folder, path.join(repoRoot, "core")).split(path.sep).join("/"),
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
  const folders: string[] = [];
  const context = programContext();
  for (const registered of KINDS) {
    const kind = registered.provider.kind;
    if (!kind) throw new Error(`${modulePathOf(registered)} carries no kind description`);
    const model = kindModel(kind, schemas);
    models.push(model);
    // The class goes beside the kind's provider module, in the kind's folder.
    const folder = path.join(repoRoot, path.dirname(modulePathOf(registered)));
    folders.push(folder);
    files.push(await classFile(model, folder, schemas, context));
  }
  files.push(...domainIndexes(folders));
  const resourcesPage = path.join(DOCS, "guides", "resources.md");
  files.push({
    file: resourcesPage,
    text: withTable(fs.readFileSync(resourcesPage, "utf8"), resourcesTable(models), "docs/guides/resources.md"),
  });
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

/** Where the SDKs are committed. */
const SDK = path.join(repoRoot, "sdk");

/**
 * The SDKs generated from the schema the descriptions give now, into a temporary folder; `use`
 * gets it, and it is removed after.
 */
function withFreshSdks<T>(use: (folder: string) => T): T {
  const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
  const schema = packageSchema(version, loadApiDocument(path.join(repoRoot, "api", "api-v2-schema.json")));
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-generate-sdk-"));
  try {
    generateSdks(folder, undefined, pulumiCliDir(), JSON.parse(JSON.stringify(schema)) as Record<string, unknown>);
    return use(folder);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The generated files whose committed text differs from what the descriptions give now, and those left over. */
export async function staleFiles(): Promise<string[]> {
  const stale: string[] = [];
  const files = await generatedFiles();
  for (const { file, text } of files)
    if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text) stale.push(path.relative(repoRoot, file));
  for (const file of leftOver(files)) stale.push(`${path.relative(repoRoot, file)} (nothing generates it: delete it)`);
  for (const file of withFreshSdks((fresh) => sdkTreeDifferences(SDK, fresh))) stale.push(`sdk/${file}`);
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
  withFreshSdks((fresh) => {
    if (sdkTreeDifferences(SDK, fresh).length === 0) return;
    // Each folder replaced whole, so that no file of an earlier schema survives; build outputs go with it.
    for (const entry of fs.readdirSync(fresh)) {
      fs.rmSync(path.join(SDK, entry), { recursive: true, force: true });
      fs.cpSync(path.join(fresh, entry), path.join(SDK, entry), { recursive: true });
    }
    console.log("wrote sdk/");
  });
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
