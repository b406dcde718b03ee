/**
 * An identity provider with SCIM provisioning under the REAL Pulumi CLI (its engine and
 * passphrase secrets, the dynamic-provider host it launches) against the emulator: the token
 * reaches the program as a Pulumi secret and is never printed; a token regenerated in the console
 * (straight to the emulator) fails `preview --refresh --expect-no-changes`, and `up --refresh`
 * regenerates it: the stack's token output is then the one the service holds (its hash, read from
 * the emulator's saved state); provisioning switched off in the console is drift of `enabled`
 * alone; destroy revokes the token before the identity provider is deleted. (A rerun and a refresh
 * keeping the token without a request: tests/realCli/secrets.test.ts.)
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BUILTIN_ROLES, RunningEmulator } from "../../../emulator";
import { readState } from "../../../emulator/persistence";
import { call } from "../../../tests/support/emulatorClient";
import { startProviderEmulator } from "../../../tools/host/providerEmulator";
import { ProgramProject, programProject } from "../../../tests/support/programProject";
import { RealCliRun } from "../../../tests/support/realCli";

jest.setTimeout(420_000);

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
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "scim-realcli-"));
  statePath = path.join(dataDir, "emulator.json");
  emu = await startProviderEmulator({ statePath });
  project = programProject({ name: "scim", program: { source: PROGRAM }, api: emu });
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

test("a secret token, never printed; regenerated in the console: preview --refresh --expect-no-changes fails, up --refresh regenerates it; destroy revokes it first", async () => {
  const runs: RealCliRun[] = [];
  const run = async (command: string) => {
    const result = await project.run(command, config());
    runs.push(result);
    return result;
  };
  const calls = () => emu.requests().map((r) => `${r.method} ${r.path}`);
  emu.clearRequests();
  const up = await run("up");
  expect(up.stderr).toBe("");
  expect(up.code).toBe(0);
  const idp = String(project.resource("scim")!.id);
  expect(calls()).toEqual([
    `POST ${IDPS}/${emu.rootUid}`,
    `POST ${IDPS}/${idp}:generateScimToken`,
    `POST ${IDPS}/${idp}:setScimEnabled`,
  ]);
  const first = String(up.outputs.token.value);
  expect(first).toMatch(/^scim_/);
  expect(up.outputs).toEqual({
    token: { value: first, secret: true },
    endpointUrl: { value: `${emu.url}/scim/v2/${idp}`, secret: false },
  });
  expect(up.stdout).toMatch(/^\s*token\s*: \[secret\]$/m);
  expect(liveTokenHash(idp)).toBe(hashOf(first));

  // Regenerated in the console: the service answers the new token to whoever did it, not to the program.
  const etag = (await api("GET", `${IDPS}/${idp}`)).scim.etag;
  const theirs = String((await api("POST", `${IDPS}/${idp}:regenerateScimToken`, { etag })).token);
  expect(liveTokenHash(idp)).toBe(hashOf(theirs));

  const check = await run("preview --refresh --expect-no-changes --diff");
  expect(check.code).toBe(7);
  expect(check.stderr).toContain("no changes were expected");
  expect(check.stdout).toMatch(/~ pulumi-nodejs:dynamic\/iam:ScimToken: \(update\)[\s\S]*tokenSuperseded/);

  emu.clearRequests();
  const repair = await run("up --refresh");
  expect(repair.code).toBe(0);
  const writes = emu.requests().filter((r) => r.method !== "GET");
  expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${IDPS}/${idp}:regenerateScimToken`]);
  const renewed = String(repair.outputs.token.value);
  expect([first, theirs]).not.toContain(renewed);
  // The program's token is the one the service holds now.
  expect(liveTokenHash(idp)).toBe(hashOf(renewed));
  expect(repair.outputs.token).toEqual({ value: renewed, secret: true });
  expect(project.resource("scim")!.outputs).not.toHaveProperty("tokenSuperseded");
  expect((await run("preview --refresh --expect-no-changes")).code).toBe(0);

  // Provisioning switched off in the console: drift of `enabled` alone; the token is kept, not regenerated.
  const now = (await api("GET", `${IDPS}/${idp}`)).scim.etag;
  await api("POST", `${IDPS}/${idp}:setScimEnabled`, { enabled: false, etag: now });
  const switched = await run("preview --refresh --expect-no-changes --diff");
  expect(switched.code).toBe(7);
  // The refresh reads the switch; the update puts back what the program declares (enabled, by default).
  expect(switched.stdout).toMatch(/ScimToken: \(refresh\)[^(]+--outputs:--\s+~ enabled\s*: true => false/);
  expect(switched.stdout).toMatch(/ScimToken: \(update\)\s+\[id=[^\]]+\]\s+\[urn=[^\]]+\]\s+- enabled\s*: false/);
  expect(switched.stdout).toMatch(/Resources:\s+~ 1 to update\s+2 unchanged/);
  expect(switched.stdout).not.toContain("tokenSuperseded");
  emu.clearRequests();
  const back = await run("up --refresh");
  expect(back.code).toBe(0);
  expect(
    emu
      .requests()
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}`),
  ).toEqual([`POST ${IDPS}/${idp}:setScimEnabled`]);
  expect(back.outputs.token.value).toBe(renewed);
  expect(liveTokenHash(idp)).toBe(hashOf(renewed));

  emu.clearRequests();
  const destroyed = await run("destroy");
  expect(destroyed.code).toBe(0);
  expect(calls()).toEqual([`POST ${IDPS}/${idp}:revokeScimToken`, `DELETE ${IDPS}/${idp}`]);
  for (const output of runs)
    for (const token of [first, theirs, renewed])
      expect(output.stdout + output.stderr + output.runnerOutput).not.toContain(token);
});
