/**
 * Repo through the REAL dynamic-provider host, with the `__provider` text the SDK writes when a
 * program constructs the resource from the installed package, against the emulator (which
 * refuses any body that is not the documented message).
 */
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { failureOf, registerResource } from "../../../tests/support/registeredResource";
import { startHost } from "../../../tools/host/host";

let h: Harness;
let provider: string;
let urn: string;
const REPOS = "/registry/v2beta1/repos";

beforeAll(async () => {
  // Strict about update bodies too: every PATCH must carry the documented required name.
  h = await startHarness();
  const repo = await registerResource(
    h,
    "mock-repo",
    (platform) => new platform.registry.Repo("mock-repo", { parentUid: "acme", name: "app", bundles: ["b"] }),
  );
  await registerResource(h, "mock-repo-get", (platform) => platform.registry.Repo.get("mock-repo-get", "acme/r1"));
  provider = repo.provider;
  urn = repo.urn;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });
const patches = () =>
  h.emu
    .requests()
    .filter((r) => r.method === "PATCH")
    .map((r) => r.query.updateMask);

test("the serialized provider is a bare require of the installed package, at most 330 bytes, nothing captured", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/registry\/repo\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
  for (const secret of [h.emu.token, h.emu.url, "127.0.0.1", h.staged.dir, "/work/", "node_modules/"]) {
    expect(provider).not.toContain(secret);
  }
  expect(h.mocked["mock-repo"].type).toBe("pulumi-nodejs:dynamic/registry:Repo");
  const { Repo } = h.platform.registry;
  expect(Repo.isInstance(h.instances["mock-group"])).toBe(false);
  expect(h.mocked["mock-repo-get"]).toMatchObject({ type: "pulumi-nodejs:dynamic/registry:Repo", id: "acme/r1" });
  expect(h.mocked["mock-repo-get"].inputs.__provider).toBe(provider);
});

test("lifecycle: create, no-op rerun, each in-place update with its exact mask, drift, guarded delete", async () => {
  const root = h.emu.rootUid;
  const declared = {
    parentUid: root,
    name: "app",
    description: "the app",
    bundles: ["base"],
    aliases: ["application"],
    catalogTier: "CATALOG_TIER_APPLICATION",
    syncConfig: { source: "acme/upstream", amazon: "123456789012" },
    customOverlay: { environment: { TZ: "UTC" }, contents: { packages: ["curl"] } },
  };
  const news = props(declared);

  const checked = await h.host.check(urn, {}, news);
  expect(checked).toEqual({ inputs: news, failures: [] });
  expect(h.calls()).toEqual([]);

  const created = await h.host.create(urn, checked.inputs);
  const posted = h.emu.requests();
  expect(posted.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${REPOS}/${root}`]);
  const { parentUid: _parent, syncConfig, ...body } = declared;
  expect((await h.api("GET", `${REPOS}/${created.id}`)).body).toMatchObject({ ...body, sync_config: syncConfig });
  h.emu.clearRequests();
  expect(created.id).toMatch(new RegExp(`^${root}/[^/]+$`));
  expect(created.props).toMatchObject({ ...declared, uid: created.id, activeTags: [], __provider: provider });
  expect(created.props).not.toHaveProperty("sync_config");
  expect(created.props.createTime).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET ${REPOS}/${created.id}`]);
  expect(read.props).toEqual(created.props);
  expect(read.inputs).toEqual(news);
  // The rerun of the same program, and of a newer release of the package: no change.
  const unchanged = await h.host.diff(created.id, urn, read.props, { ...news, __provider: `${provider}// newer\n` });
  expect(unchanged).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  h.emu.clearRequests();

  // Each writable field on its own: one PATCH, the mask names exactly it (nested messages by member).
  const steps: Array<[string, Record<string, unknown>, string]> = [
    ["name", { name: "app2" }, "name"],
    ["description", { description: "still the app" }, "description"],
    ["bundles", { bundles: ["base", "extra"] }, "bundles"],
    ["aliases", { aliases: [] }, "aliases"],
    ["catalogTier", { catalogTier: "CATALOG_TIER_BASE" }, "catalogTier"],
    [
      "customOverlay",
      { customOverlay: { environment: { TZ: "CET" }, contents: { packages: ["curl"] } } },
      "customOverlay.environment",
    ],
  ];
  let state = read.props;
  let program: Record<string, unknown> = declared;
  for (const [field, change, mask] of steps) {
    program = { ...program, ...change };
    const diff = await h.host.diff(created.id, urn, state, props(program));
    expect([field, diff]).toEqual([field, { changes: "some", replaces: [], deleteBeforeReplace: false }]);
    state = await h.host.update(created.id, urn, state, props(program));
    expect([field, patches()]).toEqual([field, [mask]]);
    expect(state).toMatchObject({ ...change, uid: created.id });
    h.emu.clearRequests();
  }
  const stored = await h.api("GET", `${REPOS}/${created.id}`);
  expect(stored.body).toMatchObject({
    name: "app2",
    description: "still the app",
    bundles: ["base", "extra"],
    aliases: [],
    catalogTier: "CATALOG_TIER_BASE",
    sync_config: { source: "acme/upstream", amazon: "123456789012" },
    customOverlay: { environment: { TZ: "CET" } },
  });

  // Fields dropped from the program: named in the mask, out of the body, cleared by the service.
  const { catalogTier: _tier, customOverlay: _overlay, ...fewer } = program;
  state = await h.host.update(created.id, urn, state, props(fewer));
  expect(patches()).toEqual(["catalogTier,customOverlay"]);
  expect(state).not.toHaveProperty("catalogTier");
  expect(state).not.toHaveProperty("customOverlay");
  program = fewer;
  h.emu.clearRequests();

  // Drift: an edit made outside Pulumi comes back from read as an input.
  await h.api("PATCH", `${REPOS}/${created.id}?updateMask=description`, { name: "app2", description: "console" });
  h.emu.clearRequests();
  const drifted = await h.host.read(created.id, urn, state);
  expect(h.calls()).toEqual([`GET ${REPOS}/${created.id}`]);
  // The emptied aliases read back as left out: [] and absent are the same.
  const { aliases: _emptied, ...asRead } = program;
  expect(drifted.inputs).toEqual(props({ ...asRead, description: "console" }));
  expect(await h.host.diff(created.id, urn, drifted.props, props(program))).toMatchObject({
    changes: "some",
    replaces: [],
  });
  h.emu.clearRequests();

  // Without allowDelete, neither a delete nor a replacement goes out; the message says how.
  const refused = await failureOf(h.host.delete(created.id, urn, drifted.props));
  expect(refused.message).toMatch(new RegExp(`^deleting repo "app2" \\(${created.id}\\) refused: `));
  expect(refused.message).toContain("set `allowDelete: true` on the Repo and run `pulumi up`");
  const moved = props({ ...program, parentUid: `${root}/elsewhere` });
  const noReplace = await failureOf(h.host.diff(created.id, urn, drifted.props, moved));
  expect(noReplace.message).toMatch(/^replacing repo "app2" \(.*\) \(parentUid changed\) refused: .*allowDelete: true/);
  expect(h.calls()).toEqual([]);

  // allowDelete is the program's alone: a change, stored with no request, never sent.
  const allowing = props({ ...program, allowDelete: true });
  expect(await h.host.diff(created.id, urn, drifted.props, allowing)).toMatchObject({ changes: "some", replaces: [] });
  const allowed = await h.host.update(
    created.id,
    urn,
    drifted.props,
    props({ ...program, description: "console", allowDelete: true }),
  );
  expect(h.calls()).toEqual([]);
  expect(allowed.allowDelete).toBe(true);
  expect((await h.host.read(created.id, urn, allowed)).inputs).toMatchObject({ allowDelete: true });
  expect(
    await h.host.diff(
      created.id,
      urn,
      allowed,
      props({ ...program, parentUid: `${root}/elsewhere`, allowDelete: true }),
    ),
  ).toMatchObject({
    replaces: ["parentUid"],
    deleteBeforeReplace: false,
  });
  h.emu.clearRequests();

  await h.host.delete(created.id, urn, allowed);
  expect(h.calls()).toEqual([`DELETE ${REPOS}/${created.id}`]);
  expect((await h.api("GET", `${REPOS}/${created.id}`)).status).toBe(404);
  h.emu.clearRequests();
  expect((await h.host.read(created.id, urn, allowed)).id).toBe("");
  await h.host.delete(created.id, urn, allowed);
  expect(h.calls()).toEqual([`GET ${REPOS}/${created.id}`, `DELETE ${REPOS}/${created.id}`]);

  for (const output of [created.props, read.props, state, drifted.props, allowed]) {
    expect(JSON.stringify(output)).not.toContain(h.emu.token);
  }
});

test("the read behind Repo.get needs only the uid; what the service adds stays out of the compared fields", async () => {
  const made = await h.api("POST", `${REPOS}/${h.emu.rootUid}`, {
    name: "existing",
    catalogTier: "CATALOG_TIER_UNSPECIFIED",
    sync_config: { source: "acme/up" },
  });
  expect(made.status).toBe(200);
  h.emu.clearRequests();
  const read = await h.host.read(made.body.uid, urn, {}, { __provider: provider });
  expect(h.calls()).toEqual([`GET ${REPOS}/${made.body.uid}`]);
  expect(read.inputs).toEqual(props({ parentUid: h.emu.rootUid, name: "existing", syncConfig: { source: "acme/up" } }));
  expect(read.props).not.toHaveProperty("catalogTier");
  await h.api("DELETE", `${REPOS}/${made.body.uid}`);
  // What the service adds to sync_config (read-only members) is an output of its own.
  const { kind } = h.staged.require("platform-pulumi/dist/resources/registry/repo/provider.js");
  expect(
    kind.toOutputs({ uid: "g/r", name: "r", sync_config: { source: "s", expirationTime: "2027-01-01T00:00:00Z" } }),
  ).toEqual({
    uid: "g/r",
    name: "r",
    parentUid: "g",
    syncConfig: { source: "s" },
    syncState: { expirationTime: "2027-01-01T00:00:00Z" },
  });
});

test("a syncConfig change is one PATCH whose mask names the changed member by its wire name", async () => {
  const made = await h.host.create(
    urn,
    props({ parentUid: h.emu.rootUid, name: "synced", syncConfig: { source: "a/b" } }),
  );
  h.emu.clearRequests();
  const news = props({ parentUid: h.emu.rootUid, name: "synced", syncConfig: { source: "a/c", google: "proj" } });
  expect(await h.host.diff(made.id, urn, made.props, news)).toMatchObject({ changes: "some", replaces: [] });
  const updated = await h.host.update(made.id, urn, made.props, news);
  expect(h.calls()).toEqual([`PATCH ${REPOS}/${made.id}`]);
  expect(patches()).toEqual(["sync_config.google,sync_config.source"]);
  expect(updated.syncConfig).toEqual({ source: "a/c", google: "proj" });
  expect((await h.api("GET", `${REPOS}/${made.id}`)).body.sync_config).toMatchObject({ source: "a/c", google: "proj" });
  await h.host.delete(made.id, urn, { ...made.props, allowDelete: true });
});

test("check names the failing property and sends nothing", async () => {
  const root = h.emu.rootUid;
  const failures = async (values: Record<string, unknown>) =>
    (await h.host.check(urn, {}, props({ parentUid: root, name: "app", ...values }))).failures;
  expect(await failures({ catalogTier: "CATALOG_TIER_GOLD" })).toEqual([
    {
      property: "catalogTier",
      reason: expect.stringMatching(/^must be one of CATALOG_TIER_APPLICATION, .* \(leave it out for none\)$/),
    },
  ]);
  expect(await failures({ catalogTier: "CATALOG_TIER_UNSPECIFIED" })).toHaveLength(1);
  expect(await failures({ syncConfig: { amazon: "1" } })).toEqual([
    { property: "syncConfig.source", reason: "is required" },
  ]);
  expect(await failures({ sync_config: { source: "x" } })).toEqual([
    {
      property: "sync_config",
      reason: expect.stringMatching(/^unknown property; Repo takes parentUid, name, .*syncConfig/),
    },
  ]);
  expect(await failures({ bundles: "base" })).toEqual([{ property: "bundles", reason: "must be a list" }]);
  expect(await failures({ aliases: [""] })).toEqual([{ property: "aliases[0]", reason: "must not be empty" }]);
  expect(await failures({ allowDelete: "yes" })).toEqual([
    { property: "allowDelete", reason: "must be true or false" },
  ]);
  expect(
    await failures({
      customOverlay: { accounts: { users: [{ uid: -1 }] }, certificates: { additional: [{ name: "ca" }] } },
    }),
  ).toEqual([
    { property: "customOverlay.accounts.users[0].username", reason: "is required" },
    { property: "customOverlay.accounts.users[0].uid", reason: "must be at least 0" },
    { property: "customOverlay.certificates.additional[0].content", reason: "is required" },
  ]);
  expect((await h.host.check(urn, {}, props({ parentUid: "a/../b" }))).failures).toEqual([
    { property: "parentUid", reason: expect.stringMatching(/^must be a group's uid: /) },
    { property: "name", reason: "is required" },
  ]);
  expect(h.calls()).toEqual([]);
});

test("readme: written after the create, read with the repo, updated alone, drift shown and repaired, dropped unmanaged", async () => {
  const root = h.emu.rootUid;
  const declared = { parentUid: root, name: "documented", description: "d", readme: "# documented\n\nHello.\n" };
  const created = await h.host.create(urn, props(declared));
  const readmePath = `${REPOS}/${created.id}/readme`;
  expect(h.calls()).toEqual([`POST ${REPOS}/${root}`, `PATCH ${readmePath}`]);
  expect(created.props).toMatchObject({ ...declared, uid: created.id });
  expect((await h.api("GET", readmePath)).body).toEqual({ uid: created.id, content: declared.readme });
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET ${REPOS}/${created.id}`, `GET ${readmePath}`]);
  // Writing the readme moves the repo's updateTime, which the create's answer predates.
  expect(read.props).toEqual({ ...created.props, updateTime: read.props.updateTime });
  expect(read.inputs).toEqual(props(declared));
  expect(await h.host.diff(created.id, urn, read.props, props(declared))).toMatchObject({ changes: "none" });
  h.emu.clearRequests();

  // The readme alone: its own PATCH, no PATCH of the repo.
  let program: Record<string, unknown> = { ...declared, readme: "# documented\n\nChanged.\n" };
  expect(await h.host.diff(created.id, urn, read.props, props(program))).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
  let state = await h.host.update(created.id, urn, read.props, props(program));
  expect(h.calls()).toEqual([`PATCH ${readmePath}`]);
  expect(state.readme).toBe(program.readme);
  h.emu.clearRequests();

  // With a field of the repo: the repo's PATCH (its mask without the readme), then the readme's.
  program = { ...program, description: "d2", readme: "# v3\n" };
  state = await h.host.update(created.id, urn, state, props(program));
  expect(h.calls()).toEqual([`PATCH ${REPOS}/${created.id}`, `PATCH ${readmePath}`]);
  expect(patches()).toEqual(["description", undefined]);
  expect((await h.api("GET", readmePath)).body.content).toBe("# v3\n");
  h.emu.clearRequests();

  // Drift: a readme edited in the console shows, and the update writes it back.
  await h.api("PATCH", readmePath, { content: "edited in the console" });
  h.emu.clearRequests();
  const drifted = await h.host.read(created.id, urn, state);
  expect(drifted.inputs).toEqual(props({ ...program, readme: "edited in the console" }));
  expect(await h.host.diff(created.id, urn, drifted.props, props(program))).toMatchObject({ changes: "some" });
  h.emu.clearRequests();
  state = await h.host.update(created.id, urn, drifted.props, props(program));
  expect(h.calls()).toEqual([`PATCH ${readmePath}`]);
  expect((await h.api("GET", readmePath)).body.content).toBe("# v3\n");
  h.emu.clearRequests();

  // Removed from the program: no request, no longer in the state nor read; the service keeps it.
  const { readme: _readme, ...unmanaged } = program;
  expect(await h.host.diff(created.id, urn, state, props(unmanaged))).toMatchObject({ changes: "some" });
  state = await h.host.update(created.id, urn, state, props(unmanaged));
  expect(h.calls()).toEqual([]);
  expect(state).not.toHaveProperty("readme");
  expect((await h.host.read(created.id, urn, state)).inputs).toEqual(props(unmanaged));
  expect(h.calls()).toEqual([`GET ${REPOS}/${created.id}`]);
  expect((await h.api("GET", readmePath)).body.content).toBe("# v3\n");
  h.emu.clearRequests();

  await h.host.delete(created.id, urn, { ...state, allowDelete: true });
  expect(h.calls()).toEqual([`DELETE ${REPOS}/${created.id}`]);
});

test("readme: adoption writes the declared readme; check refuses a bad one before any request", async () => {
  const root = h.emu.rootUid;
  const existing = (await h.api("POST", `${REPOS}/${root}`, { name: "adopted-docs" })).body;
  h.emu.clearRequests();
  const adopted = await h.host.create(
    urn,
    props({ parentUid: root, name: "adopted-docs", readme: "# mine\n", adopt: true }),
  );
  expect(h.calls()).toEqual([`POST ${REPOS}/${root}`, `GET ${REPOS}`, `PATCH ${REPOS}/${existing.uid}/readme`]);
  expect(adopted.props).toMatchObject({ uid: existing.uid, readme: "# mine\n", adopted: true });
  await h.api("DELETE", `${REPOS}/${existing.uid}`);
  h.emu.clearRequests();

  const failures = async (readme: unknown) =>
    (await h.host.check(urn, {}, props({ parentUid: root, name: "app", readme }))).failures;
  expect(await failures(42)).toEqual([{ property: "readme", reason: "must be a string" }]);
  expect(await failures("x".repeat(65_537))).toEqual([
    { property: "readme", reason: "must be at most 65536 characters" },
  ]);
  expect(await failures("")).toEqual([]);
  expect(h.calls()).toEqual([]);
});

test("readme: a write refused after the create fails the create naming it, and the repo is not lost", async () => {
  const root = h.emu.rootUid;
  // The service sheds the readme's PATCH with a Retry-After past the call's deadline: no repeat, no wait.
  // (A host of its own: a host applies its configuration when it first loads a provider.)
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
  const host = await startHost({ cwd: h.staged.dir, env });
  await host.configure({ "platform:apiUrl": h.emu.url, "platform:token": h.emu.token, "platform:timeout": "20" });
  h.emu.setFaults([{ path: "/readme$", methods: ["PATCH"], exhaustedRate: 1, retryAfterSeconds: 25 }]);
  try {
    const error = await failureOf(
      host.create(urn, props({ parentUid: root, name: "readme-refused", readme: "# later\n", allowDelete: true })),
    );
    expect(error.message).toMatch(
      /^writing the readme of repo "readme-refused" under .* \(.*\) failed: .*The repo itself is written and kept in the state; run `pulumi up` again to write its readme/,
    );
  } finally {
    h.emu.setFaults([]);
    await host.close();
  }
  const made = (await h.api("GET", `${REPOS}?name=readme-refused`)).body.repos;
  expect(made).toHaveLength(1);
  await h.api("DELETE", `${REPOS}/${made[0].uid}`);
});
