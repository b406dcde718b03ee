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
 * unmaintained), while SEA needs only the running `node` and postject from npm. Where the
 * running Node.js cannot be made into an executable, the build fails saying why.
 *
 * Archives are kept in ~/.cache/platform-pulumi/plugin/<hash> (XDG_CACHE_HOME respected), named
 * by their inputs (the bundle and its source map, the node binary, postject, this recipe; not the
 * output, which differs by a few bytes between builds of the same inputs), and the tests reuse one
 * until the code changes.
 */
import { spawn, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { repoRoot } from "../host/stage";
import { API_DOCUMENT_ASSET, Bundle, bundleCli, bundlePlugin, SOURCE_MAP_ASSET } from "./bundle";
import { buildFront, frontNotices, frontSources, goVersion, nodeExecutableFile } from "./front";
import { makeExecutable } from "./sea";

export const PLUGIN_NAME = "platform";
/** An executable's file name on this platform (`.exe` on Windows, as Pulumi's plugin cache expects). */
export const executableFile = (name: string) => (process.platform === "win32" ? `${name}.exe` : name);
export const EXECUTABLE = executableFile(`pulumi-resource-${PLUGIN_NAME}`);
/** The command-line tool's executable, `platform-pulumi` with every subcommand of cli.ts. */
export const CLI_EXECUTABLE = executableFile("platform-pulumi");

/** `linux-amd64`: the platform part of a plugin archive's name, as Pulumi names them. */
export function platformName(platform: string = process.platform, arch: string = process.arch): string {
  const goArch: Record<string, string> = { x64: "amd64", arm64: "arm64" };
  return `${platform === "win32" ? "windows" : platform}-${goArch[arch] ?? arch}`;
}

export function archiveName(version: string): string {
  return `pulumi-resource-${PLUGIN_NAME}-v${version}-${platformName()}.tar.gz`;
}

/** `platform-pulumi-v<version>-<os>-<arch>.tar.gz`: the CLI executable's archive. */
export function cliArchiveName(version: string): string {
  return `platform-pulumi-v${version}-${platformName()}.tar.gz`;
}

export interface PluginArchive {
  /** The archive in the cache. */
  file: string;
  version: string;
  /** Whether this call built it (false: found in the cache). */
  built: boolean;
}

interface Recipe {
  /** The cache's folder for this kind of archive. */
  kind: "plugin" | "cli";
  bundle: Bundle;
  /** The executable the archive is run by. */
  executable: string;
  /** The single executable's file, when not `executable` (the plugin's: its front is `executable`). */
  seaExecutable?: string;
  /** Builds `executable` into the content folder (given a scratch folder), beside the single executable. */
  front?: {
    build(output: string, work: string): void;
    hashParts(): Array<[string, string | Buffer]>;
    notices(executable: string): string[];
  };
  archive: string;
  /** Asset name → file, carried in the executable. */
  assets: Record<string, string>;
  /** Throws unless the built executable runs. */
  check(executable: string): Promise<unknown>;
}

function cacheRoot(kind: Recipe["kind"]): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "platform-pulumi", kind);
}

function recipeHash(recipe: Recipe): string {
  const hash = crypto.createHash("sha256");
  const part = (name: string, data: string | Buffer) => hash.update(name).update("\0").update(data).update("\0");
  part("bundle", recipe.bundle.code);
  if (recipe.bundle.sourceMap) part("source map", recipe.bundle.sourceMap);
  part("node", fs.readFileSync(process.execPath));
  part("platform", platformName());
  part("postject", fs.readFileSync(require.resolve("postject/package.json", { paths: [repoRoot] })));
  for (const [name, file] of Object.entries(recipe.assets).sort()) part(`asset ${name}`, fs.readFileSync(file));
  for (const [name, data] of recipe.front?.hashParts() ?? []) part(`front ${name}`, data);
  for (const file of fs.readdirSync(__dirname).sort())
    if (file.endsWith(".js")) part(file, fs.readFileSync(path.join(__dirname, file)));
  return hash.digest("hex").slice(0, 16);
}

/**
 * The archive of the built package's plugin: from the cache, or built into it. The engine runs
 * its front (tools/plugin/front.ts), which starts the Node.js single executable beside it.
 */
export async function pluginArchive(): Promise<PluginArchive> {
  const bundle = await bundlePlugin();
  const schema = bundle.schema!;
  return seaArchive({
    kind: "plugin",
    bundle,
    executable: EXECUTABLE,
    seaExecutable: nodeExecutableFile(),
    front: {
      build: (output, work) => buildFront(output, { schema, version: bundle.version }, work),
      hashParts: () => [["go", goVersion()], ["schema", schema], ...frontSources()],
      notices: frontNotices,
    },
    archive: archiveName(bundle.version),
    assets: {},
    check: answersHandshake,
  });
}

/** The archive of the built package's command-line tool: from the cache, or built into it. */
export async function cliArchive(): Promise<PluginArchive> {
  const bundle = await bundleCli();
  return seaArchive({
    kind: "cli",
    bundle,
    executable: CLI_EXECUTABLE,
    archive: cliArchiveName(bundle.version),
    assets: { [API_DOCUMENT_ASSET]: path.join(repoRoot, "dist", "emulator", "api-v2-schema.json") },
    check: printsUsage,
  });
}

async function seaArchive(recipe: Recipe): Promise<PluginArchive> {
  const { bundle } = recipe;
  for (const file of Object.values(recipe.assets))
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  const dir = path.join(cacheRoot(recipe.kind), recipeHash(recipe));
  const file = path.join(dir, recipe.archive);
  if (fs.existsSync(file)) return { file, version: bundle.version, built: false };
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // Built beside its final folder and renamed into place: a folder that exists is complete.
  const scratch = fs.mkdtempSync(`${dir}.partial-`);
  try {
    const content = path.join(scratch, "content");
    const work = path.join(scratch, "work");
    fs.mkdirSync(content);
    fs.mkdirSync(work);
    const executable = path.join(content, recipe.executable);
    const seaExecutable = path.join(content, recipe.seaExecutable ?? recipe.executable);
    const assets = { ...recipe.assets };
    if (bundle.sourceMap) {
      assets[SOURCE_MAP_ASSET] = path.join(work, SOURCE_MAP_ASSET);
      fs.writeFileSync(assets[SOURCE_MAP_ASSET], bundle.sourceMap);
    }
    makeExecutable(bundle.code, seaExecutable, work, assets);
    await recipe.check(seaExecutable);
    const files: Record<string, { data: Buffer; executable?: boolean }> = {};
    if (recipe.front) {
      recipe.front.build(executable, fs.mkdtempSync(path.join(work, "front-")));
      await recipe.check(executable);
      files[recipe.executable] = { data: fs.readFileSync(executable), executable: true };
    }
    Object.assign(files, {
      [recipe.seaExecutable ?? recipe.executable]: { data: fs.readFileSync(seaExecutable), executable: true },
      LICENSE: { data: fs.readFileSync(path.join(repoRoot, "LICENSE")) },
      "THIRD-PARTY-NOTICES": {
        data: Buffer.from([...(recipe.front?.notices(executable) ?? []), notices(recipe)].join("\n")),
      },
    });
    fs.writeFileSync(path.join(scratch, recipe.archive), zlib.gzipSync(tarOf(files)));
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

function notices({ executable, seaExecutable, bundle }: Recipe): string {
  const lines = [...bundle.packages].map(([pkg, license]) => `${pkg}: ${license}`);
  return [
    `${seaExecutable ?? executable} is Node.js ${process.version} (MIT; https://github.com/nodejs/node/blob/main/LICENSE) running`,
    "one bundle of the platform-pulumi package (Apache-2.0, LICENSE) and these npm packages, each under",
    "its own license as published with it:",
    "",
    ...lines,
    "",
  ].join("\n");
}

/**
 * A ustar archive of `files` at its root, sorted, with fixed owners and times and the modes given
 * here (a Windows file system has no executable bit to copy): the same bytes on every platform.
 */
export function tarOf(files: Record<string, { data: Buffer; executable?: boolean }>): Buffer {
  const blocks: Buffer[] = [];
  for (const name of Object.keys(files).sort()) {
    const { data, executable } = files[name];
    if (Buffer.byteLength(name) > 100) throw new Error(`tar: the name ${name} is longer than 100 bytes`);
    const header = Buffer.alloc(512);
    const field = (offset: number, length: number, value: string) => header.write(value, offset, length, "ascii");
    const octal = (offset: number, length: number, value: number) =>
      field(offset, length, value.toString(8).padStart(length - 1, "0") + "\0");
    field(0, 100, name);
    octal(100, 8, executable ? 0o755 : 0o644);
    octal(108, 8, 0);
    octal(116, 8, 0);
    octal(124, 12, data.length);
    octal(136, 12, 0);
    field(148, 8, " ".repeat(8));
    field(156, 1, "0");
    field(257, 8, "ustar\u000000");
    let sum = 0;
    for (const byte of header) sum += byte;
    field(148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** No PATH: the executable needs nothing beside it (Windows keeps SystemRoot, which its system libraries read). */
const bareEnvironment = (): NodeJS.ProcessEnv =>
  process.platform === "win32" ? { PATH: "", SystemRoot: process.env.SystemRoot } : { PATH: "" };

/** Runs the CLI executable with `--help` and no PATH: it prints its usage and exits 0. */
export function printsUsage(executable: string): Promise<void> {
  const answer = spawnSync(executable, ["--help"], { encoding: "utf8", env: bareEnvironment(), timeout: 60_000 });
  if (answer.error || answer.status !== 0 || !answer.stdout.startsWith("Usage: platform-pulumi"))
    return Promise.reject(
      new Error(
        `${executable} --help did not print its usage: ${answer.error?.message ?? `exit ${answer.status}`}\n` +
          `${answer.stdout}${answer.stderr}`,
      ),
    );
  return Promise.resolve();
}

/** Starts the executable as the engine does (its address as the argument) and waits for the port it prints. */
export function answersHandshake(executable: string, timeoutMs = 60_000): Promise<number> {
  return new Promise((resolve, reject) => {
    // No engine listens there: the plugin only prints its port before it would call it.
    const child = spawn(executable, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"], env: bareEnvironment() });
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

/** Copies the archive into dist/<folder>/ and prints its path last (what the release workflow uploads). */
export function publish(kind: string, folder: string, archive: Promise<PluginArchive>): void {
  archive
    .then(({ file, built }) => {
      const target = path.join(repoRoot, "dist", folder, path.basename(file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target);
      console.error(`${kind}: ${built ? "built" : "found in the cache"} ${file} (${fs.statSync(file).size} bytes)`);
      console.log(target);
    })
    .catch((error: unknown) => {
      console.error(`${kind}: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}

if (require.main === module) publish("plugin", "plugin", pluginArchive());
