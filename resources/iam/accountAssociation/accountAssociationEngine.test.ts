/**
 * An AccountAssociation through the local engine (the SDK's runtime, the REAL dynamic-provider
 * host) against the emulator, keyed as the API documents say: its id is its group's uid. A state
 * written by earlier versions, whose id is a uid of its own below the group, still refreshes (the
 * id becomes the group's), updates and destroys; an id that names neither fails with what to do.
 */
import { RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tests/support/providerEmulator";
import { ProgramProject, programProject } from "../../../tests/support/programProject";
import { readState, saveState } from "../../../tools/engine/state";

jest.setTimeout(120_000);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const association = new platform.iam.AccountAssociation("aws", {
  groupUid: config.require("groupUid"),
  name: "aws-production",
  description: config.require("description"),
  amazon: { account: "123456789012" },
});
export const uid = association.uid;
`;

const AA = "/iam/v2beta1/accountAssociations";
/** The id an earlier version stored: a uid of the association's own below its group. */
const LEGACY_SEGMENT = "0123456789abcdef";

let emu: RunningEmulator;
let project: ProgramProject;
let group: string;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const run = (operation: string, description = "first") => project.run(operation, { groupUid: group, description });
const sent = () => emu.requests().map((r) => `${r.method} ${r.path}`);

/** The association's entry in the engine's state. */
function association() {
  return readState(project.stateFile)!.resources.find((r) => r.urn.endsWith("::aws"))!;
}

/** Rewrites the state as an earlier version left it: `id` (and the uid output) set to `id`. */
function storeId(id: string): void {
  const state = readState(project.stateFile)!;
  const entry = state.resources.find((r) => r.urn.endsWith("::aws"))!;
  entry.id = id;
  entry.outputs = { ...entry.outputs, uid: id };
  saveState(project.stateFile, state);
}

beforeAll(async () => {
  emu = await startProviderEmulator();
  project = programProject({ name: "association", source: PROGRAM, api: emu });
  group = (await api("POST", `/iam/v2beta1/groups/${emu.rootUid}`, { name: "associated" })).body.uid;
});
afterAll(async () => {
  await emu?.close();
  project?.remove();
});

test("up creates the group's association: its id is the group's uid, and a GET of that uid finds it", async () => {
  emu.clearRequests();
  const up = await run("up");
  expect([up.code, up.stderr]).toEqual([0, ""]);
  expect(sent()).toEqual([`POST ${AA}/${group}`]);
  expect(association()).toMatchObject({ id: group, outputs: { uid: group, groupUid: group } });
  expect(up.state!.outputs).toEqual({ uid: group });
  expect((await api("GET", `${AA}/${group}`)).body).toMatchObject({ uid: group, name: "aws-production" });

  const destroyed = await run("destroy");
  expect(destroyed.code).toBe(0);
  expect((await api("GET", `${AA}/${group}`)).status).toBe(404);
});

test("a state whose id is an earlier version's child uid refreshes (the id becomes the group's), updates and destroys", async () => {
  expect((await run("up")).code).toBe(0);
  const legacy = `${group}/${LEGACY_SEGMENT}`;

  storeId(legacy);
  emu.clearRequests();
  const refreshed = await run("refresh");
  expect([refreshed.code, refreshed.stderr]).toEqual([0, ""]);
  expect(sent()).toEqual([`GET ${AA}/${group}`]);
  expect(association()).toMatchObject({ id: group, outputs: { uid: group } });

  storeId(legacy);
  emu.clearRequests();
  const updated = await run("up", "second");
  expect([updated.code, updated.stderr]).toEqual([0, ""]);
  expect(emu.requests().map((r) => [`${r.method} ${r.path}`, r.query])).toEqual([
    [`PATCH ${AA}/${group}`, { updateMask: "description" }],
  ]);
  expect((await api("GET", `${AA}/${group}`)).body.description).toBe("second");

  storeId(legacy);
  emu.clearRequests();
  const destroyed = await run("destroy", "second");
  expect([destroyed.code, destroyed.stderr]).toEqual([0, ""]);
  expect(sent()).toEqual([`DELETE ${AA}/${group}`]);
  expect((await api("GET", `${AA}/${group}`)).status).toBe(404);
  expect(readState(project.stateFile)!.resources.filter((r) => r.urn.endsWith("::aws"))).toEqual([]);
});

test("an id that is neither the group's uid nor below it fails refresh and destroy with what to do, and the record stays", async () => {
  expect((await run("up")).code).toBe(0);
  storeId(`${emu.rootUid}/${LEGACY_SEGMENT}`);
  emu.clearRequests();
  const refreshed = await run("refresh");
  expect(refreshed.code).not.toBe(0);
  expect(refreshed.stdout + refreshed.stderr).toMatch(
    /its id is not its groupUid .*pulumi state delete <urn>.* take the record over again with `adopt: true`/,
  );
  const destroyed = await run("destroy");
  expect(destroyed.code).not.toBe(0);
  expect(destroyed.stdout + destroyed.stderr).toMatch(/pulumi state delete <urn>/);
  expect(sent()).toEqual([]);
  expect((await api("GET", `${AA}/${group}`)).body).toMatchObject({ uid: group, name: "aws-production" });

  storeId(group);
  expect((await run("destroy")).code).toBe(0);
  expect((await api("GET", `${AA}/${group}`)).status).toBe(404);
});
