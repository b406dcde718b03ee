/**
 * Opt-in adoption through the REAL dynamic-provider host: with `adopt: true` (or the
 * stack-wide platform:adopt) a create whose record already exists takes it over and brings it
 * to the declared values with one PATCH of the fields that differ; without it, ALREADY_EXISTS
 * stays an error that says how to adopt.
 */
import { Harness, startHarness } from "../../tools/host/resourceHarness";
import { startHost } from "../../tools/host/host";

let h: Harness;
let root: string;
let viewer: string;
let editor: string;

beforeAll(async () => {
  h = await startHarness();
  root = h.emu.rootUid;
  const roles = (await h.api("GET", "/iam/v2beta1/roles")).body.roles as Array<{ uid: string; name: string }>;
  viewer = roles.find((r) => r.name === "viewer")!.uid;
  editor = roles.find((r) => r.name === "editor")!.uid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const group = (values: Record<string, unknown>): Record<string, unknown> => ({
  ...values,
  __provider: h.providers.Group,
});
const GITHUB = "https://token.actions.githubusercontent.com";

test("adopt: true takes over an existing group and PATCHes only what differs; update and read keep `adopted`", async () => {
  const existing = (await h.api("POST", `/iam/v2beta1/groups/${root}`, { name: "adopt-me", description: "old" })).body;
  h.emu.clearRequests();
  const urn = h.urn("Group", "adopt-me");
  const news = group({ parentUid: root, name: "adopt-me", description: "declared", adopt: true });
  expect((await h.host.check(urn, {}, news)).failures).toEqual([]);
  const created = await h.host.create(urn, news);
  expect(h.calls()).toEqual([
    `POST /iam/v2beta1/groups/${root}`,
    "GET /iam/v2beta1/groups",
    `PATCH /iam/v2beta1/groups/${existing.uid}`,
  ]);
  const log = h.emu.requests();
  expect(log[1].query).toMatchObject({ "uidp.children_of": root, name: "adopt-me" });
  expect(log[2].query).toEqual({ updateMask: "description" });
  expect(created.id).toBe(existing.uid);
  expect(created.props).toMatchObject({ uid: existing.uid, description: "declared", adopted: true });
  expect(created.props).not.toHaveProperty("adopt");
  expect((await h.api("GET", `/iam/v2beta1/groups/${existing.uid}`)).body.description).toBe("declared");

  // `adopt` is not a field of the record: switching it off later is no change.
  const { adopt: _adopt, ...without } = news;
  expect(await h.host.diff(created.id, urn, created.props, without)).toMatchObject({ changes: "none" });
  h.emu.clearRequests();
  const updated = await h.host.update(created.id, urn, created.props, { ...without, description: "again" });
  expect(h.emu.requests().map((r) => r.query)).toEqual([{ updateMask: "description" }]);
  expect(updated).toMatchObject({ description: "again", adopted: true });
  const read = await h.host.read(created.id, urn, updated);
  expect(read.props.adopted).toBe(true);
  expect(read.inputs).not.toHaveProperty("adopted");
  await h.host.delete(created.id, urn, read.props);
});

test("an adopted record that already matches costs no PATCH", async () => {
  const existing = (await h.api("POST", `/iam/v2beta1/groups/${root}`, { name: "matches", description: "same" })).body;
  h.emu.clearRequests();
  const created = await h.host.create(
    h.urn("Group", "matches"),
    group({ parentUid: root, name: "matches", description: "same", adopt: true }),
  );
  expect(h.calls()).toEqual([`POST /iam/v2beta1/groups/${root}`, "GET /iam/v2beta1/groups"]);
  expect(created).toMatchObject({ id: existing.uid, props: { adopted: true } });
});

test("without adopt, ALREADY_EXISTS is an error that says how to adopt, after one request", async () => {
  await h.api("POST", `/iam/v2beta1/groups/${root}`, { name: "taken" });
  h.emu.clearRequests();
  const create = h.host.create(h.urn("Group", "taken"), group({ parentUid: root, name: "taken" }));
  await expect(create).rejects.toThrow(/already exists .*set `adopt: true` on this resource.*platform:adopt true/);
  expect(h.calls()).toEqual([`POST /iam/v2beta1/groups/${root}`]);
});

/** A second host, as another `pulumi up` would start, configured with these extra keys. */
async function hostWith(extra: Record<string, string>) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
  const host = await startHost({ cwd: h.staged.dir, env });
  await host.configure({ "platform:apiUrl": h.emu.url, "platform:token": h.emu.token, ...extra });
  return host;
}

test("platform:adopt turns adoption on for the whole stack; adopt: false on a resource still refuses", async () => {
  const existing = (await h.api("POST", `/iam/v2beta1/groups/${root}`, { name: "stack-wide" })).body;
  const host = await hostWith({ "platform:adopt": "true" });
  try {
    const refused = host.create(
      h.urn("Group", "stack-wide"),
      group({ parentUid: root, name: "stack-wide", adopt: false }),
    );
    await expect(refused).rejects.toThrow(/already exists/);
    const created = await host.create(h.urn("Group", "stack-wide"), group({ parentUid: root, name: "stack-wide" }));
    expect(created).toMatchObject({ id: existing.uid, props: { adopted: true } });
  } finally {
    await host.close();
  }
});

test("a platform:adopt that is not true or false is refused at configure, naming it, before any request", async () => {
  await h.api("POST", `/iam/v2beta1/groups/${root}`, { name: "maybe" });
  h.emu.clearRequests();
  const host = await hostWith({ "platform:adopt": "maybe" });
  try {
    await expect(host.create(h.urn("Group", "maybe"), group({ parentUid: root, name: "maybe" }))).rejects.toThrow(
      "platform:adopt: must be true or false",
    );
    expect(h.calls()).toEqual([]);
  } finally {
    await host.close();
  }
});

test("an identity is adopted by name under its parent; the PATCH masks the changed claim member", async () => {
  const claimMatch = { issuer: GITHUB, subject: "repo:acme/app:ref:refs/heads/main" };
  const existing = (await h.api("POST", `/iam/v2beta1/identities/${root}`, { name: "ci-adopt", claimMatch })).body;
  h.emu.clearRequests();
  const declared = { ...claimMatch, subject: "repo:acme/app:ref:refs/heads/release" };
  const created = await h.host.create(h.urn("Identity", "ci-adopt"), {
    parentUid: root,
    name: "ci-adopt",
    claimMatch: declared,
    adopt: true,
    __provider: h.providers.Identity,
  });
  expect(h.emu.requests().map((r) => r.query.updateMask)).toEqual([undefined, undefined, "claimMatch.subject"]);
  expect(created).toMatchObject({ id: existing.uid, props: { claimMatch: declared, adopted: true } });
});

test("a role binding is adopted by group, identity and role; a binding of another role is not taken", async () => {
  const team = (await h.api("POST", `/iam/v2beta1/groups/${root}`, { name: "binding-team" })).body;
  const ci = (
    await h.api("POST", `/iam/v2beta1/identities/${team.uid}`, {
      name: "ci",
      claimMatch: { issuer: GITHUB, subject: "s" },
    })
  ).body;
  const existing = (
    await h.api("POST", `/iam/v2beta1/roleBindings/${team.uid}`, { identityUid: ci.uid, roleUid: viewer })
  ).body;
  await h.api("POST", `/iam/v2beta1/roleBindings/${team.uid}`, { identityUid: ci.uid, roleUid: editor });
  h.emu.clearRequests();
  const created = await h.host.create(h.urn("RoleBinding", "adopted"), {
    groupUid: team.uid,
    identityUid: ci.uid,
    roleUid: viewer,
    adopt: true,
    __provider: h.providers.RoleBinding,
  });
  expect(h.calls()).toEqual([`POST /iam/v2beta1/roleBindings/${team.uid}`, "GET /iam/v2beta1/roleBindings"]);
  expect(created).toMatchObject({ id: existing.uid, props: { roleUid: viewer, adopted: true } });
});

test("adopt must be a boolean, checked before any request", async () => {
  const checked = await h.host.check(h.urn("Group", "x"), {}, group({ parentUid: root, name: "x", adopt: "yes" }));
  expect(checked.failures).toEqual([{ property: "adopt", reason: "must be true or false" }]);
  expect(h.calls()).toEqual([]);
});
