/**
 * RoleBinding through the REAL dynamic-provider host, with the `__provider` text the SDK writes
 * when a program constructs the resource from the installed package, against the emulator.
 */
import { BUILTIN_ROLES } from "../../../emulator";
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { HostError } from "../../../tools/host/host";
import { UNKNOWN } from "../../../core/common/values";

let h: Harness;
let provider: string;
let urn: string;
let team: { uid: string; name: string };
let ops: { uid: string; name: string };
let ci: { uid: string; name: string };
const viewer = BUILTIN_ROLES.find((r) => r.name === "viewer")!;
const editor = BUILTIN_ROLES.find((r) => r.name === "editor")!;

beforeAll(async () => {
  h = await startHarness();
  provider = h.providers.RoleBinding;
  urn = h.urn("RoleBinding", "ci-viewer");
  team = (await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "team", description: "the team" })).body;
  ops = (await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "ops" })).body;
  ci = (
    await h.api("POST", `/iam/v2beta1/identities/${h.emu.rootUid}`, {
      name: "ci",
      claimMatch: { issuer: "https://issuer.example", subject: "repo:acme/app" },
    })
  ).body;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

test("the serialized provider is a bare require of the installed package: small, no token, URL or path", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/roleBinding\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(provider.length).toBeLessThan(1024);
  for (const secret of [h.emu.token, h.emu.url, "127.0.0.1", h.staged.dir, "/work/", "node_modules/"]) {
    expect(provider).not.toContain(secret);
  }
  expect(h.mocked["mock-binding"].type).toBe("pulumi-nodejs:dynamic/iam:RoleBinding");
  expect(h.mocked["mock-binding"].inputs).toMatchObject({
    groupUid: "acme/team",
    identityUid: "acme/ci",
    roleUid: "viewer",
  });
});

test("lifecycle: hydrated outputs, one request per create/read/update/delete, none for check and diff", async () => {
  const news = props({ groupUid: team.uid, identityUid: ci.uid, roleUid: viewer.uid });
  const checked = await h.host.check(urn, {}, news);
  expect(checked).toEqual({ inputs: news, failures: [] });
  expect(h.calls()).toEqual([]);

  const created = await h.host.create(urn, checked.inputs);
  expect(h.calls()).toEqual([`POST /iam/v2beta1/roleBindings/${team.uid}`]);
  expect(created.id).toMatch(/.+/);
  expect(created.props).toMatchObject({
    uid: created.id,
    groupUid: team.uid,
    identityUid: ci.uid,
    roleUid: viewer.uid,
    identity: { uid: ci.uid, name: "ci", description: "", subject: "repo:acme/app", issuer: "https://issuer.example" },
    group: { uid: team.uid, name: "team", description: "the team" },
    role: { uid: viewer.uid, name: "viewer", description: "Viewer Role (built-in)" },
    __provider: provider,
  });
  expect(created.props.createTime).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET /iam/v2beta1/roleBindings/${created.id}`]);
  expect(read.props).toEqual(created.props);
  expect(read.inputs).toEqual(news);
  h.emu.clearRequests();

  expect(
    await h.host.diff(created.id, urn, created.props, {
      ...news,
      __provider: `${provider}// written by a newer release\n`,
    }),
  ).toMatchObject({ changes: "none" });
  const promoted = props({ groupUid: team.uid, identityUid: ci.uid, roleUid: editor.uid });
  expect(await h.host.diff(created.id, urn, created.props, promoted)).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(
    await h.host.diff(
      created.id,
      urn,
      created.props,
      props({ groupUid: ops.uid, identityUid: ci.uid, roleUid: viewer.uid }),
    ),
  ).toMatchObject({
    changes: "some",
    replaces: ["groupUid"],
  });
  expect(h.calls()).toEqual([]);

  const updated = await h.host.update(created.id, urn, created.props, promoted);
  const log = h.emu.requests();
  expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /iam/v2beta1/roleBindings/${created.id}`]);
  expect(log[0].query).toEqual({ updateMask: "roleUid" });
  expect(updated).toMatchObject({ uid: created.id, roleUid: editor.uid, role: { uid: editor.uid, name: "editor" } });
  h.emu.clearRequests();

  // Drift: the binding deleted outside Pulumi reads as gone, and deleting it again succeeds.
  expect((await h.api("DELETE", `/iam/v2beta1/roleBindings/${created.id}`)).status).toBe(200);
  h.emu.clearRequests();
  expect((await h.host.read(created.id, urn, updated)).id).toBe("");
  expect(h.calls()).toEqual([`GET /iam/v2beta1/roleBindings/${created.id}`]);
  h.emu.clearRequests();
  await h.host.delete(created.id, urn, updated);
  expect(h.calls()).toEqual([`DELETE /iam/v2beta1/roleBindings/${created.id}`]);

  for (const output of [created.props, read.props, read.inputs, updated]) {
    expect(JSON.stringify(output)).not.toContain(h.emu.token);
  }
});

test("drift in the role shows up in read's inputs; delete sends one DELETE", async () => {
  const created = await h.host.create(urn, props({ groupUid: team.uid, identityUid: ci.uid, roleUid: viewer.uid }));
  await h.api("PATCH", `/iam/v2beta1/roleBindings/${created.id}?updateMask=roleUid`, { roleUid: editor.uid });
  h.emu.clearRequests();
  const drifted = await h.host.read(created.id, urn, created.props);
  expect(drifted.inputs).toEqual(props({ groupUid: team.uid, identityUid: ci.uid, roleUid: editor.uid }));
  expect(drifted.props.role).toMatchObject({ uid: editor.uid, name: "editor" });
  h.emu.clearRequests();
  await h.host.delete(created.id, urn, drifted.props);
  expect(h.calls()).toEqual([`DELETE /iam/v2beta1/roleBindings/${created.id}`]);
});

test("check names the failing property and sends nothing; unknown values pass", async () => {
  const failures = async (values: Record<string, unknown>) => (await h.host.check(urn, {}, props(values))).failures;
  expect(await failures({ groupUid: team.uid, identityUid: ci.uid, roleUid: "roles/viewer" })).toEqual([
    { property: "roleUid", reason: 'must be a role\'s uid: it must be one segment, without "/"' },
  ]);
  expect(await failures({ groupUid: "/acme", identityUid: ci.uid, roleUid: viewer.uid })).toEqual([
    {
      property: "groupUid",
      reason: 'must be a group\'s uid: it has an empty segment (a leading, trailing or doubled "/")',
    },
  ]);
  expect(await failures({ groupUid: team.uid, roleUid: viewer.uid })).toEqual([
    { property: "identityUid", reason: "is required" },
  ]);
  expect(await failures({ groupUid: team.uid, identityUid: ci.uid, roleUid: viewer.uid, role: "viewer" })).toEqual([
    { property: "role", reason: "unknown property; RoleBinding takes groupUid, identityUid, roleUid, adopt, adoptUid" },
  ]);
  const pending = props({ groupUid: UNKNOWN, identityUid: UNKNOWN, roleUid: viewer.uid });
  expect(await h.host.check(urn, {}, pending)).toEqual({ inputs: pending, failures: [] });
  const olds = props({ uid: "acme/team/b", groupUid: "acme/team", identityUid: "acme/ci", roleUid: viewer.uid });
  expect(await h.host.diff("acme/team/b", urn, olds, pending)).toMatchObject({
    changes: "some",
    replaces: ["groupUid", "identityUid"],
  });
  expect(h.calls()).toEqual([]);
});

test("binding a role the identity already holds on the group says so", async () => {
  const existing = await h.api("POST", `/iam/v2beta1/roleBindings/${ops.uid}`, {
    identityUid: ci.uid,
    roleUid: viewer.uid,
  });
  h.emu.clearRequests();
  const error: HostError = await h.host
    .create(urn, props({ groupUid: ops.uid, identityUid: ci.uid, roleUid: viewer.uid }))
    .then(
      () => undefined as never,
      (e) => e,
    );
  expect(error.message).toMatch(
    /^creating role binding \(role "[^"]+" for identity "[^"]+" on group "[^"]+"\) failed: it already exists/,
  );
  expect(error.message).toContain(existing.body.uid);
  expect(error.message).toContain("RoleBinding.get");
  expect(h.calls()).toHaveLength(1);
  await h.api("DELETE", `/iam/v2beta1/roleBindings/${existing.body.uid}`);
});

test("a create whose answer is lost after the write adopts the binding instead of creating a second", async () => {
  h.emu.setFaults([{ path: "^/iam/v2beta1/roleBindings/", methods: ["POST"], dropAfterCommitRate: 1 }]);
  try {
    const created = await h.host.create(urn, props({ groupUid: ops.uid, identityUid: ci.uid, roleUid: editor.uid }));
    const log = h.emu.requests();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /iam/v2beta1/roleBindings/${ops.uid}`,
      "GET /iam/v2beta1/roleBindings",
    ]);
    expect(log[1].query).toMatchObject({ "uidp.children_of": ops.uid, identity: ci.uid, role: editor.uid });
    const list = await h.api("GET", `/iam/v2beta1/roleBindings?uidp.children_of=${ops.uid}&identity=${ci.uid}`);
    expect(list.body.roleBindings.map((b: { uid: string }) => b.uid)).toEqual([created.id]);
    expect(created.props).toMatchObject({ groupUid: ops.uid, roleUid: editor.uid, role: { name: "editor" } });
  } finally {
    h.emu.setFaults([]);
  }
});
