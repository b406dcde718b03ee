/**
 * Figure 13: the plugin's archive (tools/plugin) against the npm package's launcher, and with `baseline`
 * against an earlier build's archives: sizes, and each fresh process's time to its port, GetSchema and
 * first Configure, sample by sample. What it measures and its targets: bench/README.md [13].
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import * as grpc from "@grpc/grpc-js";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import {
  archiveName,
  CLI_EXECUTABLE,
  cliArchive,
  cliArchiveName,
  EXECUTABLE,
  pluginArchive,
} from "../tools/plugin/build";
import { nodeExecutableFile } from "../tools/plugin/front";
import { fmt, ratios, Spread, spread } from "./stats";

const repoRoot = path.resolve(__dirname, "..", "..");

export interface PluginStartSample {
  handshakeMs: number;
  schemaMs: number;
  /** Until the first Configure (asked once GetSchema is answered) is answered: the engine's next call. */
  configureMs: number;
  rssMb: number;
}

type Figures = { handshakeMs: Spread; schemaMs: Spread; configureMs: Spread; rssMb: Spread };

export interface PluginStartResult {
  node: string;
  /** os.loadavg() (1, 5, 15 minutes) as the rounds began: the machine may be shared. */
  loadAverage: number[];
  size: {
    /** The archive `pulumi plugin install --file` takes, and the executable it unpacks. */
    archiveBytes: number;
    /** The archive's executables: the front and the Node.js plugin it starts. */
    executableBytes: number;
    frontBytes: number;
    /** `npm pack` of the package (the launcher and dist/), and what an install adds to node_modules
     * for it (the package unpacked and its production dependencies); Node.js itself comes on top. */
    npmPackedBytes: number;
    npmInstalledBytes: number;
    nodeBinaryBytes: number;
  };
  executable: Figures;
  launcher: Figures;
  /** Executable / launcher, sample by sample. */
  ratio: { handshake: Spread; schema: Spread; configure: Spread; rss: Spread };
  /** The same rounds against an earlier build's archives, when given. */
  baseline?: BaselineResult;
}

export interface BaselineResult {
  /** The folder the earlier archives came from. */
  from: string;
  plugin: Figures;
  /** `platform-pulumi --help`, start to exit, of this build's CLI executable and the earlier one's. */
  cliHelpMs: Spread;
  baselineCliHelpMs: Spread;
  /** `node -e 0`, start to exit: the floor any single executable of Node.js starts above. */
  emptyNodeMs: Spread;
  /** This build / the earlier one, sample by sample. */
  ratio: { handshake: Spread; schema: Spread; configure: Spread; cliHelp: Spread };
}

/** Milliseconds from starting an empty `node` to its exit. */
function emptyNodeMs(): number {
  const started = performance.now();
  execFileSync(process.execPath, ["-e", "0"]);
  return performance.now() - started;
}

/** Milliseconds from starting `executable --help` to its exit (it must print its usage). */
function helpMs(executable: string): number {
  const started = performance.now();
  const answer = spawnSync(executable, ["--help"], { encoding: "utf8" });
  const ms = performance.now() - started;
  if (answer.status !== 0 || !answer.stdout.startsWith("Usage: platform-pulumi"))
    throw new Error(`${executable} --help printed no usage (exit ${answer.status}): ${answer.stdout}${answer.stderr}`);
  return ms;
}

/** Starts `command`, waits for its port, asks GetSchema, kills it. */
async function sample(command: string, args: string[]): Promise<PluginStartSample> {
  const started = performance.now();
  const child = spawn(command, [...args, "127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /^(\d+)\s*$/m.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.once("exit", (code) => reject(new Error(`${command} exited (${code}) before its port: ${out}${err}`)));
    });
    const handshakeMs = performance.now() - started;
    const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      const schema = await new Promise<string>((resolve, reject) =>
        client.getSchema(new providerProto.GetSchemaRequest(), (error, response) =>
          error ? reject(error) : resolve(response.getSchema()),
        ),
      );
      const schemaMs = performance.now() - started;
      if (!schema.startsWith('{"name":"platform"')) throw new Error(`${command} answered no schema`);
      const configure = new providerProto.ConfigureRequest();
      // Settings that pass their rules; no request is made until a resource operation.
      configure.getVariablesMap().set("platform:config:apiUrl", "http://127.0.0.1:1");
      configure.getVariablesMap().set("platform:config:token", "bench");
      await new Promise<void>((resolve, reject) =>
        client.configure(configure, (error) => (error ? reject(error) : resolve())),
      );
      const configureMs = performance.now() - started;
      // The executable's memory, and the Node.js plugin's it started, if any (the archive's front).
      const rssMb = [child.pid!, ...childrenOf(child.pid!)]
        .map((pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024)
        .reduce((sum, mb) => sum + mb, 0);
      return { handshakeMs, schemaMs, configureMs, rssMb };
    } finally {
      client.close();
    }
  } finally {
    // Ended and waited for (the front ends the Node.js plugin it started first): the next sample
    // starts on a machine without it.
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
  }
}

/** The pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** Bytes of every file under `dir`, links not followed. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(file);
    else if (entry.isFile()) total += fs.statSync(file).size;
  }
  return total;
}

function npmSizes(): { packed: number; installed: number } {
  const [pack] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repoRoot, encoding: "utf8" }),
  ) as Array<{ size: number; unpackedSize: number }>;
  const dependencies = execFileSync("npm", ["ls", "--omit=dev", "--all", "--parseable"], {
    cwd: repoRoot,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .filter((dir) => dir !== repoRoot);
  return {
    packed: pack.size,
    installed: pack.unpackedSize + dependencies.reduce((sum, dir) => sum + bytesUnder(dir), 0),
  };
}

export async function benchPluginStart(options: { runs: number; baseline?: string }): Promise<PluginStartResult> {
  const archive = await pluginArchive();
  const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-plugin-bench-"));
  try {
    const unpack = (file: string, folder: string) => {
      if (!fs.existsSync(file)) throw new Error(`${file} is missing: the baseline folder needs both archives`);
      fs.mkdirSync(path.join(unpacked, folder), { recursive: true });
      execFileSync("tar", ["-xzf", file, "-C", path.join(unpacked, folder)]);
    };
    unpack(archive.file, "new");
    const executable = path.join(unpacked, "new", EXECUTABLE);
    const launcher = path.join(repoRoot, "native", EXECUTABLE);
    const samples = { executable: [] as PluginStartSample[], launcher: [] as PluginStartSample[] };
    const old = {
      plugin: [] as PluginStartSample[],
      help: [] as number[],
      baselineHelp: [] as number[],
      emptyNode: [] as number[],
    };
    let cli = "";
    let oldPlugin = "";
    let oldCli = "";
    if (options.baseline) {
      unpack((await cliArchive()).file, "new");
      unpack(path.join(options.baseline, archiveName(archive.version)), "old");
      unpack(path.join(options.baseline, cliArchiveName(archive.version)), "old");
      cli = path.join(unpacked, "new", CLI_EXECUTABLE);
      oldPlugin = path.join(unpacked, "old", EXECUTABLE);
      oldCli = path.join(unpacked, "old", CLI_EXECUTABLE);
    }
    const loadAverage = os.loadavg().map((load) => Math.round(load * 100) / 100);
    // One of each first, not counted: the files into the page cache.
    await sample(executable, []);
    await sample(process.execPath, [launcher]);
    if (options.baseline) {
      await sample(oldPlugin, []);
      helpMs(cli);
      helpMs(oldCli);
    }
    for (let run = 0; run < options.runs; run++) {
      samples.executable.push(await sample(executable, []));
      samples.launcher.push(await sample(process.execPath, [launcher]));
      if (options.baseline) {
        old.plugin.push(await sample(oldPlugin, []));
        old.help.push(helpMs(cli));
        old.baselineHelp.push(helpMs(oldCli));
        old.emptyNode.push(emptyNodeMs());
      }
    }
    const of = (list: PluginStartSample[], key: keyof PluginStartSample) => list.map((s) => s[key]);
    /** This executable's start-up times over `other`'s, sample by sample. */
    const ratiosAgainst = (other: PluginStartSample[]) => ({
      handshake: spread(ratios(of(samples.executable, "handshakeMs"), of(other, "handshakeMs"))),
      schema: spread(ratios(of(samples.executable, "schemaMs"), of(other, "schemaMs"))),
      configure: spread(ratios(of(samples.executable, "configureMs"), of(other, "configureMs"))),
    });
    const figures = (list: PluginStartSample[]) => ({
      handshakeMs: spread(of(list, "handshakeMs")),
      schemaMs: spread(of(list, "schemaMs")),
      configureMs: spread(of(list, "configureMs")),
      rssMb: spread(of(list, "rssMb")),
    });
    const npm = npmSizes();
    return {
      node: process.version,
      loadAverage,
      size: {
        archiveBytes: fs.statSync(archive.file).size,
        executableBytes:
          fs.statSync(executable).size + fs.statSync(path.join(unpacked, "new", nodeExecutableFile())).size,
        frontBytes: fs.statSync(executable).size,
        npmPackedBytes: npm.packed,
        npmInstalledBytes: npm.installed,
        nodeBinaryBytes: fs.statSync(process.execPath).size,
      },
      executable: figures(samples.executable),
      launcher: figures(samples.launcher),
      ratio: {
        ...ratiosAgainst(samples.launcher),
        rss: spread(ratios(of(samples.executable, "rssMb"), of(samples.launcher, "rssMb"))),
      },
      ...(options.baseline && {
        baseline: {
          from: path.resolve(options.baseline),
          plugin: figures(old.plugin),
          cliHelpMs: spread(old.help),
          baselineCliHelpMs: spread(old.baselineHelp),
          emptyNodeMs: spread(old.emptyNode),
          ratio: { ...ratiosAgainst(old.plugin), cliHelp: spread(ratios(old.help, old.baselineHelp)) },
        },
      }),
    };
  } finally {
    fs.rmSync(unpacked, { recursive: true, force: true });
  }
}

/** The figure's lines, as `npm run bench` prints them. */
export function pluginStartLines(r: PluginStartResult): string[] {
  const mb = (bytes: number) => `${fmt(bytes / 1e6, 1)} MB`;
  const row = (name: string, f: PluginStartResult["executable"]) =>
    `${name} handshake ${fmt(f.handshakeMs.median, 0)} ms (${fmt(f.handshakeMs.p25, 0)}–${fmt(f.handshakeMs.p75, 0)}), ` +
    `GetSchema answered ${fmt(f.schemaMs.median, 0)} ms (${fmt(f.schemaMs.p25, 0)}–${fmt(f.schemaMs.p75, 0)}), ` +
    `Configure answered ${fmt(f.configureMs.median, 0)} ms (${fmt(f.configureMs.p25, 0)}–${fmt(f.configureMs.p75, 0)}), RSS ${fmt(f.rssMb.median, 0)} MB`;
  return [
    `archive ${mb(r.size.archiveBytes)}, its executables ${mb(r.size.executableBytes)} (the front ${mb(r.size.frontBytes)}, ` +
      `Node.js ${r.node} inside the other); ` +
      `npm: packed ${mb(r.size.npmPackedBytes)}, installed with its production dependencies ${mb(r.size.npmInstalledBytes)}, plus a node of ${mb(r.size.nodeBinaryBytes)}`,
    `load average as the rounds began: ${r.loadAverage.join(", ")}`,
    row("executable:", r.executable),
    row("launcher:  ", r.launcher),
    `executable / launcher: handshake ${fmt(r.ratio.handshake.median)} (${fmt(r.ratio.handshake.p25)}–${fmt(r.ratio.handshake.p75)}), ` +
      `GetSchema ${fmt(r.ratio.schema.median)} (${fmt(r.ratio.schema.p25)}–${fmt(r.ratio.schema.p75)}), ` +
      `Configure ${fmt(r.ratio.configure.median)} (${fmt(r.ratio.configure.p25)}–${fmt(r.ratio.configure.p75)}), RSS ${fmt(r.ratio.rss.median)}`,
    ...(r.baseline ? baselineLines(r.baseline, row) : []),
  ];
}

function baselineLines(b: BaselineResult, row: (name: string, f: PluginStartResult["executable"]) => string): string[] {
  const ms = (s: Spread) => `${fmt(s.median, 0)} ms (${fmt(s.p25, 0)}–${fmt(s.p75, 0)})`;
  const ratio = (s: Spread) => `${fmt(s.median)} (${fmt(s.p25)}–${fmt(s.p75)})`;
  return [
    row(`baseline:  `, b.plugin) + ` [${b.from}]`,
    `executable / baseline: handshake ${ratio(b.ratio.handshake)}, GetSchema ${ratio(b.ratio.schema)}, ` +
      `Configure ${ratio(b.ratio.configure)}`,
    `CLI executable --help: ${ms(b.cliHelpMs)}, baseline ${ms(b.baselineCliHelpMs)}, ratio ${ratio(b.ratio.cliHelp)}`,
    `an empty node (node -e 0), start to exit: ${ms(b.emptyNodeMs)}`,
  ];
}
