import * as fs from "node:fs";
import * as path from "node:path";

/** The repository root, found from the compiled location (dist/tools/host). */
export const repoRoot = path.resolve(__dirname, "..", "..", "..");

export interface StagedPackage {
  /** A program directory whose node_modules holds a copy of platform-pulumi. */
  dir: string;
  /** The staged package's own directory. */
  packageDir: string;
  /** require() resolved from the program directory, as a user's program would. */
  require<T = any>(id: string): T;
  remove(): void;
}

/**
 * Installs the built package into <repo>/.work/<name>/node_modules/platform-pulumi as a
 * copy, the way npm installs it for users. A copy matters: the closure serializer captures
 * a provider as `require("platform-pulumi/…")` only when its module lives under
 * node_modules, and a symlink resolves to the repo and would be inlined instead. Being
 * below the repo, the copy still resolves @pulumi/pulumi and the other dependencies from
 * the repo's node_modules, so program and package share one Pulumi runtime.
 */
export function stagePackage(name = `stage-${process.pid}-${Math.random().toString(36).slice(2, 8)}`): StagedPackage {
  const dir = path.join(repoRoot, ".work", name);
  const packageDir = path.join(dir, "node_modules", "platform-pulumi");
  const built = path.join(repoRoot, "dist");
  if (!fs.existsSync(path.join(built, "index.js"))) {
    throw new Error(`dist/index.js is missing: run "npm run build" first`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(packageDir, { recursive: true });
  fs.copyFileSync(path.join(repoRoot, "package.json"), path.join(packageDir, "package.json"));
  // What package.json's files ship: no tests (a third of the files, and their copy a third of a stack's set-up).
  fs.cpSync(built, path.join(packageDir, "dist"), {
    recursive: true,
    filter: (source) =>
      !["tests", "tools", "bench", "examples"].some((dir) => source.startsWith(path.join(built, dir))) &&
      !path.basename(source).includes(".test."),
  });
  // The native provider's launcher and plugin file, which package.json's files ship beside dist/.
  for (const file of ["pulumi-resource-platform", "PulumiPlugin.yaml"])
    fs.cpSync(path.join(repoRoot, "native", file), path.join(packageDir, "native", file));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: name, private: true }) + "\n");
  return {
    dir,
    packageDir,
    require: (id: string) => require(require.resolve(id, { paths: [dir] })),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
