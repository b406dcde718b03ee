import { RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tools/host/providerEmulator";
import { fetchClient, listRequests } from "../../../tests/support/lookupClient";
import { getIdentities, getIdentity } from "./lookups";
import { withClient } from "../../../core/program/lookup";

const IDENTITIES = 230;
let emu: RunningEmulator;
let client: ReturnType<typeof fetchClient>;
let identityNames: string[];

beforeAll(async () => {
  emu = await startProviderEmulator({ seed: false });
  client = fetchClient(emu);
  const home = await client.request<{ uid: string }>({
    method: "POST",
    domain: "iam",
    path: `groups/${emu.rootUid}`,
    body: { name: "robots" },
  });
  identityNames = [];
  for (let i = 0; i < IDENTITIES; i++) {
    const name = `robot-${String((i * 7) % IDENTITIES).padStart(3, "0")}`;
    identityNames.push(name);
    await client.request({
      method: "POST",
      domain: "iam",
      path: `identities/${home.uid}`,
      body: { name, claimMatch: { issuer: "https://ci.example.com", subject: name } },
    });
  }
  identityNames.sort();
});
afterAll(() => emu.close());
beforeEach(() => emu.clearRequests());

describe("getIdentities", () => {
  test(`${IDENTITIES + 1} identities descending by name with skip, and ascending`, async () => {
    const all = [...identityNames, "dev-owner"].sort();
    const { identities: down } = await getIdentities(
      { descendantsOf: emu.rootUid, orderBy: "name desc", skip: 10 },
      withClient(client),
    );
    expect(down.map((i) => i.name)).toEqual([...all].reverse().slice(10));
    const { identities: up } = await getIdentities({ descendantsOf: emu.rootUid, orderBy: "name" }, withClient(client));
    expect(up.map((i) => i.name)).toEqual(all);
    expect(up.find((i) => i.name === "robot-005")?.claimMatch).toEqual({
      issuer: "https://ci.example.com",
      subject: "robot-005",
    });
    expect(listRequests(emu, "/iam/v2beta1/identities")).toHaveLength(
      Math.ceil((all.length - 10) / 200) + Math.ceil(all.length / 200),
    );
  });

  test("exact name", async () => {
    const { identities } = await getIdentities({ name: "robot-042" }, withClient(client));
    expect(identities.map((i) => i.name)).toEqual(["robot-042"]);
  });
});

describe("getIdentity", () => {
  test("by name is one List, by uid one Get; none is an error naming the look-up", async () => {
    const byName = await getIdentity({ name: "robot-042", descendantsOf: emu.rootUid }, withClient(client));
    expect(await getIdentity({ uid: byName.uid }, withClient(client))).toEqual(byName);
    expect(byName.claimMatch).toEqual({ issuer: "https://ci.example.com", subject: "robot-042" });
    expect(emu.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /iam/v2beta1/identities",
      `GET /iam/v2beta1/identities/${byName.uid}`,
    ]);
    await expect(getIdentity({ name: "ghost" }, withClient(client))).rejects.toThrow(
      'getIdentity: no identity matches name "ghost"',
    );
  });
});
