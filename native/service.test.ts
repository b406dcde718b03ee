/**
 * Each handler of the plugin's ResourceProviderService (native/server.ts) called with the SDK's
 * gRPC client on a server in this process (tests/support/inProcessPlugin.ts), against the
 * emulator: its answers, and its errors, each naming what was wrong (a setting by its key, a type
 * token or a function with the ones there are, a property) and none showing a secret in plain
 * text. native/server.test.ts shows the same service from the plugin process the CLI starts.
 */
import type * as Grpc from "@grpc/grpc-js";
import * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import * as statusProto from "@pulumi/pulumi/proto/status_pb";
import { specialSecretSig, specialSigKey, unknownValue } from "@pulumi/pulumi/runtime";
import type * as EmptyProto from "google-protobuf/google/protobuf/empty_pb";
import type * as StructProto from "google-protobuf/google/protobuf/struct_pb";
import { BUILTIN_ROLES, startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { sdkModule } from "./sdkModules";
import { InProcessPlugin, serveInProcess } from "../tests/support/inProcessPlugin";
import { unary } from "../tests/support/pluginClient";

type Props = Record<string, unknown>;

const Struct = sdkModule<typeof StructProto>("google-protobuf/google/protobuf/struct_pb").Struct;
const Empty = sdkModule<typeof EmptyProto>("google-protobuf/google/protobuf/empty_pb").Empty;
const grpcStatus = sdkModule<typeof Grpc>("@grpc/grpc-js").status;
const structOf = (value: Props) => Struct.fromJavaScript(value as Record<string, StructProto.JavaScriptValue>);
const plain = (struct: StructProto.Struct | undefined) => struct?.toJavaScript() as Props | undefined;

const VIEWER = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const SSO_SECRET = "sso-client-secret-0f3a9c";
const urn = (type: string, name: string) => `urn:pulumi:dev::project::platform:${type}::${name}`;
const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });
const said = (emu: RunningEmulator) => emu.requests().map((r) => `${r.method} ${r.path}`);

let emu: RunningEmulator;
let plugin: InProcessPlugin;
const saved: NodeJS.ProcessEnv = {};
/** What the handlers printed for the engine's log (a failed call), kept off the test's output. */
let logged: string[] = [];

type Method = (request: any, callback: (error: Grpc.ServiceError | null, response: any) => void) => unknown;
function call<Res>(method: string, request: unknown, on: InProcessPlugin = plugin): Promise<Res> {
  const client = on.client as unknown as Record<string, Method>;
  return unary<unknown, Res>(client[method].bind(on.client), request);
}
const failureOf = (answer: Promise<unknown>) =>
  answer.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: unknown) => error as Grpc.ServiceError,
  );

function configureRequest(variables: Record<string, string>): providerProto.ConfigureRequest {
  const request = new providerProto.ConfigureRequest();
  for (const [key, value] of Object.entries(variables)) request.getVariablesMap().set(`platform:config:${key}`, value);
  request.setAcceptsecrets(true);
  return request;
}
const settings = () => ({ apiUrl: emu.url, token: emu.token, timeout: "20" });

beforeAll(async () => {
  // The settings come through Configure alone, whatever the shell running the tests exports.
  for (const key of Object.keys(process.env))
    if (key.startsWith("PLATFORM_")) {
      saved[key] = process.env[key];
      delete process.env[key];
    }
  emu = await startEmulator({ quiet: true, seed: false });
  plugin = await serveInProcess("1.2.3");
  await call("configure", configureRequest(settings()));
});
afterAll(async () => {
  plugin?.close();
  await emu?.close();
  Object.assign(process.env, saved);
});
beforeEach(() => {
  logged = [];
  jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
  emu.clearRequests();
});
afterEach(() => jest.restoreAllMocks());

/** Creates a record through the service and answers its id and outputs. */
async function create(type: string, name: string, inputs: Props): Promise<{ id: string; outs: Props }> {
  const request = new providerProto.CreateRequest();
  request.setUrn(urn(type, name));
  request.setProperties(structOf(inputs));
  const answer = await call<providerProto.CreateResponse>("create", request);
  return { id: answer.getId(), outs: plain(answer.getProperties())! };
}

function readRequest(type: string, id: string, state?: Props): providerProto.ReadRequest {
  const request = new providerProto.ReadRequest();
  request.setId(id);
  request.setUrn(urn(type, id.replace(/\//g, "-")));
  if (state) request.setProperties(structOf(state));
  return request;
}
const read = (type: string, id: string, state?: Props) =>
  call<providerProto.ReadResponse>("read", readRequest(type, id, state));

test("GetPluginInfo answers the version; GetSchema the package's schema, and another schema version is refused naming it", async () => {
  const info = await call<pluginProto.PluginInfo>("getPluginInfo", new Empty());
  expect(info.getVersion()).toBe("1.2.3");

  const request = new providerProto.GetSchemaRequest();
  const schema = JSON.parse((await call<providerProto.GetSchemaResponse>("getSchema", request)).getSchema()) as {
    name: string;
    version: string;
    resources: Props;
    functions: Props;
  };
  expect(schema).toMatchObject({ name: "platform", version: "1.2.3" });
  expect(Object.keys(schema.resources)).toEqual(
    expect.arrayContaining(["platform:iam:Group", "platform:iam:Role", "platform:registry:Repo"]),
  );
  expect(schema.functions).toHaveProperty(["platform:iam:getRole"]);

  request.setVersion(2);
  const refused = await failureOf(call("getSchema", request));
  expect(refused.details).toBe("unsupported schema version 2");
});

test("GetSchema answers the text the plugin was built with when it has one, loading no kind for it", async () => {
  const built = await serveInProcess("4.5.6", () => '{"name":"platform","version":"4.5.6"}');
  try {
    const answer = await call<providerProto.GetSchemaResponse>(
      "getSchema",
      new providerProto.GetSchemaRequest(),
      built,
    );
    expect(answer.getSchema()).toBe('{"name":"platform","version":"4.5.6"}');
  } finally {
    built.close();
  }
});

test("CheckConfig hands good settings back as they came; each broken one is a failure naming its key, never its value", async () => {
  const check = async (news: Props) => {
    const request = new providerProto.CheckRequest();
    request.setUrn("urn:pulumi:dev::project::pulumi:providers:platform::default");
    request.setNews(structOf(news));
    const answer = await call<providerProto.CheckResponse>("checkConfig", request);
    return {
      inputs: plain(answer.getInputs()),
      failures: answer.getFailuresList().map((f) => [f.getProperty(), f.getReason()]),
    };
  };
  const good = { apiUrl: emu.url, token: emu.token, timeout: "20", version: "1.2.3" };
  expect(await check(good)).toEqual({ inputs: good, failures: [] });

  const broken = await check({
    apiUrl: "https://user:hunter2@api.example.com",
    token: "two words",
    timeout: "9999",
    adopt: "maybe",
  });
  // No property: the engine would print the property's value beside the failure.
  expect(broken.failures).toEqual([
    ["", expect.stringMatching(/^platform:apiUrl: must not carry credentials \(user:password@ in the URL\)/)],
    ["", "platform:token: the token contains whitespace; paste the token alone"],
    ["", expect.stringMatching(/^platform:timeout: must be a number of seconds from 0\.1 to 3600/)],
    ["", "platform:adopt: must be true or false"],
  ]);
  const reasons = JSON.stringify(broken.failures);
  for (const value of ["hunter2", "two words", "9999", "maybe"]) expect(reasons).not.toContain(value);
  expect(said(emu)).toEqual([]);
});

test("Configure answers what the provider accepts; a broken setting fails it naming the key and what to do, never its value", async () => {
  const configured = await call<providerProto.ConfigureResponse>("configure", configureRequest(settings()));
  expect({
    secrets: configured.getAcceptsecrets(),
    resources: configured.getAcceptresources(),
    outputs: configured.getAcceptoutputs(),
    preview: configured.getSupportspreview(),
  }).toEqual({ secrets: true, resources: true, outputs: true, preview: true });

  // A provider of its own: the settings it holds are broken after this.
  const other = await serveInProcess();
  try {
    const refused = await failureOf(
      call("configure", configureRequest({ apiUrl: "ftp://api.example.com", token: "tok en-7c1" }), other),
    );
    expect(refused.code).toBe(grpcStatus.UNKNOWN);
    expect(refused.details).toMatch(/^platform:apiUrl: ftp:\/\/ is refused; use https:\/\//);
    expect(refused.details).toContain("; platform:token: the token contains whitespace");
    expect(refused.details).toMatch(/set it right in the stack's config, then run `pulumi up`/);
    expect(refused.details).not.toContain("tok en-7c1");
    expect(refused.details).not.toContain("api.example.com");
  } finally {
    other.close();
  }
});

test("methods the provider has none of (DiffConfig, Construct, Call) answer UNIMPLEMENTED", async () => {
  for (const [method, request] of [
    ["diffConfig", new providerProto.DiffRequest()],
    ["construct", new providerProto.ConstructRequest()],
    ["call", new providerProto.CallRequest()],
  ] as const)
    expect([method, (await failureOf(call(method, request))).code]).toEqual([method, grpcStatus.UNIMPLEMENTED]);
});

test("Cancel and Attach answer empty, and the provider still serves after them", async () => {
  expect(await call("cancel", new Empty())).toBeInstanceOf(Empty);
  const attach = new pluginProto.PluginAttach();
  attach.setAddress("127.0.0.1:1");
  expect(await call("attach", attach)).toBeInstanceOf(Empty);
  expect((await call<pluginProto.PluginInfo>("getPluginInfo", new Empty())).getVersion()).toBe("1.2.3");
});

test("Check answers the kind's inputs with its secrets marked; a bad input fails naming the property, never the secret", async () => {
  const check = async (type: string, news: Props) => {
    const request = new providerProto.CheckRequest();
    request.setUrn(urn(type, "sso"));
    request.setOlds(structOf({}));
    request.setNews(structOf(news));
    const answer = await call<providerProto.CheckResponse>("check", request);
    return {
      inputs: plain(answer.getInputs())!,
      failures: answer.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  };
  const oidc = { issuer: "https://login.example.com", clientId: "platform", clientSecret: SSO_SECRET };
  const sso = { parentUid: emu.rootUid, name: "sso", defaultRole: VIEWER };
  // Sent plain (a program that forgot `secret`), answered marked: the kind keeps its oidc block secret.
  const checked = await check("iam:IdentityProvider", { ...sso, oidc });
  expect(checked).toEqual({ inputs: { ...sso, oidc: secret(oidc) }, failures: [] });

  const bad = await check("iam:IdentityProvider", {
    ...sso,
    oidc: secret({ ...oidc, issuer: "http://login.example.com" }),
  });
  expect(bad.failures).toEqual([{ property: "oidc.issuer", reason: expect.stringMatching(/https/) }]);
  expect(JSON.stringify(bad.failures)).not.toContain(SSO_SECRET);
  expect(said(emu)).toEqual([]);
});

test("an unknown type token fails each call naming it and the types the provider manages, before any request", async () => {
  const gadget = urn("iam:Gadget", "g");
  const check = new providerProto.CheckRequest();
  check.setUrn(gadget);
  check.setNews(structOf({ name: "g" }));
  const update = new providerProto.UpdateRequest();
  update.setId("x");
  update.setUrn(gadget);
  update.setNews(structOf({ name: "g" }));
  update.setPreview(true);
  const create = new providerProto.CreateRequest();
  create.setUrn(gadget);
  create.setProperties(structOf({ name: "g" }));
  const del = new providerProto.DeleteRequest();
  del.setId("x");
  del.setUrn(gadget);
  for (const [method, request] of [
    ["check", check],
    ["update", update],
    ["create", create],
    ["delete", del],
    ["read", readRequest("iam:Gadget", "x", { name: "g" })],
  ] as const) {
    const refused = await failureOf(call(method, request));
    expect([method, refused.details]).toEqual([
      method,
      expect.stringMatching(
        /^platform: no resource type platform:iam:Gadget; this provider manages .*platform:iam:Group, .*platform:iam:Role\b/,
      ),
    ]);
  }
  expect(said(emu)).toEqual([]);
  // Printed for the engine's log, which shows a provider's stderr.
  expect(logged.join("\n")).toContain("no resource type platform:iam:Gadget");
});

test("a group's life: preview of a create, create, read, diff, preview of an update, update, delete; the previews send nothing", async () => {
  const inputs = { parentUid: emu.rootUid, name: "team", description: "first" };
  const previewed = new providerProto.CreateRequest();
  previewed.setUrn(urn("iam:Group", "team"));
  previewed.setProperties(structOf(inputs));
  previewed.setPreview(true);
  const preview = await call<providerProto.CreateResponse>("create", previewed);
  expect({ id: preview.getId(), outs: plain(preview.getProperties()) }).toEqual({ id: "", outs: inputs });
  expect(said(emu)).toEqual([]);

  const { id, outs } = await create("iam:Group", "team", inputs);
  expect(outs).toMatchObject({ ...inputs, uid: id, createTime: expect.any(String) });
  expect(said(emu)).toEqual([`POST /iam/v2beta1/groups/${emu.rootUid}`]);

  const refreshed = await read("iam:Group", id, outs);
  expect(refreshed.getId()).toBe(id);
  expect(plain(refreshed.getProperties())).toMatchObject({ uid: id, name: "team", description: "first" });
  expect(plain(refreshed.getInputs())).toEqual(inputs);

  const diff = async (news: Props) => {
    const request = new providerProto.DiffRequest();
    request.setId(id);
    request.setUrn(urn("iam:Group", "team"));
    request.setOlds(refreshed.getProperties());
    request.setNews(structOf(news));
    const answer = await call<providerProto.DiffResponse>("diff", request);
    const map = answer.getDetaileddiffMap();
    return {
      changes: answer.getChanges(),
      replaces: answer.getReplacesList(),
      diffs: answer.getDiffsList(),
      kinds: map.getEntryList().map(([path]) => [path, map.get(path)!.getKind()]),
    };
  };
  const { DiffChanges } = providerProto.DiffResponse;
  const { Kind } = providerProto.PropertyDiff;
  expect(await diff(inputs)).toEqual({ changes: DiffChanges.DIFF_NONE, replaces: [], diffs: [], kinds: [] });
  expect(await diff({ ...inputs, name: "crew", parentUid: `${emu.rootUid}/0123456789abcdef` })).toEqual({
    changes: DiffChanges.DIFF_SOME,
    replaces: ["parentUid"],
    diffs: ["parentUid", "name"],
    kinds: [
      ["name", Kind.UPDATE],
      ["parentUid", Kind.UPDATE_REPLACE],
    ],
  });

  emu.clearRequests();
  const update = new providerProto.UpdateRequest();
  update.setId(id);
  update.setUrn(urn("iam:Group", "team"));
  update.setOlds(refreshed.getProperties());
  update.setNews(structOf({ ...inputs, description: "second" }));
  update.setPreview(true);
  const previewedUpdate = plain((await call<providerProto.UpdateResponse>("update", update)).getProperties());
  expect(previewedUpdate).toMatchObject({ uid: id, description: "second", updateTime: unknownValue });
  expect(said(emu)).toEqual([]);
  update.setPreview(false);
  const updated = plain((await call<providerProto.UpdateResponse>("update", update)).getProperties());
  expect(updated).toMatchObject({ uid: id, description: "second", updateTime: expect.any(String) });
  expect(said(emu)).toEqual([`PATCH /iam/v2beta1/groups/${id}`]);

  emu.clearRequests();
  const del = new providerProto.DeleteRequest();
  del.setId(id);
  del.setUrn(urn("iam:Group", "team"));
  del.setProperties(structOf(updated!));
  expect(await call("delete", del)).toBeInstanceOf(Empty);
  expect(said(emu)).toEqual([`DELETE /iam/v2beta1/groups/${id}`]);
  // A refresh of it now: gone, so no id and no inputs (the engine drops it from the state).
  const gone = await read("iam:Group", id, updated);
  expect({ id: gone.getId(), inputs: gone.hasInputs() }).toEqual({ id: "", inputs: false });
});

test("a delete the service refuses fails saying why and what to do; the group is kept", async () => {
  const parent = await create("iam:Group", "holder", { parentUid: emu.rootUid, name: "holder" });
  await create("iam:Group", "child", { parentUid: parent.id, name: "child" });
  const del = new providerProto.DeleteRequest();
  del.setId(parent.id);
  del.setUrn(urn("iam:Group", "holder"));
  del.setProperties(structOf(parent.outs));
  const refused = await failureOf(call("delete", del));
  expect(refused.details).toMatch(/^deleting group .*holder.* failed: the group still has repos, child groups/);
  expect((await read("iam:Group", parent.id, parent.outs)).getId()).toBe(parent.id);
});

test("a group invite's code is answered only as a secret; a change of its ttl replaces it", async () => {
  const group = await create("iam:Group", "invited", { parentUid: emu.rootUid, name: "invited" });
  const inputs = { groupUid: group.id, roleUid: VIEWER, ttl: "3600s" };
  const invite = await create("iam:GroupInvite", "invite", inputs);
  const code = invite.outs.code as { value?: unknown };
  expect(code).toEqual(secret(expect.any(String)));
  const { code: _code, ...rest } = invite.outs;
  expect(JSON.stringify(rest)).not.toContain(String(code.value));
  expect(rest).toMatchObject({ ...inputs, uid: invite.id });

  const diff = new providerProto.DiffRequest();
  diff.setId(invite.id);
  diff.setUrn(urn("iam:GroupInvite", "invite"));
  diff.setOlds(structOf(invite.outs));
  diff.setNews(structOf({ ...inputs, ttl: "7200s" }));
  const answer = await call<providerProto.DiffResponse>("diff", diff);
  expect(answer.getReplacesList()).toEqual(["ttl"]);
  expect(answer.getDetaileddiffMap().get("ttl")!.getKind()).toBe(providerProto.PropertyDiff.Kind.UPDATE_REPLACE);
});

test("a create that wrote the record but not its readme is an initialization failure carrying the id, so nothing is lost", async () => {
  // The service sheds the readme's PATCH with a Retry-After past the call's deadline (20 s): no repeat, no wait.
  // The pause it asks for holds every later send of the client: a provider whose settings are its own has its own.
  const shed = await serveInProcess();
  await call("configure", configureRequest({ ...settings(), maxConcurrency: "4" }), shed);
  emu.setFaults([{ path: "/readme$", methods: ["PATCH"], exhaustedRate: 1, retryAfterSeconds: 25 }]);
  let failure: Grpc.ServiceError;
  try {
    const request = new providerProto.CreateRequest();
    request.setUrn(urn("registry:Repo", "docs"));
    request.setProperties(structOf({ parentUid: emu.rootUid, name: "docs", readme: "# later\n", allowDelete: true }));
    failure = await failureOf(call("create", request, shed));
  } finally {
    emu.setFaults([]);
    shed.close();
  }
  expect(failure.code).toBe(grpcStatus.UNKNOWN);
  expect(failure.details).toMatch(
    /^writing the readme of repo "docs" .*The repo itself is written and kept in the state/,
  );
  const [bytes] = failure.metadata.get("grpc-status-details-bin") as Buffer[];
  const [detail] = statusProto.Status.deserializeBinary(bytes).getDetailsList();
  expect(detail.getTypeName()).toBe("pulumirpc.ErrorResourceInitFailed");
  const init = detail.unpack(
    (data) => providerProto.ErrorResourceInitFailed.deserializeBinary(data),
    "pulumirpc.ErrorResourceInitFailed",
  )!;
  const posted = emu.requests().find((r) => r.method === "POST")!;
  expect(said(emu)).toEqual([`POST ${posted.path}`, expect.stringMatching(/^PATCH .*\/readme$/)]);
  expect(init.getId()).toMatch(new RegExp(`^${emu.rootUid}/`));
  expect(plain(init.getProperties())).toMatchObject({ uid: init.getId(), name: "docs" });
  expect(plain(init.getProperties())).not.toHaveProperty("readme");
  expect(init.getReasonsList()).toEqual([failure.details]);
});

test("a create that wrote nothing is a plain failure naming the record, with no id and never the client secret", async () => {
  const gone = await create("iam:Group", "gone", { parentUid: emu.rootUid, name: "gone" });
  const del = new providerProto.DeleteRequest();
  del.setId(gone.id);
  del.setUrn(urn("iam:Group", "gone"));
  await call("delete", del);
  emu.clearRequests();
  const failure = await failureOf(
    create("iam:IdentityProvider", "sso", {
      parentUid: gone.id,
      name: "sso",
      defaultRole: VIEWER,
      oidc: secret({ issuer: "https://login.example.com", clientId: "platform", clientSecret: SSO_SECRET }),
    }),
  );
  expect(failure.code).toBe(grpcStatus.UNKNOWN);
  expect(failure.details).toMatch(/^creating identity provider "sso".* failed: /);
  expect(failure.metadata.get("grpc-status-details-bin")).toEqual([]);
  expect(failure.details).not.toContain(SSO_SECRET);
  expect(said(emu)).toEqual([`POST /iam/v2beta1/identityProviders/${gone.id}`]);
});

test("Read with no state imports: a record by its uid; a missing one, a built-in role and another group's role are refused, each named", async () => {
  const teamA = await create("iam:Group", "a", { parentUid: emu.rootUid, name: "a" });
  const teamB = await create("iam:Group", "b", { parentUid: emu.rootUid, name: "b" });
  const auditor = await create("iam:Role", "auditor", {
    parentUid: teamA.id,
    name: "auditor",
    capabilities: ["CAP_IAM_GROUPS_LIST"],
  });
  emu.clearRequests();

  const group = await read("iam:Group", teamA.id);
  expect(group.getId()).toBe(teamA.id);
  expect(plain(group.getInputs())).toEqual({ parentUid: emu.rootUid, name: "a" });
  expect(said(emu)).toEqual([`GET /iam/v2beta1/groups/${teamA.id}`]);

  const role = await read("iam:Role", `${teamA.id}/${auditor.id}`);
  expect(role.getId()).toBe(auditor.id);
  expect(plain(role.getInputs())).toMatchObject({ parentUid: teamA.id, name: "auditor" });

  const refusal = async (type: string, id: string) => (await failureOf(read(type, id))).details;
  expect(await refusal("iam:Group", `${teamB.id}0`)).toMatch(
    /^importing group .* failed: no group .* exists \(the API answered NOT_FOUND for it\)/,
  );
  expect(await refusal("iam:Role", `${teamB.id}/${auditor.id}`)).toMatch(
    /^importing role .* as one of parentUid .*'s refused: it is not one of the roles of parentUid/,
  );
  expect(await refusal("iam:Role", `${teamA.id}/${VIEWER}`)).toMatch(
    /refused: it is not parentUid .*'s own: it sits at the root, .*refer to it with the look-up platform:iam:getRole instead$/,
  );
  expect(await refusal("iam:Role", auditor.id)).toMatch(/import it as <parentUid>\/<uid>/);
  emu.clearRequests();
  expect(await refusal("iam:GroupInvite", `${teamA.id}/0123`)).toMatch(
    /a group invite cannot be imported: its code is answered only when it is created/,
  );
  expect(said(emu)).toEqual([]);
});

test("an import whose check of the parent's records fails says which listing failed, and is refused", async () => {
  const team = await create("iam:Group", "listed", { parentUid: emu.rootUid, name: "listed" });
  const role = await create("iam:Role", "lister", { parentUid: team.id, name: "lister" });
  // The List of the group's roles is shed past the call's deadline, on a client of its own (see the readme's case).
  const shed = await serveInProcess();
  await call("configure", configureRequest({ ...settings(), maxConcurrency: "5" }), shed);
  emu.setFaults([{ path: "/roles$", methods: ["GET"], exhaustedRate: 1, retryAfterSeconds: 25 }]);
  try {
    const refused = await failureOf(call("read", readRequest("iam:Role", `${team.id}/${role.id}`), shed));
    expect(refused.details).toMatch(
      /^importing role .* refused: listing the roles of parentUid .* failed: .*Retry-After.*past this call's deadline/,
    );
  } finally {
    emu.setFaults([]);
    shed.close();
  }
});

test("Invoke runs a look-up; an unknown function is a failure naming it and the functions there are", async () => {
  const invoke = async (token: string, args: Props) => {
    const request = new providerProto.InvokeRequest();
    request.setTok(token);
    request.setArgs(structOf(args));
    const answer = await call<providerProto.InvokeResponse>("invoke", request);
    return {
      returned: plain(answer.getReturn()),
      failures: answer.getFailuresList().map((f) => [f.getProperty(), f.getReason()]),
    };
  };
  const viewer = await invoke("platform:iam:getRole", { name: "viewer" });
  expect(viewer.failures).toEqual([]);
  expect(viewer.returned).toMatchObject({ uid: VIEWER, name: "viewer" });

  const unknown = await invoke("platform:iam:getGadget", {});
  expect(unknown.failures).toEqual([
    ["", expect.stringMatching(/^platform: no function platform:iam:getGadget; it has .*platform:iam:getRole\b/)],
  ]);
});

test("GetMappings and GetMapping answer the Terraform mapping on the same server", async () => {
  const mappings = new providerProto.GetMappingsRequest();
  mappings.setKey("terraform");
  expect((await call<providerProto.GetMappingsResponse>("getMappings", mappings)).getProvidersList()).toEqual([
    "chainguard",
  ]);
  const mapping = new providerProto.GetMappingRequest();
  mapping.setKey("terraform");
  mapping.setProvider("chainguard");
  const answer = await call<providerProto.GetMappingResponse>("getMapping", mapping);
  const data = JSON.parse(Buffer.from(answer.getData_asU8()).toString("utf8")) as { name: string; version: string };
  expect({ provider: answer.getProvider(), name: data.name, version: data.version }).toEqual({
    provider: "chainguard",
    name: "chainguard",
    version: "1.2.3",
  });
});
