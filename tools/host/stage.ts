import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { contentFolder } from "./contentFolder";

/** The repository root, found from the compiled location (dist/tools/host). */
export const repoRoot = path.resolve(__dirname, "..", "..", "..");

export interface StagedPackage {
  /** A program directory whose node_modules holds platform-pulumi. */
  dir: string;
  /** The staged package's own directory (a link to the shared install: see stagePackage). */
  packageDir: string;
  /** require() resolved from the program directory, as a user's program would. */
  require<T = any>(id: string): T;
  remove(): void;
}

/**
 * Installs the built package into <repo>/.work/<name>/node_modules/platform-pulumi, the way npm
 * installs it for users: what package.json's files ship, in a folder under node_modules. That
 * matters: the closure serializer captures a provider as `require("platform-pulumi/…")` only when
 * its module's real path lies under node_modules (a link to the repository's dist/ would be
 * inlined instead). Below the repository, the install still resolves @pulumi/pulumi and the other
 * dependencies from the repository's node_modules, so program and package share one Pulumi runtime.
 *
 * The install is one copy per content of the build (installedPackage), which every staged program
 * links to, since a copy costs about 0.7 s of CPU and every story and harness stages one. A test
 * that rewrites the installed files takes a copy of its own first (ownCopyOfPackage).
 */
export function stagePackage(name = `stage-${process.pid}-${Math.random().toString(36).slice(2, 8)}`): StagedPackage {
  const dir = path.join(repoRoot, ".work", name);
  const packageDir = path.join(dir, "node_modules", "platform-pulumi");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(packageDir), { recursive: true });
  fs.symlinkSync(installedPackage(), packageDir, "dir");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: name, private: true }) + "\n");
  return {
    dir,
    packageDir,
    require: (id: string) => require(require.resolve(id, { paths: [dir] })),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Replaces a staged program's link to the shared install with a copy of its own, for a test that
 * rewrites the installed package (an upgrade) without touching what other stories run.
 */
export function ownCopyOfPackage(programDir: string): string {
  const packageDir = path.join(programDir, "node_modules", "platform-pulumi");
  const shared = fs.realpathSync(packageDir);
  fs.rmSync(packageDir, { recursive: true, force: true });
  fs.cpSync(shared, packageDir, { recursive: true });
  return packageDir;
}

/** What package.json's files ship from dist/: no tests, tools, benchmarks or examples. */
function shippedFiles(built: string): string[] {
  const left = ["tests", "tools", "bench", "examples"];
  return fs
    .readdirSync(built, { recursive: true, encoding: "utf8" })
    .filter((file) => !left.some((dir) => file === dir || file.startsWith(`${dir}${path.sep}`)))
    .filter((file) => !path.basename(file).includes(".test.") && fs.statSync(path.join(built, file)).isFile())
    .sort();
}

/** The package installed once per content of the build, under <repo>/.work/package/<hash>/node_modules. */
function installedPackage(): string {
  const built = path.join(repoRoot, "dist");
  if (!fs.existsSync(path.join(built, "index.js"))) {
    throw new Error(`dist/index.js is missing: run "npm run build" first`);
  }
  // The native provider's launcher and plugin file, which package.json's files ship beside dist/.
  const sources: Array<[string, string]> = [
    ["package.json", path.join(repoRoot, "package.json")],
    ...["pulumi-resource-platform", "PulumiPlugin.yaml"].map((file): [string, string] => [
      path.join("native", file),
      path.join(repoRoot, "native", file),
    ]),
    ...shippedFiles(built).map((file): [string, string] => [path.join("dist", file), path.join(built, file)]),
  ];
  const hash = crypto.createHash("sha256");
  for (const [target, source] of sources) hash.update(`${target}\0`).update(fs.readFileSync(source)).update("\0");
  const key = hash.digest("hex").slice(0, 16);
  const home = contentFolder(path.join(repoRoot, ".work", "package"), key, (staging) => {
    for (const [target, source] of sources) {
      const copy = path.join(staging, "node_modules", "platform-pulumi", target);
      fs.mkdirSync(path.dirname(copy), { recursive: true });
      fs.copyFileSync(source, copy);
      fs.chmodSync(copy, fs.statSync(source).mode);
    }
  });
  return path.join(home, "node_modules", "platform-pulumi");
}
