/**
 * `npm run plugin`: the native provider `platform` as Pulumi's own Node-written providers ship, a
 * single executable in `pulumi-resource-platform-v<version>-<os>-<arch>.tar.gz`, which
 * `pulumi plugin install resource platform <version> --file <archive>` puts in the plugin cache and
 * which needs no Node.js, npm or node_modules on the user's machine. Written to dist/plugin/; its
 * path is the last line printed.
 *
 * The executable is a Node.js single-executable application (./sea.ts) of one bundle of the plugin
 * and its dependencies (./bundle.ts). Why that and not a packager: pkg and nexe download prebuilt
 * base binaries from GitHub releases (not reachable from the machines that build this, and pkg is
 * no longer maintained), while SEA needs only the running `node` and postject from npm. Where the
 * running Node.js cannot be made into an executable, the build fails saying why.
 *
 * Archives are kept in ~/.cache/platform-pulumi/plugin/<hash> (XDG_CACHE_HOME respected), named
 * by their inputs (the bundle, the node binary, postject, this recipe: two builds of the same
 * inputs gave archives 75 bytes apart, so the output is not what names them), and the tests reuse
 * one until the code changes.
 */
import { spawn, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { repoRoot } from "../host/stage";
import { bundlePlugin, PluginBundle } from "./bundle";
import { makeExecutable } from "./sea";

export const PLUGIN_NAME = "platform";
export const EXECUTABLE = `pulumi-resource-${PLUGIN_NAME}`;

/** `linux-amd64`: the platform part of a plugin archive's name, as Pulumi names them. */
export function platformName(platform: string = process.platform, arch: string = process.arch): string {
  const goArch: Record<string, string> = { x64: "amd64", arm64: "arm64" };
  return `${platform === "win32" ? "windows" : platform}-${goArch[arch] ?? arch}`;
}

export function archiveName(version: string): string {
  return `${EXECUTABLE}-v${version}-${platformName()}.tar.gz`;
}

export interface PluginArchive {
  /** The archive in the cache. */
  file: string;
  version: string;
  /** Whether this call built it (false: found in the cache). */
  built: boolean;
}

function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "platform-pulumi", "plugin");
}

function recipeHash(bundle: PluginBundle): string {
  const hash = crypto.createHash("sha256");
  const part = (name: string, data: string | Buffer) => hash.update(name).update("\0").update(data).update("\0");
  part("bundle", bundle.code);
  part("node", fs.readFileSync(process.execPath));
  part("platform", platformName());
  part("postject", fs.readFileSync(require.resolve("postject/package.json", { paths: [repoRoot] })));
  for (const file of fs.readdirSync(__dirname).sort())
    if (file.endsWith(".js")) part(file, fs.readFileSync(path.join(__dirname, file)));
  return hash.digest("hex").slice(0, 16);
}

/** The archive of the built package's plugin: from the cache, or built into it. */
export async function pluginArchive(): Promise<PluginArchive> {
  const bundle = await bundlePlugin();
  const dir = path.join(cacheRoot(), recipeHash(bundle));
  const file = path.join(dir, archiveName(bundle.version));
  if (fs.existsSync(file)) return { file, version: bundle.version, built: false };
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // Built beside its final folder and renamed into place: a folder that exists is complete.
  const scratch = fs.mkdtempSync(`${dir}.partial-`);
  try {
    const content = path.join(scratch, "content");
    const work = path.join(scratch, "work");
    fs.mkdirSync(content);
    fs.mkdirSync(work);
    const executable = path.join(content, EXECUTABLE);
    makeExecutable(bundle.code, executable, work);
    await answersHandshake(executable);
    fs.copyFileSync(path.join(repoRoot, "LICENSE"), path.join(content, "LICENSE"));
    fs.writeFileSync(path.join(content, "THIRD-PARTY-NOTICES"), notices(bundle));
    writeArchive(
      content,
      [EXECUTABLE, "LICENSE", "THIRD-PARTY-NOTICES"],
      path.join(scratch, archiveName(bundle.version)),
    );
    fs.rmSync(content, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
    try {
      fs.renameSync(scratch, dir);
    } catch (error) {
      // Another build finished first; its archive is as good as ours.
      if (!fs.existsSync(file)) throw error;
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return { file, version: bundle.version, built: true };
}

function notices(bundle: PluginBundle): string {
  const lines = [...bundle.packages].map(([pkg, license]) => `${pkg}: ${license}`);
  return [
    `${EXECUTABLE} is Node.js ${process.version} (MIT; https://github.com/nodejs/node/blob/main/LICENSE) running`,
    "one bundle of the platform-pulumi package (Apache-2.0, LICENSE) and these npm packages, each under",
    "its own license as published with it:",
    "",
    ...lines,
    "",
  ].join("\n");
}

/** A gzipped tar of `names` in `dir`, at its root, with fixed owners and times. */
function writeArchive(dir: string, names: string[], output: string): void {
  const tar = spawnSync(
    "tar",
    ["--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "-cf", "-", ...names],
    { cwd: dir, maxBuffer: 1 << 30 },
  );
  if (tar.error || tar.status !== 0)
    throw new Error(`tar failed: ${tar.error?.message ?? ""}${tar.stderr?.toString() ?? ""}`);
  fs.writeFileSync(output, zlib.gzipSync(tar.stdout));
}

/** Starts the executable as the engine does (its address as the argument) and waits for the port it prints. */
export function answersHandshake(executable: string, timeoutMs = 60_000): Promise<number> {
  return new Promise((resolve, reject) => {
    // No engine listens there: the plugin only prints its port before it would call it.
    const child = spawn(executable, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: "" } });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${executable} printed no port within ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const port = /^(\d+)\s*$/m.exec(stdout);
      if (!port) return;
      clearTimeout(timer);
      child.kill("SIGKILL");
      resolve(Number(port[1]));
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${executable} exited (${code}) before printing its port: ${stdout}${stderr}`));
    });
  });
}

if (require.main === module) {
  pluginArchive()
    .then(({ file, built }) => {
      const target = path.join(repoRoot, "dist", "plugin", path.basename(file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target);
      console.error(`plugin: ${built ? "built" : "found in the cache"} ${file} (${fs.statSync(file).size} bytes)`);
      console.log(target);
    })
    .catch((error: unknown) => {
      console.error(`plugin: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
