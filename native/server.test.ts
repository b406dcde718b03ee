/**
 * The two gaps of @pulumi/pulumi/provider's gRPC server that native/server.ts closes, shown on
 * the wire: the plugin is started as the CLI starts it (native/pulumi-resource-platform, the
 * port read from its first line) and called with the SDK's own gRPC client. Configure's variables
 * reach the kinds (no PLATFORM_* in the plugin's environment), and a Read with no properties
 * message (an import by an engine that sends none) reads the record. The same Read against the
 * SDK's `main` alone fails in its server before the provider is called: the control. Configure
 * answers supportsPreview, and the previews of an update and a create write nothing: the update's
 * outputs keep the uid (what a child's parentUid takes) and leave what only the service's answer
 * tells unknown. A Diff names the properties that changed, each with how (what a preview shows).
 * Serving replaces no method of grpc-js's Server: the handlers are the provider's own.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { unknownValue } from "@pulumi/pulumi/runtime";
import * as StructProto from "google-protobuf/google/protobuf/struct_pb";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { repoRoot } from "../tools/host/stage";
import { lazyProvider } from "./plugin";
import { nativeProvider } from "./provider";
import { LAUNCHER, Plugin, startPlugin, unary } from "../tests/support/pluginClient";

const UNGUARDED = `require("@pulumi/pulumi/provider").main(require(${JSON.stringify(
  path.join(repoRoot, "dist", "native", "provider.js"),
)}).nativeProvider("0.0.0"), [])`;
const GROUP_URN = "urn:pulumi:dev::project::platform:iam:Group::imported";

describe("native/server.ts: configure and an import's Read on the SDK's gRPC server", () => {
  let emu: RunningEmulator;
  let uid: string;
  const plugins: Plugin[] = [];

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    const made = await fetch(`${emu.url}/iam/v2beta1/groups/${emu.rootUid}`, {
      method: "POST",
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "imported", description: "made elsewhere" }),
    });
    uid = ((await made.json()) as { uid: string }).uid;
  });
  afterAll(async () => {
    for (const plugin of plugins) {
      plugin.client.close();
      plugin.process.kill();
    }
    await emu?.close();
  });

  const configure = (client: Plugin["client"]) => {
    const request = new providerProto.ConfigureRequest();
    request.getVariablesMap().set("platform:config:apiUrl", emu.url).set("platform:config:token", emu.token);
    request.setAcceptsecrets(true);
    return unary<providerProto.ConfigureRequest, providerProto.ConfigureResponse>(
      client.configure.bind(client),
      request,
    );
  };
  /** A ReadRequest as an import sends it: an id and a URN, and no properties message at all. */
  const importRead = () => {
    const request = new providerProto.ReadRequest();
    request.setId(uid);
    request.setUrn(GROUP_URN);
    expect(request.hasProperties()).toBe(false);
    return request;
  };

  test("the plugin takes its settings from Configure and reads a record from a Read with no properties", async () => {
    const plugin = await startPlugin(LAUNCHER, []);
    plugins.push(plugin);
    const configured = await configure(plugin.client);
    expect(configured.getAcceptsecrets()).toBe(true);

    const read = await unary<providerProto.ReadRequest, providerProto.ReadResponse>(
      plugin.client.read.bind(plugin.client),
      importRead(),
    );
    expect(read.getId()).toBe(uid);
    expect(read.getProperties()!.toJavaScript()).toMatchObject({
      uid,
      name: "imported",
      description: "made elsewhere",
      parentUid: emu.rootUid,
    });
    expect(read.getInputs()!.toJavaScript()).toEqual({
      name: "imported",
      description: "made elsewhere",
      parentUid: emu.rootUid,
    });
    expect(emu.requests().map((r) => `${r.method} ${r.path}`)).toContain(`GET /iam/v2beta1/groups/${uid}`);
  });

  test("control: the SDK's main alone fails that Read in its server, before the provider is called", async () => {
    const plugin = await startPlugin(process.execPath, ["-e", UNGUARDED]);
    plugins.push(plugin);
    await configure(plugin.client);
    emu.clearRequests();
    await expect(unary(plugin.client.read.bind(plugin.client), importRead())).rejects.toThrow(
      /Cannot read properties of undefined \(reading 'toJavaScript'\)/,
    );
    expect(emu.requests()).toEqual([]);
  });

  test("configure answers supportsPreview; the preview of an update keeps the uid and writes nothing, nor does a create's", async () => {
    const plugin = await startPlugin(LAUNCHER, []);
    plugins.push(plugin);
    const configured = await configure(plugin.client);
    expect(configured.getSupportspreview()).toBe(true);
    // A refresh's Read (the state it wrote) gives the state an update starts from.
    const refresh = new providerProto.ReadRequest();
    refresh.setId(uid);
    refresh.setUrn(GROUP_URN);
    refresh.setProperties(StructProto.Struct.fromJavaScript({ uid, name: "imported", parentUid: emu.rootUid }));
    const read = await unary<providerProto.ReadRequest, providerProto.ReadResponse>(
      plugin.client.read.bind(plugin.client),
      refresh,
    );
    const olds = read.getProperties()!.toJavaScript() as Record<string, unknown>;
    expect(olds).toMatchObject({ uid, updateTime: expect.any(String), verified: false });
    emu.clearRequests();

    const update = new providerProto.UpdateRequest();
    update.setId(uid);
    update.setUrn(GROUP_URN);
    update.setOlds(read.getProperties());
    update.setOldInputs(read.getInputs());
    update.setNews(
      StructProto.Struct.fromJavaScript({ ...read.getInputs()!.toJavaScript(), description: "edited in the program" }),
    );
    update.setPreview(true);
    const previewed = await unary<providerProto.UpdateRequest, providerProto.UpdateResponse>(
      plugin.client.update.bind(plugin.client),
      update,
    );
    // The uid, the inputs and the create time known; what the service sets on a write is not.
    expect(previewed.getProperties()!.toJavaScript()).toEqual({
      uid,
      parentUid: emu.rootUid,
      name: "imported",
      description: "edited in the program",
      createTime: olds.createTime,
      updateTime: unknownValue,
      resourceLimits: unknownValue,
      verified: unknownValue,
    });

    const create = new providerProto.CreateRequest();
    create.setUrn("urn:pulumi:dev::project::platform:iam:Group::new");
    create.setProperties(StructProto.Struct.fromJavaScript({ name: "new", parentUid: emu.rootUid }));
    create.setPreview(true);
    const created = await unary<providerProto.CreateRequest, providerProto.CreateResponse>(
      plugin.client.create.bind(plugin.client),
      create,
    );
    expect(created.getId()).toBe("");
    expect(created.getProperties()!.toJavaScript()).toEqual({ name: "new", parentUid: emu.rootUid });
    expect(emu.requests()).toEqual([]);

    // The control: the same update without preview sends its PATCH.
    update.setPreview(false);
    const applied = await unary<providerProto.UpdateRequest, providerProto.UpdateResponse>(
      plugin.client.update.bind(plugin.client),
      update,
    );
    expect(applied.getProperties()!.toJavaScript()).toMatchObject({ uid, description: "edited in the program" });
    expect(emu.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /iam/v2beta1/groups/${uid}`]);
  });

  test("a diff names the properties that changed and how, against the old outputs; no change names none", async () => {
    const plugin = await startPlugin(LAUNCHER, []);
    plugins.push(plugin);
    await configure(plugin.client);
    const refresh = new providerProto.ReadRequest();
    refresh.setId(uid);
    refresh.setUrn(GROUP_URN);
    refresh.setProperties(StructProto.Struct.fromJavaScript({ uid, name: "imported", parentUid: emu.rootUid }));
    const read = await unary<providerProto.ReadRequest, providerProto.ReadResponse>(
      plugin.client.read.bind(plugin.client),
      refresh,
    );
    // Described, whichever test ran before (the one above edits the description).
    const inputs = read.getInputs()!.toJavaScript();
    expect(inputs).toMatchObject({ description: expect.stringMatching(/./) });
    const diff = async (news: Record<string, unknown>) => {
      const request = new providerProto.DiffRequest();
      request.setId(uid);
      request.setUrn(GROUP_URN);
      request.setOlds(read.getProperties());
      request.setNews(StructProto.Struct.fromJavaScript(news as Record<string, StructProto.JavaScriptValue>));
      const answer = await unary<providerProto.DiffRequest, providerProto.DiffResponse>(
        plugin.client.diff.bind(plugin.client),
        request,
      );
      return {
        changes: answer.getChanges(),
        diffs: answer.getDiffsList(),
        detailed: answer.getHasdetaileddiff(),
        paths: answer
          .getDetaileddiffMap()
          .getEntryList()
          .map(([key]) => {
            const property = answer.getDetaileddiffMap().get(key)!;
            return [key, property.getKind(), property.getInputdiff()];
          }),
      };
    };
    const { DiffChanges } = providerProto.DiffResponse;
    const { Kind } = providerProto.PropertyDiff;
    expect(await diff(inputs)).toEqual({ changes: DiffChanges.DIFF_NONE, diffs: [], detailed: false, paths: [] });
    expect(await diff({ ...inputs, description: "edited in the diff" })).toEqual({
      changes: DiffChanges.DIFF_SOME,
      diffs: ["description"],
      detailed: true,
      paths: [["description", Kind.UPDATE, false]],
    });
    const { description: _dropped, ...without } = inputs;
    expect(await diff(without)).toEqual({
      changes: DiffChanges.DIFF_SOME,
      diffs: ["description"],
      detailed: true,
      paths: [["description", Kind.DELETE, false]],
    });
  });
});

describe("native/plugin.ts: what the plugin loads before its first call", () => {
  test("serving loads no kind, no setting rule and no Terraform mapping: each waits for the first call that needs it", () => {
    const loaded = execFileSync(
      process.execPath,
      [
        "-e",
        `require(${JSON.stringify(path.join(repoRoot, "dist", "native", "plugin.js"))});` +
          "console.log(JSON.stringify(Object.keys(require.cache)))",
      ],
      { encoding: "utf8" },
    );
    const files = (JSON.parse(loaded) as string[]).map((file) => path.relative(repoRoot, file));
    expect(files).toContain(path.join("dist", "native", "server.js"));
    for (const heavy of [
      ["dist", "native", "provider.js"],
      ["dist", "resources", "kinds.js"],
      ["dist", "core", "transport", "settings.js"],
      ["dist", "native", "terraformMapping.js"],
      ["dist", "native", "schema.js"],
    ])
      expect(files).not.toContain(path.join(...heavy));
    expect(files.filter((file) => file.includes(`node_modules${path.sep}zod${path.sep}`))).toEqual([]);
  });

  test("serving leaves grpc-js as it found it: no method of its Server replaced", () => {
    const dist = (file: string) => JSON.stringify(path.join(repoRoot, "dist", "native", file));
    const script = `
      const path = require("node:path");
      const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
      const grpc = require(require.resolve("@grpc/grpc-js", { paths: [sdk] }));
      const methods = () => Object.entries(Object.getOwnPropertyDescriptors(grpc.Server.prototype));
      const before = new Map(methods());
      require(${dist("server.js")})
        .serve(require(${dist("plugin.js")}).lazyProvider("0.0.0", () => "{}"), [])
        .then(() => {
          const replaced = methods()
            .filter(([name, d]) => ["value", "get", "set"].some((k) => d[k] !== before.get(name)?.[k]))
            .map(([name]) => name);
          console.log(JSON.stringify({ served: typeof grpc.Server, replaced }));
          process.exit(0);
        });`;
    const lines = execFileSync(process.execPath, ["-e", script], { encoding: "utf8", cwd: repoRoot })
      .trim()
      .split("\n");
    // The port, what the engine reads, comes first.
    expect(lines[0]).toMatch(/^\d+$/);
    expect(JSON.parse(lines[lines.length - 1])).toEqual({ served: "function", replaced: [] });
  });

  test("the provider the plugin serves before loading it has the operations of the one it loads", () => {
    const served = lazyProvider("0.0.0", () => "{}");
    expect(Object.keys(served).sort()).toEqual(Object.keys(nativeProvider("0.0.0")).sort());
  });
});
