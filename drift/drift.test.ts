/**
 * `drift` against the in-process emulator: a stack export (native and dynamic resources, another
 * provider's, a pending create) and a Terraform state beside it, records edited, deleted and made
 * behind their backs; and each bad input refused with no report.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { BUILTIN_ROLES, startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { ApiClient, createClient } from "../core/transport/client";
import { call } from "../tools/orgApi";
import { exportedKinds } from "../exporter/kinds";
import { attributesOf, tfstate } from "../tests/support/terraformState";
import { ForeignRecordsError } from "./compare";
import { SECRET_KEY, SECRET_VALUE } from "./secretSignature";
import { kindOfType } from "./stackExport";
import { driftOrganization, DriftOptions, jsonReport, markdownReport, textReport } from "./index";

jest.setTimeout(120_000);

type Rec = Record<string, unknown> & { uid: string };
const VIEWER = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const V = "/iam/v2beta1";

let emu: RunningEmulator;
let client: ReturnType<typeof createClient>;
let scratch: string;
const api = () => ({ url: emu.url, token: emu.token });
const post = (p: string, body: unknown) => call<Rec>(api(), "POST", `${V}/${p}`, body);
const get = (p: string) => call<Rec>(api(), "GET", `${V}/${p}`);

beforeAll(async () => {
  emu = await startEmulator({ quiet: true, seed: false });
  client = createClient({ apiUrl: emu.url, authUrl: emu.url, apiVersion: "v2beta1", token: emu.token });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-drift-"));
});
afterAll(async () => {
  await client?.close();
  await emu?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** A resource of a stack export as the engine writes one: outputs as the provider stored them. */
function resource(type: string, name: string, record: Rec, extra: Record<string, unknown> = {}) {
  return {
    urn: `urn:pulumi:dev::drift::${type}::${name}`,
    custom: true,
    id: record.uid,
    type,
    inputs: {},
    outputs: { ...kindOfType(type)!.toOutputs(record), ...extra },
  };
}

function write(file: string, content: unknown): string {
  const at = path.join(scratch, file);
  fs.writeFileSync(at, typeof content === "string" ? content : JSON.stringify(content));
  return at;
}

/** An organization: a stack manages team-a, its deploy identity and binding, and "old"; Terraform team-b. */
async function organization(label: string) {
  const org = await post(`groups/${emu.rootUid}`, { name: label });
  const teamA = await post(`groups/${org.uid}`, { name: "team-a", description: "A" });
  const teamB = await post(`groups/${org.uid}`, { name: "team-b", description: "B" });
  const deploy = await post(`identities/${teamA.uid}`, {
    name: "deploy",
    claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/a:ref:refs/heads/main" },
  });
  const old = await post(`identities/${teamA.uid}`, {
    name: "old",
    claimMatch: { issuer: "https://issuer.example", subject: "old" },
  });
  const binding = await post(`roleBindings/${teamA.uid}`, { identityUid: deploy.uid, roleUid: VIEWER });
  const stack = {
    version: 3,
    deployment: {
      manifest: {},
      resources: [
        { urn: "urn:pulumi:dev::drift::pulumi:pulumi:Stack::drift-dev", custom: false, type: "pulumi:pulumi:Stack" },
        {
          urn: "urn:pulumi:dev::drift::pulumi:providers:platform::default",
          custom: true,
          type: "pulumi:providers:platform",
          id: "x",
        },
        resource("platform:iam:Group", "team-a", await get(`groups/${teamA.uid}`)),
        resource("pulumi-nodejs:dynamic/iam:Identity", "deploy", await get(`identities/${deploy.uid}`), {
          __provider: "exports.handler = require('platform-pulumi/dist/resources/iam/identity/provider')",
        }),
        resource("pulumi-nodejs:dynamic/iam:Identity", "old", await get(`identities/${old.uid}`)),
        resource("platform:iam:RoleBinding", "deploy-viewer", await get(`roleBindings/${binding.uid}`)),
        {
          urn: "urn:pulumi:dev::drift::random:index/randomPet:RandomPet::pet",
          custom: true,
          type: "random:index/randomPet:RandomPet",
          id: "p",
          outputs: {},
        },
      ],
      pending_operations: [
        {
          type: "creating",
          resource: { urn: "urn:pulumi:dev::drift::platform:iam:Group::late", type: "platform:iam:Group", inputs: {} },
        },
      ],
    },
  };
  const state = tfstate([
    {
      type: "chainguard_group",
      name: "team_b",
      instances: [{ attributes: attributesOf("chainguard_group", await get(`groups/${teamB.uid}`)) }],
    },
    {
      type: "random_pet",
      name: "pet",
      provider: "registry.terraform.io/hashicorp/random",
      instances: [{ attributes: { id: "p" } }],
    },
  ]);
  return { org, teamA, teamB, deploy, old, binding, stack, state };
}

test("changed, deleted, unmanaged and pending across a stack export and a Terraform state, in a List a kind", async () => {
  const o = await organization("story");
  const stackFile = write("story-stack.json", o.stack);
  const stateFile = write("story.tfstate", o.state);
  // In the console: two descriptions edited, an identity deleted, a binding and a role made by hand.
  await call(api(), "PATCH", `${V}/groups/${o.teamA.uid}?update_mask=description`, {
    name: "team-a",
    description: "edited",
  });
  await call(api(), "PATCH", `${V}/groups/${o.teamB.uid}?update_mask=description`, {
    name: "team-b",
    description: "by hand",
  });
  await call(api(), "DELETE", `${V}/identities/${o.old.uid}`);
  const hand = await post(`identities/${o.teamB.uid}`, {
    name: "hand",
    claimMatch: { issuer: "https://i.example", subject: "s" },
  });
  const handBinding = await post(`roleBindings/${o.teamB.uid}`, { identityUid: hand.uid, roleUid: VIEWER });

  emu.clearRequests();
  const importFile = path.join(scratch, "story-import.json");
  const { report } = await driftOrganization({
    under: o.org.uid,
    stackFiles: [stackFile],
    terraformStates: [stateFile],
    importFile,
    client,
  });
  // The group's GET, one List per kind (one page each here), and the group's own record of a kind keyed by its parent.
  const kinds = exportedKinds().map((k) => k.kind);
  expect(report.requests).toBe(1 + kinds.length + kinds.filter((k) => k.keyedByParent).length);
  expect(emu.requests().map((r) => r.method)).toEqual(Array(report.requests).fill("GET"));
  expect(report.changed).toEqual(
    [
      {
        uid: o.teamA.uid,
        type: "platform:iam:Group",
        parent: "story",
        source: `stack file ${stackFile}`,
        urn: "urn:pulumi:dev::drift::platform:iam:Group::team-a",
        fields: [{ name: "description", recorded: "A", live: "edited" }],
      },
      {
        uid: o.teamB.uid,
        type: "platform:iam:Group",
        parent: "story",
        source: `terraform state ${stateFile}`,
        address: "chainguard_group.team_b",
        fields: [{ name: "description", recorded: "B", live: "by hand" }],
      },
    ].sort((a, b) => (a.uid < b.uid ? -1 : 1)),
  );
  expect(report.deleted).toEqual([
    {
      uid: o.old.uid,
      type: "platform:iam:Identity",
      parent: "story/team-a",
      source: `stack file ${stackFile}`,
      urn: "urn:pulumi:dev::drift::pulumi-nodejs:dynamic/iam:Identity::old",
    },
  ]);
  expect(report.unmanaged.map((e) => [e.type, e.uid, e.parent])).toEqual([
    ["platform:iam:Identity", hand.uid, "story/team-b"],
    ["platform:iam:RoleBinding", handBinding.uid, "story/team-b"],
  ]);
  expect(report.unmanaged[0].name).toBe("hand");
  // Told by the names of the records read; the built-in role, not read, by its uid.
  expect(report.unmanaged[1].name).toBe(`role binding (role "${VIEWER}" for identity "hand" on group "team-b")`);
  expect(report.conflicts).toEqual([]);
  expect(report.pending).toEqual([
    expect.objectContaining({ uid: null, type: "platform:iam:Group", operation: "creating", way: expect.any(Array) }),
  ]);
  expect(report.coverage).toEqual({
    managed: 4,
    records: 6,
    kinds: expect.objectContaining({
      "platform:iam:Group": { managed: 2, records: 2 },
      "platform:iam:Identity": { managed: 1, records: 2 },
      "platform:iam:RoleBinding": { managed: 1, records: 2 },
    }),
  });
  expect(report.sources).toEqual([
    { source: `stack file ${stackFile}`, managed: 4, skipped: { "random:index/randomPet:RandomPet": 1 } },
    { source: `terraform state ${stateFile}`, managed: 1, skipped: { random_pet: 1 } },
  ]);
  const imported = JSON.parse(fs.readFileSync(importFile, "utf8")) as {
    resources: Array<{ type: string; id: string }>;
  };
  expect(imported.resources.map((r) => r.type).sort()).toEqual(["platform:iam:Identity", "platform:iam:RoleBinding"]);
  expect(imported.resources.map((r) => r.id)).toContain(hand.uid);

  const text = textReport(report, false);
  expect(text).toContain(`description: "A" → "edited"`);
  // A tree by parent: each path once, its findings below it.
  expect(text.split("\n").filter((line) => /^story/.test(line))).toEqual(["story", "story/team-a", "story/team-b"]);
  expect(text).not.toContain("\x1b[");
  expect(textReport(report, true)).toContain("\x1b[");
  const markdown = markdownReport(report);
  expect(markdown).toContain("#### Unmanaged");
  expect(markdown).toContain("| story/team-b |");
  expect(JSON.parse(jsonReport(report))).toEqual(report);
});

test("the ignore file keeps records out of unmanaged by uid, kind and name pattern", async () => {
  const o = await organization("ignoring");
  const ci1 = await post(`identities/${o.teamB.uid}`, {
    name: "ci-1",
    claimMatch: { issuer: "https://i.example", subject: "1" },
  });
  const ci2 = await post(`identities/${o.teamB.uid}`, {
    name: "ci-2",
    claimMatch: { issuer: "https://i.example", subject: "2" },
  });
  const kept = await post(`identities/${o.teamB.uid}`, {
    name: "kept",
    claimMatch: { issuer: "https://i.example", subject: "3" },
  });
  const role = await post(`roles/${o.org.uid}`, { name: "custom", capabilities: ["CAP_IAM_GROUPS_LIST"] });
  const base = {
    under: o.org.uid,
    stackFiles: [write("ign-stack.json", o.stack)],
    terraformStates: [write("ign.tfstate", o.state)],
    client,
  };
  const none = await driftOrganization(base);
  expect(none.report.unmanaged.map((e) => e.uid).sort()).toEqual([ci1.uid, ci2.uid, kept.uid, role.uid].sort());
  const ignoreFile = write("ignore.yaml", `uids: [${kept.uid}]\ntypes: [platform:iam:Role]\nnames: ["ci-?"]\n`);
  const some = await driftOrganization({ ...base, ignoreFile });
  expect(some.report.unmanaged).toEqual([]);
  expect(some.report.ignored).toBe(4);
  await expect(driftOrganization({ ...base, ignoreFile: write("bad-ignore.json", `{"kinds": []}`) })).rejects.toThrow(
    /the ignore file .*bad-ignore.json: .*kinds/,
  );
  await expect(
    driftOrganization({ ...base, ignoreFile: write("bad-type.json", `{"types": ["platform:iam:Nothing"]}`) }),
  ).rejects.toThrow(/types: no kind platform:iam:Nothing/);
});

test("a record two sources manage is a conflict, named with both", async () => {
  const o = await organization("conflict");
  const stackFile = write("conflict-stack.json", o.stack);
  const second = write("conflict-second.json", {
    version: 3,
    deployment: { resources: [resource("platform:iam:Group", "b", await get(`groups/${o.teamB.uid}`))] },
  });
  const { report } = await driftOrganization({
    under: o.org.uid,
    stackFiles: [stackFile, second],
    terraformStates: [write("conflict.tfstate", o.state)],
    client,
  });
  expect(report.conflicts).toEqual([
    {
      uid: o.teamB.uid,
      type: "platform:iam:Group",
      sources: [
        { source: `stack file ${second}`, urn: "urn:pulumi:dev::drift::platform:iam:Group::b" },
        { source: `terraform state ${path.join(scratch, "conflict.tfstate")}`, address: "chainguard_group.team_b" },
      ],
    },
  ]);
  expect(report.changed).toEqual([]);
  expect(report.deleted).toEqual([]);
});

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("it succeeded");
}

describe("bad input: a clear error, no report", () => {
  let o: Awaited<ReturnType<typeof organization>>;
  let base: DriftOptions;
  beforeAll(async () => {
    o = await organization("bad-input");
    base = { under: o.org.uid, client };
  });

  test("a stack export of another version, a file that is no stack export", async () => {
    const v2 = write("v2.json", { ...o.stack, version: 2 });
    await expect(driftOrganization({ ...base, stackFiles: [v2] })).rejects.toThrow(
      `stack file ${v2} is a stack export of version 2; this command reads version 3`,
    );
    const notJson = write("not-json.json", "{ nope");
    await expect(driftOrganization({ ...base, stackFiles: [notJson] })).rejects.toThrow(`${notJson} is not JSON`);
  });

  test("a stack of another organization: its records named, none counted as deleted", async () => {
    const elsewhere = await post(`groups/${emu.rootUid}`, { name: "elsewhere" });
    const foreign = write("foreign.json", {
      version: 3,
      deployment: { resources: [resource("platform:iam:Group", "elsewhere", await get(`groups/${elsewhere.uid}`))] },
    });
    emu.clearRequests();
    const failure = driftOrganization({ ...base, stackFiles: [foreign] });
    await expect(failure).rejects.toBeInstanceOf(ForeignRecordsError);
    await expect(failure).rejects.toThrow(
      new RegExp(
        `not below ${o.org.uid}[^]*stack file ${foreign}: 1 record\\(s\\), e.g. platform:iam:Group ${elsewhere.uid}`,
      ),
    );
  });

  test("a Terraform state that is not JSON or not UTF-8, before any request", async () => {
    emu.clearRequests();
    const latin1 = path.join(scratch, "latin1.tfstate");
    fs.writeFileSync(latin1, Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    await expect(driftOrganization({ ...base, terraformStates: [latin1] })).rejects.toThrow(
      `the Terraform state ${latin1} is not UTF-8: the byte at offset 2 (line 1, column 3)`,
    );
    const text = write("text.tfstate", "terraform {}");
    await expect(driftOrganization({ ...base, terraformStates: [text] })).rejects.toThrow(text);
    expect(emu.requests()).toEqual([]);
  });

  test("an unreachable API, a refusing one, a List failing mid-way: the error, never a report", async () => {
    const unreachable = createClient({
      apiUrl: "http://127.0.0.1:9",
      authUrl: "http://127.0.0.1:9",
      apiVersion: "v2beta1",
      token: "tok-secret-1",
    });
    try {
      const error = await failureOf(driftOrganization({ ...base, client: unreachable }));
      expect(error.message).not.toContain("tok-secret-1");
    } finally {
      await unreachable.close();
    }
    const refusing = createClient({
      apiUrl: emu.url,
      authUrl: emu.url,
      apiVersion: "v2beta1",
      token: "not-a-token-4f2a",
    });
    try {
      const error = await failureOf(driftOrganization({ ...base, client: refusing }));
      expect(error.message).toMatch(/401|UNAUTHENTICATED|token/i);
      expect(error.message).not.toContain("not-a-token-4f2a");
    } finally {
      await refusing.close();
    }
    // The fifth request (a List of the organization's fourth kind) fails: the read stops there.
    let sent = 0;
    const failing: ApiClient = {
      request: (req) =>
        ++sent === 5 ? Promise.reject(new Error(`the List of ${req.path} failed`)) : client.request(req),
    };
    await expect(driftOrganization({ ...base, client: failing })).rejects.toThrow(/the List of \w+ failed/);
  });
});

test("a secret field that changed is named, its values never; one the export keeps encrypted is not compared", async () => {
  const o = await organization("secrets");
  const secret = "client-secret-7d1e";
  const sso = await post(`identityProviders/${o.teamA.uid}`, {
    name: "sso",
    defaultRole: VIEWER,
    oidc: { issuer: "https://login.example.com", clientId: "platform", clientSecret: secret },
  });
  const outputs = kindOfType("platform:iam:IdentityProvider")!.toOutputs(await get(`identityProviders/${sso.uid}`));
  const oidc = { ...(outputs.oidc as object), clientSecret: secret };
  const wrapped = (value: unknown, plain: boolean) => ({
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    ...(plain ? { plaintext: JSON.stringify(value) } : { ciphertext: "v1:abc" }),
  });
  const stackOf = (plain: boolean) => ({
    version: 3,
    deployment: {
      resources: [
        {
          urn: "urn:pulumi:dev::drift::platform:iam:IdentityProvider::sso",
          custom: true,
          id: sso.uid,
          type: "platform:iam:IdentityProvider",
          outputs: { ...outputs, oidc: wrapped(oidc, plain) },
        },
      ],
    },
  });
  const unchanged = await driftOrganization({
    under: o.org.uid,
    stackFiles: [write("same.json", stackOf(true))],
    client,
  });
  expect(unchanged.report.changed).toEqual([]);
  await call(api(), "PATCH", `${V}/identityProviders/${sso.uid}?update_mask=oidc.issuer`, {
    name: "sso",
    oidc: { issuer: "https://elsewhere.example.com", clientId: "platform" },
  });
  const shown = await driftOrganization({ under: o.org.uid, stackFiles: [write("shown.json", stackOf(true))], client });
  expect(shown.report.changed).toEqual([
    expect.objectContaining({ uid: sso.uid, fields: [{ name: "oidc", secret: true }] }),
  ]);
  for (const text of [jsonReport(shown.report), textReport(shown.report, false), markdownReport(shown.report)]) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain("elsewhere.example.com");
    expect(text).not.toContain("login.example.com");
  }
  const encrypted = await driftOrganization({
    under: o.org.uid,
    stackFiles: [write("encrypted.json", stackOf(false))],
    client,
  });
  expect(encrypted.report.changed).toEqual([]);
  expect(encrypted.report.deleted).toEqual([]);
});

test("a source may manage the group read below: compared with it, not counted among the records below it", async () => {
  const o = await organization("itself");
  const stack = {
    version: 3,
    deployment: { resources: [resource("platform:iam:Group", "org", await get(`groups/${o.org.uid}`))] },
  };
  await call(api(), "PATCH", `${V}/groups/${o.org.uid}?update_mask=description`, {
    name: "itself",
    description: "new",
  });
  const { report } = await driftOrganization({ under: o.org.uid, stackFiles: [write("itself.json", stack)], client });
  expect(report.changed).toEqual([
    expect.objectContaining({ uid: o.org.uid, fields: [{ name: "description", recorded: "", live: "new" }] }),
  ]);
  expect(report.coverage).toMatchObject({ managed: 0, records: 5 });
});

test("a state's secret marker is the SDK's own (specialSigKey, specialSecretSig)", () => {
  expect([SECRET_KEY, SECRET_VALUE]).toEqual([specialSigKey, specialSecretSig]);
});
