/**
 * A program that declares an identity provider with SCIM provisioning and exports its token, run
 * by the local engine (the SDK's runtime, the REAL dynamic-provider host) against the emulator:
 * the token reaches the program as a Pulumi secret, is stored wrapped as a secret among the stack
 * outputs and is never printed; a rerun and a refresh keep it; destroy revokes it before the
 * identity provider is deleted.
 */
import { BUILTIN_ROLES, RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tests/support/providerEmulator";
import { makeSecret } from "../../tools/engine/wire";
import { ProgramProject, programProject } from "../../tests/support/programProject";

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
beforeAll(async () => {
  emu = await startProviderEmulator();
  project = programProject({ name: "scim", source: PROGRAM, api: emu });
});
afterAll(async () => {
  await emu?.close();
  project?.remove();
});

test("the SCIM token is a secret stack output, never printed; rerun and refresh keep it; destroy revokes it first", async () => {
  const run = (operation: string) =>
    project.run(operation, {
      groupUid: emu.rootUid,
      roleUid: BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid,
    });
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
