/**
 * A program that declares a GroupInvite and exports its code, run by the local engine (the SDK's
 * runtime, the REAL dynamic-provider host) against the emulator: the code reaches the program
 * as a Pulumi secret (the class asks for it with additionalSecretOutputs), is stored wrapped as
 * a secret among the stack outputs and is never printed; a rerun changes nothing and keeps it.
 */
import { BUILTIN_ROLES, RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tests/support/providerEmulator";
import { makeSecret } from "../../../tools/engine/wire";
import { ProgramProject, programProject } from "../../../tests/support/programProject";

jest.setTimeout(120_000);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
const invite = new platform.iam.GroupInvite("invite", {
  groupUid: config.require("groupUid"),
  roleUid: config.require("roleUid"),
  ttl: "86400s",
  singleUse: true,
});
export const code = invite.code;
export const keyId = invite.keyId;
`;

let emu: RunningEmulator;
let project: ProgramProject;
beforeAll(async () => {
  emu = await startProviderEmulator();
  project = programProject({ name: "invite", source: PROGRAM, api: emu });
});
afterAll(async () => {
  await emu?.close();
  project?.remove();
});

test("the invite's code is a secret stack output, never printed; a rerun keeps it without a request", async () => {
  const run = (operation: string) =>
    project.run(operation, {
      groupUid: emu.rootUid,
      roleUid: BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid,
    });
  emu.clearRequests();
  const up = await run("up");
  expect(up.stderr).toBe("");
  expect(up.code).toBe(0);
  expect(emu.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`POST /iam/v2beta1/groupInvites/${emu.rootUid}`]);
  const invite = up.state!.resources.find((r) => r.urn.endsWith("::invite"))!;
  const code = String(invite.outputs.code);
  expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  expect(up.state!.outputs).toEqual({ code: makeSecret(code), keyId: invite.outputs.keyId });
  expect(up.stdout).not.toContain(code);
  expect(up.stdout).toMatch(/^\s*code: \[secret\]$/m);

  emu.clearRequests();
  const again = await run("up");
  expect(again.code).toBe(0);
  expect(emu.requests().filter((r) => r.method !== "GET")).toEqual([]);
  expect(again.state!.outputs).toEqual(up.state!.outputs);
  expect(again.stdout + again.stderr).not.toContain(code);

  const refreshed = await run("refresh");
  expect(refreshed.code).toBe(0);
  expect(refreshed.state!.resources.find((r) => r.urn.endsWith("::invite"))!.outputs.code).toBe(code);
  expect(refreshed.stdout + refreshed.stderr).not.toContain(code);

  const destroyed = await run("destroy");
  expect(destroyed.code).toBe(0);
  expect(
    (
      await fetch(`${emu.url}/iam/v2beta1/groupInvites/${invite.id}`, {
        headers: { authorization: `Bearer ${emu.token}` },
      })
    ).status,
  ).toBe(404);
});
