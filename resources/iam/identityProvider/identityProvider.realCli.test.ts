/**
 * An identity provider under the REAL Pulumi CLI (its engine and passphrase secrets, the
 * dynamic-provider host it launches), its program compiled to an ES module and its client secret
 * from secret config: the engine keeps `oidc` secret (encrypted in the state, never displayed), a
 * look-up held by `dependsOn` finds it after its create, a refresh shows no drift although the
 * service never answers the secret, rotating it is one PATCH naming only it, and no output of any
 * run shows it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tools/host/providerEmulator";
import { ProgramProject, programProject } from "../../../tests/support/programProject";
import { SECRET_SIGNATURE } from "../../../tests/support/realCli";
import { repoRoot } from "../../../tools/host/stage";

jest.setTimeout(300_000);

const SECRET = "program-client-secret-0123456789";
const ROTATED = "program-client-secret-rotated-9876543210";

let emu: RunningEmulator;
let project: ProgramProject;
beforeAll(async () => {
  emu = await startProviderEmulator();
  project = programProject({
    name: "identity-provider",
    program: { dir: path.join(repoRoot, "tests", "programs", "identity-provider") },
    api: emu,
    secretConfig: { ssoClientSecret: SECRET },
    esm: true,
  });
});
afterAll(async () => {
  await emu?.close();
  project?.remove();
});

const writes = () =>
  emu
    .requests()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path}${r.query.updateMask ? ` ${String(r.query.updateMask)}` : ""}`);

test("up, refresh without drift, a rotated secret, destroy: the secret is encrypted in the state and never shown", async () => {
  // The secret is set with the stack; a run that passes another sets it anew, as a rotation does.
  const run = (command: string, secret?: string) =>
    project.run(command, { rootUid: emu.rootUid }, secret ? { secretConfig: { ssoClientSecret: secret } } : {});
  emu.clearRequests();
  const up = await run("up");
  expect(up.stderr).toBe("");
  expect(up.code).toBe(0);
  expect(path.basename(project.stack.entry)).toBe("index.mjs");
  const sso = project.resource("sso")!;
  expect(writes()).toEqual([`POST /iam/v2beta1/identityProviders/${emu.rootUid}`]);
  expect(sso.outputs!.oidc).toMatchObject({ ...SECRET_SIGNATURE, ciphertext: expect.any(String) });
  expect(up.outputs.ssoOidc).toMatchObject({ value: { clientSecret: SECRET }, secret: true });
  // The program's look-up by name ran after the create it depends on (dependsOn), and found it.
  expect(up.outputs.ssoFoundUid.value).toBe(sso.id);
  expect((await fetchJson(`/iam/v2beta1/identityProviders/${sso.id}`)).oidc).toEqual({
    issuer: "https://login.example.com",
    clientId: "platform",
  });

  // Nothing the service answers tells the secret: the refresh keeps it from the state, no drift.
  const clean = await run("preview --refresh --expect-no-changes --diff");
  expect(clean.stderr).toBe("");
  expect(clean.code).toBe(0);

  emu.clearRequests();
  const rotated = await run("up --diff", ROTATED);
  expect(rotated.code).toBe(0);
  expect(writes()).toEqual([`PATCH /iam/v2beta1/identityProviders/${sso.id} oidc.clientSecret`]);
  expect(rotated.stdout).toContain("[secret]");
  const checkpoint = fs.readFileSync(project.stack.checkpointFile, "utf8");

  emu.clearRequests();
  const destroy = await run("destroy");
  expect(destroy.code).toBe(0);
  expect(writes()).toEqual([`DELETE /iam/v2beta1/identityProviders/${sso.id}`]);

  for (const text of [up, clean, rotated, destroy].flatMap((r) => [r.stdout, r.stderr, r.runnerOutput]))
    for (const secret of [SECRET, ROTATED]) expect(text).not.toContain(secret);
  for (const secret of [SECRET, ROTATED]) expect(checkpoint).not.toContain(secret);
});

async function fetchJson(p: string): Promise<any> {
  const response = await fetch(`${emu.url}${p}`, { headers: { authorization: `Bearer ${emu.token}` } });
  return response.json();
}
