import { RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tools/host/providerEmulator";
import { fetchClient, listRequests } from "../../../tests/support/lookupClient";
import { getGroup, getGroups } from "./lookups";
import { withClient } from "../../../core/program/lookup";

const GROUPS = 450;
let emu: RunningEmulator;
let client: ReturnType<typeof fetchClient>;
let groupNames: string[];

beforeAll(async () => {
  emu = await startProviderEmulator({ seed: false, bulk: { groups: GROUPS } });
  client = fetchClient(emu);
  groupNames = Array.from({ length: GROUPS }, (_, i) => `bulk-group-${i}`).sort();
  // A group made by a request, beside the bulk ones.
  await client.request({ method: "POST", domain: "iam", path: `groups/${emu.rootUid}`, body: { name: "robots" } });
});
afterAll(() => emu.close());
beforeEach(() => emu.clearRequests());

describe("getGroups", () => {
  test("children of the root by name, ascending and descending, ceil(N/200) requests each", async () => {
    const all = [...groupNames, "robots"].sort();
    const { groups: up } = await getGroups({ childrenOf: emu.rootUid, orderBy: "name" }, withClient(client));
    expect(up.map((g) => g.name)).toEqual(all);
    const { groups: down } = await getGroups({ childrenOf: emu.rootUid, orderBy: "name desc" }, withClient(client));
    expect(down.map((g) => g.name)).toEqual([...all].reverse());
    expect(listRequests(emu, "/iam/v2beta1/groups")).toHaveLength(2 * Math.ceil(all.length / 200));
  });

  test("skip and limit", async () => {
    const all = [...groupNames, "robots"].sort();
    const { groups } = await getGroups(
      { childrenOf: emu.rootUid, orderBy: "name", skip: 100, limit: 220 },
      withClient(client),
    );
    expect(groups.map((g) => g.name)).toEqual(all.slice(100, 320));
    expect(listRequests(emu, "/iam/v2beta1/groups").map((r) => [r.query.skip, r.query.page_size])).toEqual([
      ["100", "200"],
      ["100", "20"],
    ]);
  });
});

describe("getGroup", () => {
  test("by uid is one Get; by name within a parent is one List", async () => {
    const byName = await getGroup({ name: "bulk-group-9", childrenOf: emu.rootUid }, withClient(client));
    const byUid = await getGroup({ uid: byName.uid }, withClient(client));
    expect(byUid).toEqual(byName);
    expect(byUid).toMatchObject({ name: "bulk-group-9", verified: false, resourceLimits: {} });
    expect(emu.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /iam/v2beta1/groups",
      `GET /iam/v2beta1/groups/${byName.uid}`,
    ]);
  });

  test("a uid that does not exist is an error naming the look-up", async () => {
    await expect(getGroup({ uid: `${emu.rootUid}/nothere` }, withClient(client))).rejects.toThrow(/^getGroup: /);
  });

  test("no group of that name is a clear error", async () => {
    await expect(getGroup({ name: "ghost", descendantsOf: emu.rootUid }, withClient(client))).rejects.toThrow(
      `getGroup: no group matches name "ghost" below "${emu.rootUid}"`,
    );
  });
});
