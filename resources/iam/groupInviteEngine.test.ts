/**
 * A program that declares a GroupInvite and exports its code, run by the local engine (the SDK's
 * runtime, the REAL dynamic-provider host) against the emulator: the code reaches the program
 * as a Pulumi secret (the class asks for it with additionalSecretOutputs), is stored wrapped as
 * a secret among the stack outputs and is never printed; a rerun changes nothing and keeps it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BUILTIN_ROLES, RunningEmulator, startEmulator } from "../../emulator";
import { withoutPlatformEnv } from "../../tools/engine/orgProject";
import { runEngine } from "../../tools/engine/run";
import { repoRoot } from "../../tools/host/stage";

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

/** The wire form of a secret (the engine's state keeps stack outputs in it). */
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  dir = path.join(repoRoot, ".work", `invite-engine-${process.pid}`);
  fs.mkdirSync(path.join(dir, "program"), { recursive: true });
  fs.writeFileSync(path.join(dir, "program", "Pulumi.yaml"), "name: invite\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "program", "index.ts"), PROGRAM);
});
afterAll(async () => {
  await emu?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("the invite's code is a secret stack output, never printed; a rerun keeps it without a request", async () => {
  const run = (operation: string) =>
    runEngine(
      [
        operation,
        "--config",
        `platform:apiUrl=${emu.url}`,
        "--secret-config",
        `platform:token=${emu.token}`,
        "--config",
        `groupUid=${emu.rootUid}`,
        "--config",
        `roleUid=${BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid}`,
      ],
      { cwd: path.join(dir, "program"), state: path.join(dir, "state.json"), env: withoutPlatformEnv() },
    );
  emu.clearRequests();
  const up = await run("up");
  expect(up.stderr).toBe("");
  expect(up.code).toBe(0);
  expect(emu.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`POST /iam/v2beta1/groupInvites/${emu.rootUid}`]);
  const invite = up.state!.resources.find((r) => r.urn.endsWith("::invite"))!;
  const code = String(invite.outputs.code);
  expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  expect(up.state!.outputs).toEqual({ code: { ...SECRET, value: code }, keyId: invite.outputs.keyId });
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
