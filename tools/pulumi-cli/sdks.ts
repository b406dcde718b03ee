/**
 * The SDKs of the native provider `platform` (Node.js, Python, Go), kept in the repository under
 * sdk/ as Pulumi's providers keep theirs, so that each language's own tools find them (`go get
 * github.com/platform-pulumi/platform-pulumi/sdk/go@<tag>`). `npm run generate` rewrites them from
 * the schema native/schema.ts writes (the one the plugin answers, as native/sdks.test.ts shows) and
 * `generate --check` regenerates them into a temporary folder and compares the trees.
 * `platform-gen-sdk`, built beside the CLI (./gen-sdk), writes each SDK with pkg/v3's own code
 * generators (`pulumi package gen-sdk` reaches them only through language hosts the module proxy
 * does not serve).
 *
 * `npm run sdks` writes them to sdk/<language> from the schema the built plugin answers under the
 * real CLI, beside schema.json, and packs them into sdk/dist as they are published (packSdks): the
 * Node.js one compiled and packed by npm, the Python one a wheel; sdk/go is a Go module as it is.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../host/stage";
import { pulumiCliDir } from "./find";
import { pythonWithPulumiSdk } from "./pythonSdk";

export const SDK_LANGUAGES = ["nodejs", "python", "go"] as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

/** The plugin's executable: it runs dist/native/main.js, so the package must be built. */
export const PLUGIN_EXECUTABLE = path.join(repoRoot, "native", "pulumi-resource-platform");

/** What `pulumi package get-schema` prints for the built plugin, parsed. */
export function schemaFromPlugin(cliDir = pulumiCliDir()): Record<string, unknown> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-schema-"));
  try {
    const answer = run(path.join(cliDir, "pulumi"), ["package", "get-schema", PLUGIN_EXECUTABLE], {
      PULUMI_HOME: home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      // The plugin's launcher runs on node.
      PATH: [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
    });
    return JSON.parse(answer) as Record<string, unknown>;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Writes `outDir`/schema.json (the plugin's) and `outDir`/<language> for each language, each
 * folder emptied first so that no file of an earlier schema survives. Returns the folders.
 */
export function generateSdks(
  outDir: string,
  languages: readonly SdkLanguage[] = SDK_LANGUAGES,
  cliDir = pulumiCliDir(),
  schema: Record<string, unknown> = schemaFromPlugin(cliDir),
): Record<SdkLanguage, string> {
  const generator = path.join(cliDir, "platform-gen-sdk");
  if (!fs.existsSync(generator))
    throw new Error(`${generator} is missing: the CLI's folder was not built by tools/pulumi-cli/build.js`);
  fs.mkdirSync(outDir, { recursive: true });
  const schemaFile = path.join(outDir, "schema.json");
  fs.writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
  const folders = {} as Record<SdkLanguage, string>;
  for (const language of languages) {
    const folder = path.join(outDir, language);
    fs.rmSync(folder, { recursive: true, force: true });
    run(generator, [schemaFile, language, folder]);
    // pyproject.toml names README.md beside it; the generator writes the package's readme inside the package.
    if (language === "python")
      for (const entry of fs.readdirSync(folder, { withFileTypes: true }))
        if (entry.isDirectory() && fs.existsSync(path.join(folder, entry.name, "README.md")))
          fs.copyFileSync(path.join(folder, entry.name, "README.md"), path.join(folder, "README.md"));
    folders[language] = folder;
  }
  return folders;
}

/** What packing writes inside an SDK's folder, and sdk/dist: build outputs, neither generated nor committed. */
const BUILD_OUTPUTS = [/^dist$/, /^nodejs\/(bin|node_modules)$/, /^python\/(build|[^/]+\.egg-info)$/];

/** The files under `dir` as paths relative to it with "/" between names, build outputs left out. */
function treeFiles(dir: string, prefix = ""): string[] {
  if (!fs.existsSync(path.join(dir, prefix))) return [];
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (BUILD_OUTPUTS.some((pattern) => pattern.test(relative))) continue;
    if (entry.isDirectory()) files.push(...treeFiles(dir, relative));
    else files.push(relative);
  }
  return files.sort();
}

/**
 * How the tree `committed` differs from `fresh` (each a folder generateSdks wrote): the relative
 * paths of files whose bytes differ, that are missing, or that nothing generates any more.
 */
export function sdkTreeDifferences(committed: string, fresh: string): string[] {
  const have = new Set(treeFiles(committed));
  const want = treeFiles(fresh);
  const differences: string[] = [];
  for (const file of want)
    if (!have.has(file)) differences.push(`${file} (missing)`);
    else if (!fs.readFileSync(path.join(committed, file)).equals(fs.readFileSync(path.join(fresh, file))))
      differences.push(file);
  const wanted = new Set(want);
  for (const file of have) if (!wanted.has(file)) differences.push(`${file} (nothing generates it: delete it)`);
  return differences;
}

/**
 * Installs a generated Python SDK with pip into `target` (a folder for PYTHONPATH), as a user's
 * `pip install` would: the SDK reads its own version from the installed package's metadata, so
 * it cannot be imported from its source folder. No index is asked: its dependencies (pulumi,
 * semver, packaging) are the venv's own.
 */
export function installPythonSdk(python: string, sdkDir: string, target: string): void {
  const flags = ["--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "--no-index"];
  run(python, ["-m", "pip", "install", ...flags, "--target", target, sdkDir]);
}

export interface SdkPackages {
  /** The Node.js SDK compiled and packed by `npm pack`: `<outDir>/platform-pulumi-platform-<version>.tgz`. */
  nodejs: string;
  /** The Python SDK's wheel: `<outDir>/pulumi_platform-<version>-py3-none-any.whl`. */
  python: string;
}

/**
 * Packs generated SDKs as they are published, into `outDir`: the Node.js SDK compiled with the
 * repository's TypeScript against its @pulumi/pulumi into bin/ (with its package.json, README and
 * LICENSE), then `npm pack`ed; the Python SDK built into a wheel by pip (`python`: one with
 * setuptools, the cached venv's; no index is asked).
 */
export function packSdks(
  folders: Pick<Record<SdkLanguage, string>, "nodejs" | "python">,
  outDir: string,
  python: string,
): SdkPackages {
  return { nodejs: packNodejsSdk(folders.nodejs, outDir), python: pythonWheel(python, folders.python, outDir) };
}

/** The Node.js SDK compiled into its bin/ with package.json, README and LICENSE, then `npm pack`ed into `outDir`. */
export function packNodejsSdk(nodejs: string, outDir: string): string {
  fs.mkdirSync(outDir, { recursive: true });
  const modules = path.join(nodejs, "node_modules");
  fs.symlinkSync(path.join(repoRoot, "node_modules"), modules);
  try {
    run(process.execPath, [path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", nodejs]);
  } finally {
    fs.rmSync(modules, { force: true });
  }
  const bin = path.join(nodejs, "bin");
  for (const file of ["package.json", "README.md"]) fs.copyFileSync(path.join(nodejs, file), path.join(bin, file));
  fs.copyFileSync(path.join(repoRoot, "LICENSE"), path.join(bin, "LICENSE"));
  const packed = JSON.parse(
    run("npm", ["pack", "--json", "--pack-destination", outDir, bin], { npm_config_loglevel: "error" }),
  ) as Array<{ filename: string }>;
  return path.join(outDir, packed[0].filename);
}

/** The Python SDK built into a wheel in `outDir` by pip, with no index asked. */
export function pythonWheel(python: string, folder: string, outDir: string): string {
  fs.mkdirSync(outDir, { recursive: true });
  const before = new Set(fs.readdirSync(outDir));
  const flags = ["--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "--no-index"];
  run(python, ["-m", "pip", "wheel", ...flags, "-w", outDir, folder]);
  const wheel = fs.readdirSync(outDir).find((file) => file.endsWith(".whl") && !before.has(file));
  if (!wheel) throw new Error(`pip wheel wrote no wheel into ${outDir}`);
  return path.join(outDir, wheel);
}

function run(file: string, args: string[], env: Record<string, string> = {}): string {
  const answer = spawnSync(file, args, { encoding: "utf8", env: { ...process.env, ...env }, timeout: 300_000 });
  if (answer.error || answer.status !== 0)
    throw new Error(
      `${path.basename(file)} ${args.join(" ")} failed: ${answer.error?.message ?? ""}${answer.stdout}${answer.stderr}`,
    );
  return answer.stdout;
}

if (require.main === module) {
  try {
    const outDir = path.resolve(process.argv[2] ?? path.join(repoRoot, "sdk"));
    const folders = generateSdks(outDir);
    for (const [language, folder] of Object.entries(folders)) console.log(`${language}: ${folder}`);
    const dist = path.join(outDir, "dist");
    fs.rmSync(dist, { recursive: true, force: true });
    const packages = packSdks(folders, dist, pythonWithPulumiSdk());
    console.log(`nodejs package: ${packages.nodejs}`);
    console.log(`python wheel: ${packages.python}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
