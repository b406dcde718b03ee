import { RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tools/host/providerEmulator";
import { fetchClient, listRequests } from "../../../tests/support/lookupClient";
import { getRepos } from "../repo/lookups";
import { getTags } from "./lookups";
import { withClient } from "../../../core/program/lookup";

const TAGS = 650;
const PATH = "/registry/v2beta1/tags";
let emu: RunningEmulator;
let client: ReturnType<typeof fetchClient>;
let repoUid: string;
let allNames: string[];

beforeAll(async () => {
  // Two repos so that scoping to one of them matters.
  emu = await startProviderEmulator({ seed: false, bulk: { repos: 2, tagsPerRepo: TAGS } });
  client = fetchClient(emu);
  repoUid = (await getRepos({ name: "bulk-repo-0" }, withClient(client))).repos[0].uid;
  allNames = Array.from({ length: TAGS }, (_, t) => `v${t}`).sort();
});
afterAll(() => emu.close());
beforeEach(() => emu.clearRequests());

test(`one repo's ${TAGS} tags by name, ascending, in ceil(${TAGS}/200) = 4 requests`, async () => {
  const { tags } = await getTags({ repoUid, orderBy: "name" }, withClient(client));
  expect(tags.map((t) => t.name)).toEqual(allNames);
  expect(tags.every((t) => t.uid.startsWith(`${repoUid}/`) && /^sha256:[0-9a-f]{64}$/.test(String(t.digest)))).toBe(
    true,
  );
  const requests = listRequests(emu, PATH);
  expect(requests).toHaveLength(Math.ceil(TAGS / 200));
  expect(requests.every((r) => r.query["uidp.children_of"] === repoUid && r.query.page_size === "200")).toBe(true);
});

test("descending with skip", async () => {
  const { tags } = await getTags({ repoUid, orderBy: "name desc", skip: 25 }, withClient(client));
  expect(tags.map((t) => t.name)).toEqual([...allNames].reverse().slice(25));
  expect(listRequests(emu, PATH)).toHaveLength(Math.ceil((TAGS - 25) / 200));
});

test("across repos (descendantsOf the org) all tags come back once", async () => {
  const { tags } = await getTags({ descendantsOf: emu.rootUid }, withClient(client));
  expect(new Set(tags.map((t) => t.uid)).size).toBe(2 * TAGS);
  expect(listRequests(emu, PATH)).toHaveLength(Math.ceil((2 * TAGS) / 200));
});

test("name, digest and updatedSince filters go out under their wire names", async () => {
  const { tags: byName } = await getTags({ repoUid, name: "v17" }, withClient(client));
  expect(byName).toHaveLength(1);
  const { tags: byDigest } = await getTags({ digest: byName[0].digest }, withClient(client));
  expect(byDigest.map((t) => t.uid)).toEqual([byName[0].uid]);
  const future = new Date(Date.parse(String(byName[0].updateTime)) + 60_000);
  const { tags: none } = await getTags({ repoUid, updatedSince: future }, withClient(client));
  expect(none).toEqual([]);
  const { tags: since } = await getTags(
    { repoUid, updatedSince: String(byName[0].updateTime), limit: 5 },
    withClient(client),
  );
  expect(since).toHaveLength(5);
  const queries = listRequests(emu, PATH).map((r) => r.query);
  expect(queries[1].digest).toBe(byName[0].digest);
  expect(queries[2].updated_since).toBe(future.toISOString());
});

test("bad arguments name the argument, before any request", async () => {
  await expect(getTags({ digest: "md5:abc" }, withClient(client))).rejects.toThrow(
    "getTags: invalid arguments: digest: must be sha256:",
  );
  await expect(getTags({ updatedSince: "yesterday" }, withClient(client))).rejects.toThrow(/updatedSince: /);
  await expect(getTags({ childrenOf: repoUid } as never, withClient(client))).rejects.toThrow(
    'unknown field "childrenOf"',
  );
  expect(emu.requests()).toHaveLength(0);
});
