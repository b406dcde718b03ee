/**
 * Group through the REAL dynamic-provider host, with the `__provider` text the SDK writes when
 * a program constructs the resource from the installed package, against the emulator.
 */
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { HostError } from "../../../tools/host/host";
import { UNKNOWN } from "../../../core/common/values";

let h: Harness;
let provider: string;
let urn: string;

beforeAll(async () => {
  h = await startHarness();
  provider = h.providers.Group;
  urn = h.urn("Group", "team");
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

test("the serialized provider is a bare require of the installed package: small, no token, URL or path", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/group\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(provider.length).toBeLessThan(1024);
  for (const secret of [h.emu.token, h.emu.url, "127.0.0.1", h.staged.dir, "/work/", "node_modules/"]) {
    expect(provider).not.toContain(secret);
  }
  expect(h.mocked["mock-group"].type).toBe("pulumi-nodejs:dynamic/iam:Group");
  expect(h.mocked["mock-group"].inputs).toMatchObject({ parentUid: "acme", name: "team", description: "the team" });
});

test("isInstance tells the three resource classes apart", () => {
  const { Group, Identity } = h.platform.iam;
  expect(Group.isInstance(h.instances["mock-group"])).toBe(true);
  expect(Group.isInstance(h.instances["mock-group-get"])).toBe(true);
  expect(Group.isInstance(h.instances["mock-identity"])).toBe(false);
  expect(Identity.isInstance(h.instances["mock-identity"])).toBe(true);
  expect(Group.isInstance({ name: "team" })).toBe(false);
});

test("Group.get reads an existing group by uid", () => {
  const got = h.mocked["mock-group-get"];
  expect(got.type).toBe("pulumi-nodejs:dynamic/iam:Group");
  expect(got.id).toBe("acme/existing");
  expect(got.inputs.__provider).toBe(provider);
});

test("lifecycle: one request per create/read/update/delete, none for check and diff, masks name exactly the changes", async () => {
  const root = h.emu.rootUid;
  const news = props({ parentUid: root, name: "team", description: "the team" });

  const checked = await h.host.check(urn, {}, news);
  expect(checked.failures).toEqual([]);
  expect(checked.inputs).toEqual(news);
  expect(h.calls()).toEqual([]);

  const created = await h.host.create(urn, checked.inputs);
  expect(h.calls()).toEqual([`POST /iam/v2beta1/groups/${root}`]);
  expect(created.id).toMatch(new RegExp(`^${root}/[^/]+$`));
  expect(created.props).toMatchObject({
    uid: created.id,
    parentUid: root,
    name: "team",
    description: "the team",
    verified: false,
    resourceLimits: {},
    __provider: provider,
  });
  expect(created.props.createTime).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  expect(created.props.updateTime).toEqual(expect.any(String));
  const stored = await h.api("GET", `/iam/v2beta1/groups/${created.id}`);
  expect(stored.body).toMatchObject({ name: "team", description: "the team" });
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET /iam/v2beta1/groups/${created.id}`]);
  expect(read.id).toBe(created.id);
  expect(read.props).toEqual(created.props);
  expect(read.inputs).toEqual(props({ parentUid: root, name: "team", description: "the team" }));
  h.emu.clearRequests();

  // An upgraded package writes a different __provider text; unchanged inputs still mean no change.
  const unchanged = await h.host.diff(created.id, urn, created.props, {
    ...news,
    __provider: `${provider}// written by a newer release\n`,
  });
  expect(unchanged).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  // An absent description is the same as the server's "".
  const emptied = await h.host.diff(
    created.id,
    urn,
    { ...created.props, description: "" },
    props({ parentUid: root, name: "team" }),
  );
  expect(emptied.changes).toBe("none");

  const renamed = props({ parentUid: root, name: "team-renamed", description: "the team" });
  expect(await h.host.diff(created.id, urn, created.props, renamed)).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
  const moved = props({ parentUid: `${root}/elsewhere`, name: "team", description: "the team" });
  expect(await h.host.diff(created.id, urn, created.props, moved)).toMatchObject({
    changes: "some",
    replaces: ["parentUid"],
  });
  expect(h.calls()).toEqual([]);

  const updated = await h.host.update(created.id, urn, created.props, renamed);
  let log = h.emu.requests();
  expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /iam/v2beta1/groups/${created.id}`]);
  expect(log[0].query).toEqual({ updateMask: "name" });
  expect(updated).toMatchObject({
    uid: created.id,
    name: "team-renamed",
    description: "the team",
    __provider: provider,
  });
  h.emu.clearRequests();

  // Both fields at once, the description removed from the program: the mask names both, the description is cleared.
  const updatedTwice = await h.host.update(created.id, urn, updated, props({ parentUid: root, name: "team2" }));
  log = h.emu.requests();
  expect(log).toHaveLength(1);
  expect(log[0].query).toEqual({ updateMask: "name,description" });
  expect(updatedTwice).toMatchObject({ name: "team2", description: "" });
  expect((await h.api("GET", `/iam/v2beta1/groups/${created.id}`)).body).toMatchObject({
    name: "team2",
    description: "",
  });

  // Drift: an edit made outside Pulumi shows up in what read returns as inputs.
  await h.api("PATCH", `/iam/v2beta1/groups/${created.id}?updateMask=description`, {
    name: "team2",
    description: "edited in the console",
  });
  h.emu.clearRequests();
  const drifted = await h.host.read(created.id, urn, updatedTwice);
  expect(h.calls()).toHaveLength(1);
  expect(drifted.inputs).toEqual(props({ parentUid: root, name: "team2", description: "edited in the console" }));
  expect(await h.host.diff(created.id, urn, drifted.props, props({ parentUid: root, name: "team2" }))).toMatchObject({
    changes: "some",
    replaces: [],
  });
  h.emu.clearRequests();

  await h.host.delete(created.id, urn, drifted.props);
  expect(h.calls()).toEqual([`DELETE /iam/v2beta1/groups/${created.id}`]);
  expect((await h.api("GET", `/iam/v2beta1/groups/${created.id}`)).status).toBe(404);
  h.emu.clearRequests();

  const gone = await h.host.read(created.id, urn, drifted.props);
  expect(gone.id).toBe("");
  expect(h.calls()).toHaveLength(1);
  h.emu.clearRequests();

  await h.host.delete(created.id, urn, drifted.props);
  expect(h.calls()).toEqual([`DELETE /iam/v2beta1/groups/${created.id}`]);

  for (const output of [created.props, read.props, read.inputs, updated, updatedTwice, drifted.props, drifted.inputs]) {
    expect(JSON.stringify(output)).not.toContain(h.emu.token);
  }
});

test("the read behind Group.get needs only the uid: every output, and the parent from the uid", async () => {
  const existing = await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, {
    name: "existing",
    description: "made elsewhere",
  });
  h.emu.clearRequests();
  const read = await h.host.read(existing.body.uid, h.urn("Group", "existing"), {}, { __provider: provider });
  expect(h.calls()).toEqual([`GET /iam/v2beta1/groups/${existing.body.uid}`]);
  expect(read.id).toBe(existing.body.uid);
  expect(read.props).toEqual({ ...existing.body, parentUid: h.emu.rootUid, __provider: provider });
  expect(read.inputs).toEqual(props({ parentUid: h.emu.rootUid, name: "existing", description: "made elsewhere" }));
});

test("check names the failing property and sends nothing", async () => {
  const failures = async (values: Record<string, unknown>) => (await h.host.check(urn, {}, props(values))).failures;
  expect(await failures({ parentUid: h.emu.rootUid, name: "Team!" })).toEqual([
    { property: "name", reason: "must match ^[a-z0-9 ._-]{1,}$" },
  ]);
  expect(await failures({ parentUid: "acme//team", name: "team" })).toEqual([
    {
      property: "parentUid",
      reason: 'must be a group\'s uid: it has an empty segment (a leading, trailing or doubled "/")',
    },
  ]);
  expect(await failures({ parentUid: h.emu.rootUid })).toEqual([{ property: "name", reason: "is required" }]);
  expect(await failures({ parentUid: h.emu.rootUid, name: "team", description: 7 })).toEqual([
    { property: "description", reason: "must be a string" },
  ]);
  expect(await failures({ parentUid: h.emu.rootUid, name: "team", nmae: "x" })).toEqual([
    { property: "nmae", reason: "unknown property; Group takes parentUid, name, description, adopt, adoptUid" },
  ]);
  expect(h.calls()).toEqual([]);
});

test("values unknown during preview pass check untouched; an unknown parent means replacement", async () => {
  const news = props({ parentUid: UNKNOWN, name: UNKNOWN, description: "d" });
  const checked = await h.host.check(urn, {}, news);
  expect(checked).toEqual({ inputs: news, failures: [] });
  const olds = props({ uid: "acme/team", parentUid: "acme", name: "team", description: "d" });
  expect(
    await h.host.diff("acme/team", urn, olds, props({ parentUid: UNKNOWN, name: "team", description: "d" })),
  ).toMatchObject({ changes: "some", replaces: ["parentUid"] });
  expect(
    await h.host.diff("acme/team", urn, olds, props({ parentUid: "acme", name: UNKNOWN, description: "d" })),
  ).toMatchObject({ changes: "some", replaces: [] });
  expect(h.calls()).toEqual([]);
});

test("creating a group whose name is taken says so and does not take it over", async () => {
  const taken = await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "taken" });
  h.emu.clearRequests();
  const error: HostError = await h.host.create(urn, props({ parentUid: h.emu.rootUid, name: "taken" })).then(
    () => undefined as never,
    (e) => e,
  );
  expect(error.message).toMatch(/^creating group "taken" under "[^"]+" failed: it already exists/);
  expect(error.message).toContain(taken.body.uid);
  expect(error.message).toContain("Group.get");
  expect(h.calls()).toEqual([`POST /iam/v2beta1/groups/${h.emu.rootUid}`]);
});

test("deleting a group that still holds a repo fails with a message saying so; NOT_FOUND is success", async () => {
  const created = await h.host.create(urn, props({ parentUid: h.emu.rootUid, name: "with-repo" }));
  const repo = await h.api("POST", `/registry/v2beta1/repos/${created.id}`, { name: "app" });
  expect(repo.status).toBe(200);
  h.emu.clearRequests();
  const error: HostError = await h.host.delete(created.id, urn, created.props).then(
    () => undefined as never,
    (e) => e,
  );
  expect(error.message).toMatch(
    new RegExp(
      `^deleting group "with-repo" \\(${created.id}\\) failed: the group still has repos, child groups or identities \\(.*1 repos.*\\)`,
    ),
  );
  expect(error.message).toContain("retainOnDelete");
  expect(h.calls()).toEqual([`DELETE /iam/v2beta1/groups/${created.id}`]);
  await h.api("DELETE", `/registry/v2beta1/repos/${repo.body.uid}`);
  await h.host.delete(created.id, urn, created.props);
  expect((await h.api("GET", `/iam/v2beta1/groups/${created.id}`)).status).toBe(404);
});

test("a create whose answer is lost after the write adopts the record instead of creating a second", async () => {
  h.emu.setFaults([{ path: "^/iam/v2beta1/groups/", methods: ["POST"], dropAfterCommitRate: 1 }]);
  try {
    const created = await h.host.create(urn, props({ parentUid: h.emu.rootUid, name: "lost-answer" }));
    const log = h.emu.requests();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /iam/v2beta1/groups/${h.emu.rootUid}`,
      "GET /iam/v2beta1/groups",
    ]);
    expect(log[1].query).toMatchObject({ "uidp.children_of": h.emu.rootUid, name: "lost-answer" });
    const list = await h.api("GET", `/iam/v2beta1/groups?uidp.children_of=${h.emu.rootUid}&name=lost-answer`);
    expect(list.body.groups).toHaveLength(1);
    expect(created.id).toBe(list.body.groups[0].uid);
    expect(created.props).toMatchObject({ uid: created.id, name: "lost-answer", parentUid: h.emu.rootUid });
  } finally {
    h.emu.setFaults([]);
  }
});

test("a create whose requests never arrive gives up after a bounded number of tries and leaves nothing", async () => {
  h.emu.setFaults([{ path: "^/iam/v2beta1/groups/", methods: ["POST"], dropRate: 1 }]);
  try {
    const error: HostError = await h.host.create(urn, props({ parentUid: h.emu.rootUid, name: "never-arrives" })).then(
      () => undefined as never,
      (e) => e,
    );
    expect(error.message).toMatch(/^creating group "never-arrives" under "[^"]+" failed: the answer was lost 6 times/);
    expect(h.calls().filter((c) => c.startsWith("POST"))).toHaveLength(6);
  } finally {
    h.emu.setFaults([]);
  }
  const list = await h.api("GET", `/iam/v2beta1/groups?uidp.children_of=${h.emu.rootUid}&name=never-arrives`);
  expect(list.body.groups).toEqual([]);
});
