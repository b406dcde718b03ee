/**
 * Secrets under the REAL Pulumi CLI (its engine, file backend and passphrase secrets provider):
 * the API token (secret config), an invite's code and a SCIM token (answered once by the
 * service), and an identity provider's client secret (secret config, write-only) appear in no
 * output of any command, and only encrypted in `pulumi stack export`. A server that echoes the
 * token in its errors gets it redacted. The program is tests/programs/secrets.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { repoRoot } from "../../tools/host/stage";
import { RealCliRun, realCliStack, RealCliStack, SECRET_SIGNATURE } from "../support/realCli";
import { recordingServer } from "../support/recordingServer";

jest.setTimeout(300_000);

const PROJECT = "secrets";
const CLIENT_SECRET = "real-cli-client-secret-4c1d9e7a2b";
const ROTATED = "real-cli-client-secret-rotated-8f2e6b0c9d";
const IDPS = "/iam/v2beta1/identityProviders";

const encrypted = { ...SECRET_SIGNATURE, ciphertext: expect.any(String) };
/** Everything a command printed: the CLI's stdout and stderr and the runner's own output. */
const printed = (run: RealCliRun) => run.stdout + run.stderr + run.runnerOutput;

interface ExportedResource {
  urn: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

let emu: RunningEmulator;
const stacks: RealCliStack[] = [];
beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
});
afterAll(async () => {
  await emu?.close();
  for (const stack of stacks) stack.remove();
});

test("the API token, an invite's code, a client secret and a SCIM token appear in no output, and only encrypted in pulumi stack export", async () => {
  const stack = realCliStack({
    programDir: path.join(repoRoot, "tests", "programs", "secrets"),
    project: PROJECT,
    label: "secrets",
    config: { "platform:apiUrl": emu.url, [`${PROJECT}:groupUid`]: emu.rootUid },
    secretConfig: { "platform:token": emu.token, [`${PROJECT}:ssoClientSecret`]: CLIENT_SECRET },
  });
  stacks.push(stack);
  const runs: RealCliRun[] = [];
  const run = async (...args: Parameters<RealCliStack["run"]>) => {
    const result = await stack.run(...args);
    runs.push(result);
    return result;
  };
  const writes = () =>
    emu
      .requests()
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}${r.query.updateMask ? ` ${String(r.query.updateMask)}` : ""}`);

  expect((await run("preview", { diff: true })).code).toBe(0);
  emu.clearRequests();
  const up = await run("up", { diff: true });
  expect(up.stderr).toBe("");
  expect(up.code).toBe(0);
  // The service answers the invite's code and the SCIM token once; the program sees them as secrets.
  const { inviteCode, scimToken, ssoOidc } = up.outputs;
  expect(inviteCode).toEqual({ value: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/), secret: true });
  expect(scimToken).toEqual({ value: expect.stringMatching(/^scim_/), secret: true });
  expect(ssoOidc).toMatchObject({ value: { clientSecret: CLIENT_SECRET }, secret: true });
  for (const name of ["inviteCode", "scimToken", "ssoOidc"])
    expect(up.stdout).toMatch(new RegExp(`${name}\\s*: \\[secret\\]`));
  const idp = String(up.outputs.scimEndpoint.value).split("/scim/v2/")[1];
  // The invite and the identity provider are created side by side, then the token.
  expect(writes()).toEqual(
    expect.arrayContaining([
      `POST /iam/v2beta1/groupInvites/${emu.rootUid}`,
      `POST ${IDPS}/${emu.rootUid}`,
      `POST ${IDPS}/${idp}:generateScimToken`,
      `POST ${IDPS}/${idp}:setScimEnabled`,
    ]),
  );
  expect(writes()).toHaveLength(4);

  // A refresh and a rerun keep every secret without a write; the service never answers the client secret.
  emu.clearRequests();
  expect((await run("refresh")).code).toBe(0);
  const rerun = await run("up");
  expect(rerun.code).toBe(0);
  expect(writes()).toEqual([]);
  // The refresh kept the invite's code and the SCIM token, which the service never answers again.
  expect(rerun.outputs.inviteCode).toEqual(inviteCode);
  expect(rerun.outputs.scimToken).toEqual(scimToken);

  // Rotating the client secret: the update's diff names the secret, never its old or new value.
  emu.clearRequests();
  const rotated = await run("up", { diff: true, secretConfig: { [`${PROJECT}:ssoClientSecret`]: ROTATED } });
  expect(rotated.code).toBe(0);
  expect(rotated.stdout).toMatch(/~ pulumi-nodejs:dynamic\/iam:IdentityProvider: \(update\)/);
  expect(rotated.stdout).toContain("[secret]");
  expect(writes()).toEqual([`PATCH ${IDPS}/${idp} oidc.clientSecret`]);

  // `pulumi stack export`: each secret an encrypted value, none in plain text anywhere in it.
  const exported = await run("export");
  expect(exported.code).toBe(0);
  const deployment = exported.deployment as { deployment: { resources: ExportedResource[] } };
  const text = JSON.stringify(deployment);
  const resource = (name: string) => deployment.deployment.resources.find((r) => r.urn.endsWith(`::${name}`))!;
  expect(resource("invite").outputs!.code).toEqual(encrypted);
  expect(resource("scim").outputs!.token).toEqual(encrypted);
  expect(resource("sso").inputs!.oidc).toEqual(encrypted);
  expect(resource("sso").outputs!.oidc).toEqual(encrypted);
  const stackOutputs = resource(`${PROJECT}-dev`).outputs!;
  for (const name of ["inviteCode", "scimToken", "ssoOidc"]) expect(stackOutputs[name]).toEqual(encrypted);

  // The state and the stack's config file as they hold every secret, before the destroy.
  const files = [stack.checkpointFile, path.join(stack.programDir, "Pulumi.dev.yaml")].map((f) =>
    fs.readFileSync(f, "utf8"),
  );

  emu.clearRequests();
  const destroy = await run("destroy");
  expect(destroy.code).toBe(0);
  // The token is revoked before its identity provider is deleted.
  const deletes = writes();
  const [revoke, deleteIdp] = [`POST ${IDPS}/${idp}:revokeScimToken`, `DELETE ${IDPS}/${idp}`];
  const deleteInvite = `DELETE /iam/v2beta1/groupInvites/${String(resource("invite").id)}`;
  expect([...deletes].sort()).toEqual([revoke, deleteIdp, deleteInvite].sort());
  expect(deletes.indexOf(revoke)).toBeLessThan(deletes.indexOf(deleteIdp));

  const secrets = [emu.token, CLIENT_SECRET, ROTATED, String(inviteCode.value), String(scimToken.value)];
  for (const secret of secrets) {
    expect(text).not.toContain(secret);
    for (const file of files) expect(file).not.toContain(secret);
    for (const result of runs) expect(printed(result)).not.toContain(secret);
  }
  expect(runs).toHaveLength(7);
});

test("a server that echoes the API token in its errors: the token is redacted from every output and the state", async () => {
  const echo = await recordingServer((req, res) => {
    const auth = String(req.headers.authorization ?? "");
    res.writeHead(403, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 7, message: `Permission denied for ${auth} (token ${auth.slice(7)})` }));
  });
  try {
    const stack = realCliStack({
      programDir: path.join(repoRoot, "tests", "reliability", "programs", "one-group"),
      project: "one-group",
      label: "echo",
      config: { "platform:apiUrl": echo.url, "one-group:parentUid": emu.rootUid },
      secretConfig: { "platform:token": emu.token },
    });
    stacks.push(stack);
    const up = await stack.run("up");
    expect(up.code).not.toBe(0);
    expect(up.stdout + up.stderr).toMatch(
      /PERMISSION_DENIED: Permission denied for Bearer \[redacted\] \(token \[redacted\]\)/,
    );
    expect(echo.hits).toEqual([`POST /iam/v2beta1/groups/${emu.rootUid}`]);
    expect(printed(up)).not.toContain(emu.token);
    expect(fs.readFileSync(stack.checkpointFile, "utf8")).not.toContain(emu.token);
  } finally {
    await new Promise((resolve) => echo.server.close(resolve));
  }
});
