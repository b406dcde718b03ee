/**
 * A program that declares an identity provider with SCIM provisioning and exports its token, run
 * by the local engine (the SDK's runtime, the REAL dynamic-provider host) against the emulator:
 * the token reaches the program as a Pulumi secret, is stored wrapped as a secret among the stack
 * outputs and is never printed; a rerun and a refresh keep it; destroy revokes it before the
 * identity provider is deleted. A token regenerated in the console (straight to the emulator)
 * fails `preview --refresh --expect-no-changes`, and `up --refresh` regenerates it: the stack's
 * token output is then the one the service holds (its hash, read from the emulator's saved state).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BUILTIN_ROLES, RunningEmulator } from "../../../emulator";
import { readState } from "../../../emulator/persistence";
import { call } from "../../../tests/support/emulatorClient";
import { startProviderEmulator } from "../../../tests/support/providerEmulator";
import { makeSecret } from "../../../tools/engine/wire";
import { ProgramProject, programProject } from "../../../tests/support/programProject";

jest.setTimeout(120_000);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const sso = new platform.iam.IdentityProvider("sso", {
  parentUid: config.require("groupUid"),
  name: "sso",
  defaultRole: config.require("roleUid"),
});
const scim = new platform.iam.ScimToken("scim", { identityProviderUid: sso.uid, neverExpires: true });
export const token = scim.token;
export const endpointUrl = scim.endpointUrl;
`;

let emu: RunningEmulator;
let project: ProgramProject;
let dataDir: string;
let statePath: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "scim-engine-"));
  statePath = path.join(dataDir, "emulator.json");
  emu = await startProviderEmulator({ statePath });
  project = programProject({ name: "scim", source: PROGRAM, api: emu });
});
afterAll(async () => {
  await emu?.close();
  project?.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const config = () => ({
  groupUid: emu.rootUid,
  roleUid: BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid,
});
const IDPS = "/iam/v2beta1/identityProviders";

/** One call straight to the emulator, as the console would make it. */
async function api(method: string, p: string, body?: unknown): Promise<any> {
  const reply = await call(emu, method, p, { body });
  expect(reply.status).toBe(200);
  return reply.body;
}

/** The hash of the token the service holds for the identity provider, from its saved state. */
function liveTokenHash(idp: string): string {
  const record = readState(statePath)!.records.identityProviders!.find((r) => r.uid === idp)!;
  return String((record.data.scim as { tokenHash: string }).tokenHash);
}
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

test("the SCIM token is a secret stack output, never printed; rerun and refresh keep it; destroy revokes it first", async () => {
  const run = (operation: string) => project.run(operation, config());
  const calls = () => emu.requests().map((r) => `${r.method} ${r.path}`);
  const IDPS = "/iam/v2beta1/identityProviders";
  emu.clearRequests();
  const up = await run("up");
  expect(up.stderr).toBe("");
  expect(up.code).toBe(0);
  const resource = up.state!.resources.find((r) => r.urn.endsWith("::scim"))!;
  const idp = String(resource.id);
  expect(calls()).toEqual([
    `POST ${IDPS}/${emu.rootUid}`,
    `POST ${IDPS}/${idp}:generateScimToken`,
    `POST ${IDPS}/${idp}:setScimEnabled`,
  ]);
  const token = String(resource.outputs.token);
  expect(token).toMatch(/^scim_/);
  expect(up.state!.outputs).toEqual({ token: makeSecret(token), endpointUrl: `${emu.url}/scim/v2/${idp}` });
  expect(up.stdout).not.toContain(token);
  expect(up.stdout).toMatch(/^\s*token: \[secret\]$/m);

  emu.clearRequests();
  const again = await run("up");
  expect(again.code).toBe(0);
  expect(emu.requests().filter((r) => r.method !== "GET")).toEqual([]);
  expect(again.state!.outputs).toEqual(up.state!.outputs);
  expect(again.stdout + again.stderr).not.toContain(token);

  const refreshed = await run("refresh");
  expect(refreshed.code).toBe(0);
  expect(refreshed.state!.resources.find((r) => r.urn.endsWith("::scim"))!.outputs.token).toBe(token);
  expect(refreshed.stdout + refreshed.stderr).not.toContain(token);

  emu.clearRequests();
  const destroyed = await run("destroy");
  expect(destroyed.code).toBe(0);
  expect(calls()).toEqual([`POST ${IDPS}/${idp}:revokeScimToken`, `DELETE ${IDPS}/${idp}`]);
  expect(destroyed.stdout + destroyed.stderr).not.toContain(token);
});

test("a token regenerated in the console: preview --refresh --expect-no-changes fails, up --refresh regenerates it", async () => {
  const drift = programProject({ name: "scim-drift", source: PROGRAM, api: emu });
  try {
    const run = (...operation: string[]) => drift.run(operation, config());
    const up = await run("up");
    expect(up.code).toBe(0);
    const scimOf = (state: typeof up.state) => state!.resources.find((r) => r.urn.endsWith("::scim"))!;
    const idp = String(scimOf(up.state).id);
    const first = String(scimOf(up.state).outputs.token);
    expect(liveTokenHash(idp)).toBe(hashOf(first));

    // Regenerated in the console: the service answers the new token to whoever did it, not to the program.
    const etag = (await api("GET", `${IDPS}/${idp}`)).scim.etag;
    const theirs = String((await api("POST", `${IDPS}/${idp}:regenerateScimToken`, { etag })).token);
    expect(liveTokenHash(idp)).toBe(hashOf(theirs));

    const check = await run("preview", "--refresh", "--expect-no-changes");
    expect(check.code).not.toBe(0);
    expect(check.stdout).toContain("no changes were expected");
    expect(check.stdout).toMatch(/~ pulumi-nodejs:dynamic\/iam:ScimToken "scim": [^\n]*tokenSuperseded/);

    emu.clearRequests();
    const repair = await run("up", "--refresh");
    expect(repair.code).toBe(0);
    const writes = emu.requests().filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${IDPS}/${idp}:regenerateScimToken`]);
    const renewed = String(scimOf(repair.state).outputs.token);
    expect([first, theirs]).not.toContain(renewed);
    // The program's token is the one the service holds now.
    expect(liveTokenHash(idp)).toBe(hashOf(renewed));
    expect(repair.state!.outputs.token).toEqual(makeSecret(renewed));
    expect(scimOf(repair.state).outputs).not.toHaveProperty("tokenSuperseded");
    expect((await run("preview", "--refresh", "--expect-no-changes")).code).toBe(0);

    // Provisioning switched off in the console: drift of `enabled` alone; the token is kept, not regenerated.
    const now = (await api("GET", `${IDPS}/${idp}`)).scim.etag;
    await api("POST", `${IDPS}/${idp}:setScimEnabled`, { enabled: false, etag: now });
    const switched = await run("preview", "--refresh", "--expect-no-changes");
    expect(switched.code).not.toBe(0);
    expect(switched.stdout).toMatch(/~ pulumi-nodejs:dynamic\/iam:ScimToken "scim": [^\n]*enabled/);
    expect(switched.stdout).not.toContain("tokenSuperseded");
    emu.clearRequests();
    const back = await run("up", "--refresh");
    expect(back.code).toBe(0);
    expect(
      emu
        .requests()
        .filter((r) => r.method !== "GET")
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([`POST ${IDPS}/${idp}:setScimEnabled`]);
    expect(scimOf(back.state).outputs.token).toBe(renewed);
    expect(liveTokenHash(idp)).toBe(hashOf(renewed));

    const destroyed = await run("destroy");
    expect(destroyed.code).toBe(0);
    for (const output of [up, check, repair, switched, back, destroyed])
      for (const token of [first, theirs, renewed]) expect(output.stdout + output.stderr).not.toContain(token);
  } finally {
    drift.remove();
  }
  // Eight engine runs: on a loaded machine each can take 15 s or more.
}, 360_000);
