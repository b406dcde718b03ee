import { RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tools/host/providerEmulator";
import { fetchClient, listRequests } from "../../../tests/support/lookupClient";
import { getRepo, getRepos } from "./lookups";
import { withClient } from "../../../core/program/lookup";

const REPOS = 450;
const PATH = "/registry/v2beta1/repos";
let emu: RunningEmulator;
let client: ReturnType<typeof fetchClient>;
let allNames: string[];

beforeAll(async () => {
  emu = await startProviderEmulator({ seed: false, bulk: { repos: REPOS } });
  client = fetchClient(emu);
  allNames = Array.from({ length: REPOS }, (_, i) => `bulk-repo-${i}`).sort();
});
afterAll(() => emu.close());
beforeEach(() => emu.clearRequests());

test(`ascending by name: all ${REPOS} repos in ceil(${REPOS}/200) = 3 requests`, async () => {
  const { repos } = await getRepos({ descendantsOf: emu.rootUid, orderBy: "name" }, withClient(client));
  expect(repos.map((r) => r.name)).toEqual(allNames);
  const requests = listRequests(emu, PATH);
  expect(requests).toHaveLength(Math.ceil(REPOS / 200));
  expect(
    requests.every(
      (r) =>
        r.query.page_size === "200" && r.query.order_by === "name" && r.query["uidp.descendants_of"] === emu.rootUid,
    ),
  ).toBe(true);
});

test("descending by name with skip: the same set reversed, skipped ones left out, 2 requests", async () => {
  const { repos } = await getRepos({ descendantsOf: emu.rootUid, orderBy: "name desc", skip: 130 }, withClient(client));
  expect(repos.map((r) => r.name)).toEqual([...allNames].reverse().slice(130));
  const requests = listRequests(emu, PATH);
  expect(requests).toHaveLength(Math.ceil((REPOS - 130) / 200));
  expect(requests.map((r) => r.query.skip)).toEqual(["130", "130"]);
});

test("created_at desc orders by creation time, newest first", async () => {
  const { repos } = await getRepos({ orderBy: "created_at desc" }, withClient(client));
  const times = repos.map((r) => Date.parse(String(r.createTime)));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  expect(repos[0].name).toBe(`bulk-repo-${REPOS - 1}`);
});

test("limit stops early: 250 repos cost 2 requests, the second asking for 50", async () => {
  const { repos } = await getRepos({ orderBy: "name", limit: 250 }, withClient(client));
  expect(repos.map((r) => r.name)).toEqual(allNames.slice(0, 250));
  expect(listRequests(emu, PATH).map((r) => r.query.page_size)).toEqual(["200", "50"]);
});

test("ids restricts to those uids", async () => {
  const { repos: some } = await getRepos({ orderBy: "name", limit: 3 }, withClient(client));
  const { repos } = await getRepos({ ids: some.map((r) => r.uid) }, withClient(client));
  expect(repos.map((r) => r.uid).sort()).toEqual(some.map((r) => r.uid).sort());
});

describe("getRepo", () => {
  test("by uid is one Get", async () => {
    const { repos } = await getRepos({ name: "bulk-repo-7" }, withClient(client));
    emu.clearRequests();
    const repo = await getRepo({ uid: repos[0].uid }, withClient(client));
    expect(repo).toMatchObject({ uid: repos[0].uid, name: "bulk-repo-7" });
    expect(emu.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${PATH}/${repos[0].uid}`]);
  });

  test("by name within a parent", async () => {
    const repo = await getRepo({ name: "bulk-repo-42", childrenOf: emu.rootUid }, withClient(client));
    expect(repo.name).toBe("bulk-repo-42");
    expect(listRequests(emu, PATH)[0].query).toMatchObject({ name: "bulk-repo-42", "uidp.children_of": emu.rootUid });
  });

  test("no match and several matches are clear errors; several lists the uids", async () => {
    await expect(getRepo({ name: "nope" }, withClient(client))).rejects.toThrow('getRepo: no repo matches name "nope"');
    const team = await client.request<{ uid: string }>({
      method: "POST",
      domain: "iam",
      path: `groups/${emu.rootUid}`,
      body: { name: "team" },
    });
    const twin = await client.request<{ uid: string }>({
      method: "POST",
      domain: "registry",
      path: `repos/${team.uid}`,
      body: { name: "bulk-repo-1" },
    });
    const { repos } = await getRepos({ name: "bulk-repo-1" }, withClient(client));
    expect(repos).toHaveLength(2);
    const error = await getRepo({ name: "bulk-repo-1" }, withClient(client)).catch((e) => e);
    expect(error.message).toMatch(/^getRepo: 2 repos match name "bulk-repo-1"/);
    for (const r of repos) expect(error.message).toContain(r.uid);
    await expect(getRepo({ name: "bulk-repo-1", childrenOf: team.uid }, withClient(client))).resolves.toMatchObject({
      uid: twin.uid,
    });
  });

  test("arguments are validated before any request, naming the argument", async () => {
    await expect(getRepo({ uid: "x", name: "y" }, withClient(client))).rejects.toThrow(
      "getRepo: invalid arguments: name: cannot be combined with uid",
    );
    await expect(getRepo({}, withClient(client))).rejects.toThrow(
      /getRepo: invalid arguments: name: give uid, or name/,
    );
    await expect(getRepos({ limit: 0 }, withClient(client))).rejects.toThrow(/getRepos: invalid arguments: limit: /);
    await expect(getRepos({ orderBy: "name; drop" }, withClient(client))).rejects.toThrow(
      /orderBy: must be a field name/,
    );
    await expect(getRepos({ descendentsOf: "x" } as never, withClient(client))).rejects.toThrow(
      'getRepos: invalid arguments: unknown field "descendentsOf"',
    );
    expect(emu.requests()).toHaveLength(0);
  });
});
