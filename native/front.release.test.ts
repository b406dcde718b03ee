/**
 * The plugin archive's front (native/front, tools/plugin/front.ts) on the wire, against the Node.js
 * plugin beside it in the same archive: what the front answers itself is what the Node.js plugin
 * answers, every other call reaches the Node.js plugin and comes back as it answered, a plugin that
 * cannot start makes each call fail naming it, and the Node.js plugin never outlives the front;
 * native/front/main_test.go (run here by go test) checks what travels with a call.
 * The front is built for each platform the release builds (.github/workflows/release.yml).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as Grpc from "@grpc/grpc-js";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
import { packageSchema } from "./schema";
import { withoutPlatformEnv } from "../tools/orgProject";
import { EXECUTABLE, pluginArchive } from "../tools/plugin/build";
import { buildFront, FRONT_SOURCE, nodeExecutableFile } from "../tools/plugin/front";
import { getMappings, Plugin, startPlugin, unary } from "../tests/support/pluginClient";

jest.setTimeout(300_000);

const emptyProto = require(
  require.resolve("google-protobuf/google/protobuf/empty_pb", {
    paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))],
  }),
) as typeof import("google-protobuf/google/protobuf/empty_pb");

let scratch: string;
let front: string;
let node: string;
let version: string;
const started: Plugin[] = [];

/** Starts `executable` as the engine does, remembered to be killed after the test. */
async function start(executable: string): Promise<Plugin> {
  const plugin = await startPlugin(executable, ["127.0.0.1:1"], withoutPlatformEnv());
  started.push(plugin);
  return plugin;
}

/** A call's answer or its error's code and text, to compare two plugins by. */
async function outcome<T>(call: Promise<T>): Promise<{ answer?: T; code?: number; details?: string }> {
  try {
    return { answer: await call };
  } catch (error) {
    const { code, details } = error as Grpc.ServiceError;
    return { code, details };
  }
}

const getSchema = (plugin: Plugin) =>
  unary<providerProto.GetSchemaRequest, providerProto.GetSchemaResponse>(
    plugin.client.getSchema.bind(plugin.client),
    new providerProto.GetSchemaRequest(),
  ).then((response) => response.getSchema());

const configure = (plugin: Plugin, variables: Record<string, string>) => {
  const request = new providerProto.ConfigureRequest();
  for (const [key, value] of Object.entries(variables)) request.getVariablesMap().set(key, value);
  return unary<providerProto.ConfigureRequest, providerProto.ConfigureResponse>(
    plugin.client.configure.bind(plugin.client),
    request,
  ).then((response) => response.toObject());
};

/** The pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        // The parent is the fourth field, after the name in parentheses.
        const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
}

/** Whether `pid` runs (a zombie has ended). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Resolves when `pid` has ended; rejects after `ms` (a generous deadline, not a measure). */
async function ended(pid: number, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (running(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs after ${ms} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const exited = (plugin: Plugin) =>
  new Promise<void>((resolve) =>
    plugin.process.exitCode !== null || plugin.process.signalCode !== null
      ? resolve()
      : plugin.process.once("exit", () => resolve()),
  );

beforeAll(async () => {
  const archive = await pluginArchive();
  version = archive.version;
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-front-"));
  execFileSync("tar", ["-xzf", archive.file, "-C", scratch]);
  front = path.join(scratch, EXECUTABLE);
  node = path.join(scratch, nodeExecutableFile());
});

afterEach(() => {
  for (const plugin of started.splice(0)) {
    plugin.client.close();
    plugin.process.kill("SIGKILL");
  }
});

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

test("the front answers GetSchema with the very text the Node.js plugin answers, native/schema.ts's schema", async () => {
  const [fromFront, fromNode] = await Promise.all([start(front).then(getSchema), start(node).then(getSchema)]);
  expect(fromFront).toBe(fromNode);
  expect(JSON.parse(fromFront)).toEqual(packageSchema(version));
});

test("the front answers GetPluginInfo and Handshake as the Node.js plugin does (@pulumi/pulumi's server has no Handshake)", async () => {
  const info = (plugin: Plugin) =>
    outcome(
      unary<import("google-protobuf/google/protobuf/empty_pb").Empty, pluginProto.PluginInfo>(
        plugin.client.getPluginInfo.bind(plugin.client),
        new emptyProto.Empty(),
      ).then((response) => response.getVersion()),
    );
  const handshake = (plugin: Plugin) =>
    outcome(
      unary<providerProto.ProviderHandshakeRequest, providerProto.ProviderHandshakeResponse>(
        plugin.client.handshake.bind(plugin.client),
        new providerProto.ProviderHandshakeRequest(),
      ),
    );
  const [viaFront, viaNode] = await Promise.all([start(front), start(node)]);
  expect(await info(viaFront)).toEqual({ answer: version });
  expect(await info(viaNode)).toEqual({ answer: version });
  const unimplemented = {
    code: 12,
    details: "The server does not implement the method handshake",
  };
  expect(await handshake(viaNode)).toEqual(unimplemented);
  expect(await handshake(viaFront)).toEqual(unimplemented);
});

test("every other call reaches the Node.js plugin and comes back as it answered: Configure, its refusal, GetMappings", async () => {
  const [viaFront, viaNode] = await Promise.all([start(front), start(node)]);
  const good = { "platform:config:apiUrl": "http://127.0.0.1:1", "platform:config:token": "t" };
  const bad = { "platform:config:apiUrl": "https://user:password@example.com" };
  const accepted = await outcome(configure(viaFront, good));
  expect(accepted).toEqual(await outcome(configure(viaNode, good)));
  expect(accepted.answer).toMatchObject({ acceptsecrets: true, supportspreview: true });
  const refused = await outcome(configure(viaFront, bad));
  expect(refused).toEqual(await outcome(configure(viaNode, bad)));
  expect(refused.details).toContain("must not carry credentials");
  expect(await getMappings(viaFront.client, "terraform")).toEqual(await getMappings(viaNode.client, "terraform"));
});

test("the Node.js plugin ends with the front: when the front is killed (its stdin closes) and when it is terminated", async () => {
  for (const signal of ["SIGKILL", "SIGTERM"] as const) {
    const plugin = await start(front);
    // Forwarded: answered once the Node.js plugin serves.
    expect(await getMappings(plugin.client, "terraform")).toEqual(["chainguard"]);
    const [child] = childrenOf(plugin.process.pid!);
    expect(fs.readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0")[0]).toBe(node);
    plugin.process.kill(signal);
    await exited(plugin);
    // Terminated, the front waits for it; killed, the Node.js plugin sees its stdin close.
    if (signal === "SIGTERM") expect(running(child)).toBe(false);
    else await ended(child);
  }
});

test("a Node.js plugin that ends after its start: the next call fails naming it and how it ended, and the front still answers the schema", async () => {
  const plugin = await start(front);
  expect(await getMappings(plugin.client, "terraform")).toEqual(["chainguard"]);
  const [child] = childrenOf(plugin.process.pid!);
  process.kill(child, "SIGKILL");
  await ended(child);
  const answer = await outcome(getMappings(plugin.client, "terraform"));
  expect(answer.code).toBe(14);
  const prefix = `the platform provider's Node.js plugin ${node} exited (signal: killed) during the call (`;
  expect(answer.details?.startsWith(prefix)).toBe(true);
  expect(answer.details?.endsWith("); it wrote nothing to stderr")).toBe(true);
  expect(JSON.parse(await getSchema(plugin))).toEqual(packageSchema(version));
});

test("a Node.js plugin that cannot start: the schema is still answered, each other call fails naming it and its stderr's end", async () => {
  const broken = path.join(scratch, "broken");
  fs.mkdirSync(broken);
  fs.copyFileSync(front, path.join(broken, EXECUTABLE));
  fs.chmodSync(path.join(broken, EXECUTABLE), 0o755);
  const child = path.join(broken, nodeExecutableFile());
  fs.writeFileSync(
    child,
    "#!/bin/sh\necho 'starting the plugin' >&2\necho 'Error: cannot load the bundle' >&2\nexit 3\n",
    {
      mode: 0o755,
    },
  );
  const plugin = await start(path.join(broken, EXECUTABLE));
  expect(JSON.parse(await getSchema(plugin))).toEqual(packageSchema(version));
  const failed = await outcome(configure(plugin, {}));
  expect(failed).toEqual({
    code: 14,
    details:
      `the platform provider's Node.js plugin ${child} exited (exit status 3) before printing its port; ` +
      "its stderr ends:\nstarting the plugin\nError: cannot load the bundle",
  });
  // Its stderr also reached the front's, which the engine logs.
  expect(plugin.stderr()).toContain("Error: cannot load the bundle");

  fs.rmSync(child);
  const missing = await start(path.join(broken, EXECUTABLE));
  const answer = await outcome(getMappings(missing.client, "terraform"));
  expect(answer.code).toBe(14);
  expect(answer.details).toBe(
    `the platform provider's Node.js plugin ${child} could not start: fork/exec ${child}: no such file or directory; ` +
      "it wrote nothing to stderr",
  );
});

test("the front builds without cgo for each platform the release builds", () => {
  const work = path.join(scratch, "platforms");
  const magic: Record<string, string> = { linux: "7f454c46", darwin: "cffaedfe", win32: "4d5a" };
  for (const [platform, arch, goos, goarch] of [
    ["linux", "x64", "linux", "amd64"],
    ["linux", "arm64", "linux", "arm64"],
    ["darwin", "x64", "darwin", "amd64"],
    ["darwin", "arm64", "darwin", "arm64"],
    ["win32", "x64", "windows", "amd64"],
  ]) {
    const output = path.join(work, `${goos}-${goarch}`, platform === "win32" ? "front.exe" : "front");
    fs.mkdirSync(path.join(work, `${goos}-${goarch}-src`), { recursive: true });
    buildFront(output, { schema: "{}", version, platform, arch }, path.join(work, `${goos}-${goarch}-src`));
    const header = fs.readFileSync(output).subarray(0, 4).toString("hex");
    expect([goos, header.startsWith(magic[platform])]).toEqual([goos, true]);
    const info = spawnSync("go", ["version", "-m", output], { encoding: "utf8" }).stdout;
    for (const setting of ["CGO_ENABLED=0", `GOOS=${goos}`, `GOARCH=${goarch}`])
      expect(info).toContain(`\tbuild\t${setting}\n`);
  }
});

test("the forwarding on its own (go test of native/front): metadata, deadline and cancellation reach the plugin; headers, trailers and errors come back; calls wait for its port", () => {
  const source = path.join(scratch, "go-test");
  fs.mkdirSync(source);
  for (const name of fs.readdirSync(FRONT_SOURCE))
    if (/^go\.(mod|sum)$|\.go$/.test(name)) fs.copyFileSync(path.join(FRONT_SOURCE, name), path.join(source, name));
  fs.writeFileSync(path.join(source, "schema.json"), '{"name":"platform"}');
  const run = spawnSync("go", ["test", "-count=1", "-v", "."], {
    cwd: source,
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local", CGO_ENABLED: "0" },
  });
  expect([...run.stdout.matchAll(/^--- (\w+): (\w+)/gm)].map(([, result, name]) => `${result} ${name}`)).toEqual([
    "PASS TestMetadataDeadlineHeadersAndTrailersPass",
    "PASS TestCancellationReachesThePlugin",
    "PASS TestThePluginsErrorsComeBackAsTheyAre",
    "PASS TestCallsWaitForThePluginsPortAndTheCallersCancellation",
  ]);
  expect(run.status).toBe(0);
});
