import { RunningEmulator, BUILTIN_ROLES } from "../../../emulator";
import { startProviderEmulator } from "../../../tools/host/providerEmulator";
import { fetchClient, listRequests } from "../../../tests/support/lookupClient";
import { getRole, getRoles } from "./lookups";
import { withClient } from "../../../core/program/lookup";

const CUSTOM = 250;
const PATH = "/iam/v2beta1/roles";
let emu: RunningEmulator;
let client: ReturnType<typeof fetchClient>;
let team: { uid: string };
let allNames: string[];

beforeAll(async () => {
  emu = await startProviderEmulator({ seed: false });
  client = fetchClient(emu);
  for (let i = 0; i < CUSTOM; i++) {
    await client.request({
      method: "POST",
      domain: "iam",
      path: `roles/${emu.rootUid}`,
      body: { name: `custom-${String(i).padStart(3, "0")}`, capabilities: ["CAP_REPO_LIST"] },
    });
  }
  team = await client.request({ method: "POST", domain: "iam", path: `groups/${emu.rootUid}`, body: { name: "team" } });
  // Role names are unique per group, not globally: the same name in root and in team.
  await client.request({ method: "POST", domain: "iam", path: `roles/${emu.rootUid}`, body: { name: "auditor" } });
  await client.request({ method: "POST", domain: "iam", path: `roles/${team.uid}`, body: { name: "auditor" } });
  allNames = [
    ...BUILTIN_ROLES.map((r) => r.name),
    ...Array.from({ length: CUSTOM }, (_, i) => `custom-${String(i).padStart(3, "0")}`),
    "auditor",
    "auditor",
  ].sort();
});
afterAll(() => emu.close());
beforeEach(() => emu.clearRequests());

test("getRoles by name ascending: every role once, ceil(N/200) requests", async () => {
  const { roles } = await getRoles({ orderBy: "name" }, withClient(client));
  expect(roles.map((r) => r.name)).toEqual(allNames);
  expect(listRequests(emu, PATH)).toHaveLength(Math.ceil(allNames.length / 200));
});

test("getRoles descending with skip", async () => {
  const { roles } = await getRoles({ orderBy: "name desc", skip: 190 }, withClient(client));
  expect(roles.map((r) => r.name)).toEqual([...allNames].reverse().slice(190));
  const requests = listRequests(emu, PATH);
  expect(requests).toHaveLength(Math.ceil((allNames.length - 190) / 200));
  expect(requests.every((r) => r.query.order_by === "name desc" && r.query.skip === "190")).toBe(true);
});

test("getRoles childrenOf a group: only the roles defined there", async () => {
  const { roles } = await getRoles({ childrenOf: team.uid }, withClient(client));
  expect(roles.map((r) => r.name)).toEqual(["auditor"]);
});

test("getRole finds the built-in viewer with one request", async () => {
  const viewer = await getRole({ name: "viewer" }, withClient(client));
  const builtin = BUILTIN_ROLES.find((r) => r.name === "viewer")!;
  expect(viewer).toMatchObject({ uid: builtin.uid, name: "viewer", description: "Viewer Role (built-in)" });
  expect(viewer.capabilities).toEqual(builtin.capabilities);
  const requests = listRequests(emu, PATH);
  expect(requests).toHaveLength(1);
  expect(requests[0].query.name).toBe("viewer");
});

test("getRole with no match is a clear error", async () => {
  await expect(getRole({ name: "janitor" }, withClient(client))).rejects.toThrow(
    /^getRole: no role matches name "janitor"; check the name and scope/,
  );
});

test("getRole with several matches lists their uids; a parent scope picks one", async () => {
  const { roles } = await getRoles({ name: "auditor" }, withClient(client));
  expect(roles).toHaveLength(2);
  const error = await getRole({ name: "auditor" }, withClient(client)).catch((e) => e);
  expect(error.message).toMatch(/^getRole: 2 roles match name "auditor" \(uids: .*\); narrow the scope/);
  for (const role of roles) expect(error.message).toContain(role.uid);
  const inTeam = await getRole({ name: "auditor", childrenOf: team.uid }, withClient(client));
  expect(roles.map((r) => r.uid)).toContain(inTeam.uid);
  expect(listRequests(emu, PATH).at(-1)?.query["uidp.children_of"]).toBe(team.uid);
});

test("getRole requires a name and names what is wrong", async () => {
  await expect(getRole({} as never, withClient(client))).rejects.toThrow(/^getRole: invalid arguments: name: /);
  await expect(getRole({ name: "viewer", limit: 1 } as never, withClient(client))).rejects.toThrow(
    'unknown field "limit"',
  );
});
