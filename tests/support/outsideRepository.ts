/**
 * Where a user stands: a new, empty folder outside the repository, and a shell environment with
 * nothing the test run set. What runs there finds only what was installed or cloned into it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";

/**
 * A new empty folder under the system's temporary folder. Node and TypeScript look for
 * node_modules in every folder above a file, so none of them may hold one.
 */
export function emptyFolderOutsideRepository(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  if (!path.relative(repoRoot, dir).startsWith(".."))
    throw new Error(`${dir} is inside the repository ${repoRoot}; set TMPDIR to a folder outside it`);
  for (let up = path.dirname(dir); up !== path.dirname(up); up = path.dirname(up))
    if (fs.existsSync(path.join(up, "node_modules")))
      throw new Error(`${up} holds a node_modules that ${dir} would see; set TMPDIR to a folder without one above it`);
  return dir;
}

/**
 * The environment of a user's shell: nothing npm set for the test run (its prefix, its
 * node_modules/.bin on PATH), no NODE_PATH and no PLATFORM_* settings, so only the folder's own
 * node_modules and files count.
 */
export function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm_|PLATFORM_)/i.test(key) && key !== "NODE_PATH" && key !== "INIT_CWD") env[key] = value;
  env.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => !path.resolve(dir).startsWith(repoRoot))
    .join(path.delimiter);
  return { ...env, ...extra };
}
