/**
 * An identity provider through the local engine (the program on the SDK's runtime, every
 * operation through the real dynamic-provider host), with its client secret from secret config:
 * the engine keeps `oidc` secret (never displayed), a refresh shows no drift although the
 * service never answers the secret, rotating it is one PATCH naming only it, and no output of
 * any run shows it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RunningEmulator } from "../../../emulator";
import { startProviderEmulator } from "../../../tests/support/providerEmulator";
import { withoutPlatformEnv } from "../../../tools/orgProject";
import { runEngine } from "../../../tools/engine/run";
import { repoRoot } from "../../../tools/host/stage";

jest.setTimeout(180_000);

const SECRET = "engine-client-secret-0123456789";
const ROTATED = "engine-client-secret-rotated-9876543210";

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startProviderEmulator();
  dir = path.join(repoRoot, ".work", `identity-provider-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
});
afterAll(async () => {
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (operation: string[], secret: string, esm = false) =>
  runEngine(
    [
      ...operation,
      ...(esm ? ["--esm"] : []),
      "--config",
      `platform:apiUrl=${emu.url}`,
      "--secret-config",
      `platform:token=${emu.token}`,
      "--config",
      `rootUid=${emu.rootUid}`,
      "--secret-config",
      `identity-provider:ssoClientSecret=${secret}`,
    ],
    {
      cwd: path.join(repoRoot, "tests", "programs", "identity-provider"),
      state: path.join(dir, "state.json"),
      env: withoutPlatformEnv(),
    },
  );

const writes = () =>
  emu
    .requests()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path}${r.query.updateMask ? ` ${String(r.query.updateMask)}` : ""}`);

test("up, refresh without drift, a rotated secret, destroy: the secret is never shown", async () => {
  emu.clearRequests();
  const up = await run(["up"], SECRET);
  expect(up.stdout).not.toContain("error:");
  expect(up.code).toBe(0);
  const sso = up.state!.resources.find((r) => r.urn.endsWith("::sso"))!;
  expect(writes()).toEqual([`POST /iam/v2beta1/identityProviders/${emu.rootUid}`]);
  expect(sso.secretProperties).toEqual(expect.arrayContaining(["oidc"]));
  // The program's look-up by name ran after the create it depends on (dependsOn), and found it.
  expect(up.state!.outputs.ssoFoundUid).toBe(sso.id);
  expect((await fetchJson(`/iam/v2beta1/identityProviders/${sso.id}`)).oidc).toEqual({
    issuer: "https://login.example.com",
    clientId: "platform",
  });

  // Nothing the service answers tells the secret: the refresh keeps it from the state, no drift.
  const clean = await run(["preview", "--refresh", "--expect-no-changes"], SECRET, true);
  expect(clean.stdout).not.toContain("error:");
  expect(clean.code).toBe(0);

  emu.clearRequests();
  const rotated = await run(["up"], ROTATED);
  expect(rotated.code).toBe(0);
  expect(writes()).toEqual([`PATCH /iam/v2beta1/identityProviders/${sso.id} oidc.clientSecret`]);
  expect(rotated.stdout).toContain("[secret]");

  emu.clearRequests();
  const destroy = await run(["destroy"], ROTATED);
  expect(destroy.code).toBe(0);
  expect(writes()).toEqual([`DELETE /iam/v2beta1/identityProviders/${sso.id}`]);

  for (const output of [up, clean, rotated, destroy]) {
    expect(output.stdout + output.stderr).not.toContain(SECRET);
    expect(output.stdout + output.stderr).not.toContain(ROTATED);
  }
});

async function fetchJson(p: string): Promise<any> {
  const response = await fetch(`${emu.url}${p}`, { headers: { authorization: `Bearer ${emu.token}` } });
  return response.json();
}
