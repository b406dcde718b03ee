/**
 * The native provider reads through core/runtime/operations/read.ts as the dynamic resources do, so
 * its reads that overlap are answered together too: the plugin as the CLI starts it, called on
 * the wire, against the emulator behind a proxy that holds the first GET (the overlap is made
 * by the test, as core/runtime/readBatches.host.test.ts explains: the plugin takes calls in order on
 * its one connection, so once the last call's GET reaches the proxy every read before it waits).
 */
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import * as StructProto from "google-protobuf/google/protobuf/struct_pb";
import { BUILTIN_ROLES, startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { Plugin, startPlugin, unary } from "../tests/support/pluginClient";
import { firstGetOf, ReadsProxy, readsProxy, said } from "../tests/support/readsProxy";

jest.setTimeout(120_000);

const VIEWER = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const urn = (type: string, name: string) => `urn:pulumi:dev::project::platform:iam:${type}::${name}`;

let emu: RunningEmulator;
let proxy: ReadsProxy;
let plugin: Plugin;
const groups: Array<{ uid: string; name: string; parentUid: string }> = [];

beforeAll(async () => {
  emu = await startEmulator({ quiet: true, seed: false });
  for (const parent of [emu.rootUid, emu.rootUid, emu.rootUid]) {
    const made = await fetch(`${emu.url}/iam/v2beta1/groups/${parent}`, {
      method: "POST",
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `team-${groups.length}` }),
    });
    const { uid, name } = (await made.json()) as { uid: string; name: string };
    groups.push({ uid, name, parentUid: parent });
  }
  proxy = await readsProxy({ upstream: emu.url, hold: firstGetOf("groups") });
  plugin = await startPlugin();
  const configure = new providerProto.ConfigureRequest();
  configure.getVariablesMap().set("platform:config:apiUrl", proxy.url).set("platform:config:token", emu.token);
  configure.setAcceptsecrets(true);
  await unary(plugin.client.configure.bind(plugin.client), configure);
});
afterAll(async () => {
  plugin?.client.close();
  plugin?.process.kill();
  await proxy?.close();
  await emu?.close();
});

/** A refresh's Read: the id, the URN and the state it wrote. */
function read(type: string, id: string, state: Record<string, unknown>) {
  const request = new providerProto.ReadRequest();
  request.setId(id);
  request.setUrn(urn(type, id.replace(/\//g, "-")));
  request.setProperties(StructProto.Struct.fromJavaScript(state as Record<string, StructProto.JavaScriptValue>));
  return unary<providerProto.ReadRequest, providerProto.ReadResponse>(plugin.client.read.bind(plugin.client), request);
}

test("the native provider's reads that overlap: one GET, then one List of the others' uids, each record its own", async () => {
  const [first, ...others] = groups.map((g) => read("Group", g.uid, { parentUid: g.parentUid, name: g.name }));
  await proxy.waitFor((r) => said(r).startsWith("GET groups/"));
  const reads = [first, ...others];
  const marker = read("Role", VIEWER, { name: "viewer" });
  await proxy.waitFor((r) => said(r) === `GET roles/${VIEWER}`);
  proxy.release();
  const answered = await Promise.all(reads);
  await marker;
  expect(answered.map((r) => r.getId())).toEqual(groups.map((g) => g.uid));
  expect(answered.map((r) => r.getProperties()!.toJavaScript())).toEqual(
    groups.map((g) => expect.objectContaining({ uid: g.uid, name: g.name, parentUid: g.parentUid })),
  );
  expect(proxy.seen.map(said)).toEqual([
    `GET groups/${groups[0].uid}`,
    `GET roles/${VIEWER}`,
    `LIST groups ${groups
      .slice(1)
      .map((g) => g.uid)
      .join(",")}`,
  ]);
});
