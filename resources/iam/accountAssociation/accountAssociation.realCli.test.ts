/**
 * An AccountAssociation under the REAL Pulumi CLI (its engine, the dynamic-provider host it
 * launches) against the emulator, keyed as the API documents say: its id is its group's uid. A
 * state written by earlier versions, whose id is a uid of its own below the group (put there with
 * `pulumi stack export` and `pulumi stack import`), still refreshes (the id becomes the group's),
 * updates and destroys; an id that names neither fails with what to do.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tools/host/providerEmulator";
import { ProgramProject, programProject } from "../../../tests/support/programProject";

jest.setTimeout(420_000);

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

const run = (command: string, description = "first") => project.run(command, { groupUid: group, description });
const sent = () => emu.requests().map((r) => `${r.method} ${r.path}`);
const association = () => project.resource("aws");
/** The association as up makes it, unless a test before left it so: each test runs alone too (`-t`). */
async function deployed(): Promise<void> {
  if (association()?.id === group) return;
  expect((await run("up")).code).toBe(0);
}

interface Deployment {
  deployment: { resources: Array<{ urn: string; id?: string; outputs?: Record<string, unknown> }> };
}

/**
 * Rewrites the state as an earlier version left it (`id` and the uid output), through `pulumi
 * stack export` and `pulumi stack import`.
 */
async function storeId(id: string): Promise<void> {
  const exported = await project.stack.cli(["stack", "export"]);
  expect([exported.code, exported.stderr]).toEqual([0, ""]);
  const state = JSON.parse(exported.stdout) as Deployment;
  const entry = state.deployment.resources.find((r) => r.urn.endsWith("::aws"))!;
  entry.id = id;
  entry.outputs = { ...entry.outputs, uid: id };
  const file = path.join(project.stack.programDir, "edited-state.json");
  fs.writeFileSync(file, JSON.stringify(state));
  const imported = await project.stack.cli(["stack", "import", "--file", file]);
  expect([imported.code, imported.stderr]).toEqual([0, ""]);
  expect(association()!.id).toBe(id);
}

beforeAll(async () => {
  emu = await startProviderEmulator();
  project = programProject({ name: "association", program: { source: PROGRAM }, api: emu });
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
  expect(up.outputs).toEqual({ uid: { value: group, secret: false } });
  expect((await api("GET", `${AA}/${group}`)).body).toMatchObject({ uid: group, name: "aws-production" });
  // Its destroy, of the group's uid, is the last test's.
});

test("a state whose id is an earlier version's child uid refreshes (the id becomes the group's), updates and destroys", async () => {
  await deployed();
  const legacy = `${group}/${LEGACY_SEGMENT}`;

  await storeId(legacy);
  emu.clearRequests();
  const refreshed = await run("refresh");
  expect([refreshed.code, refreshed.stderr]).toEqual([0, ""]);
  expect(sent()).toEqual([`GET ${AA}/${group}`]);
  expect(association()).toMatchObject({ id: group, outputs: { uid: group } });

  await storeId(legacy);
  emu.clearRequests();
  const updated = await run("up", "second");
  expect([updated.code, updated.stderr]).toEqual([0, ""]);
  expect(emu.requests().map((r) => [`${r.method} ${r.path}`, r.query])).toEqual([
    [`PATCH ${AA}/${group}`, { updateMask: "description" }],
  ]);
  expect((await api("GET", `${AA}/${group}`)).body.description).toBe("second");

  await storeId(legacy);
  emu.clearRequests();
  const destroyed = await run("destroy", "second");
  expect([destroyed.code, destroyed.stderr]).toEqual([0, ""]);
  expect(sent()).toEqual([`DELETE ${AA}/${group}`]);
  expect((await api("GET", `${AA}/${group}`)).status).toBe(404);
  expect(association()).toBeUndefined();
});

test("an id that is neither the group's uid nor below it fails refresh and destroy with what to do, and the record stays", async () => {
  await deployed();
  await storeId(`${emu.rootUid}/${LEGACY_SEGMENT}`);
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

  // Put back as up made it: destroy of the group's uid deletes it.
  await storeId(group);
  emu.clearRequests();
  expect((await run("destroy")).code).toBe(0);
  expect(sent()).toEqual([`DELETE ${AA}/${group}`]);
  expect((await api("GET", `${AA}/${group}`)).status).toBe(404);
  expect(association()).toBeUndefined();
});
