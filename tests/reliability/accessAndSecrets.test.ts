/**
 * Issue 6, points 5 and 7, under the REAL Pulumi CLI (its engine, file backend and passphrase
 * secrets, the dynamic-provider host it launches) and the emulator:
 * - a pipeline that assumes an identity bound as viewer on one team cannot change another
 *   team: the run fails with PERMISSION_DENIED naming the resource, and nothing changes;
 * - no static token, OIDC token or exchanged token appears in the serialized provider, the
 *   state, the stack's config file, the outputs, error messages or anything printed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import { ProgramProject, programProject } from "../support/programProject";
import { RealCliRun } from "../support/realCli";
import { call, snapshot } from "../../tools/orgApi";
import { repoRoot } from "../../tools/host/stage";

jest.setTimeout(420_000);

const program = { dir: path.join(repoRoot, "tests", "reliability", "programs", "one-group") };
// What the emulator's exchanged tokens look like; none may surface anywhere.
const EXCHANGED_TOKEN = /emu_[A-Za-z0-9_-]{20,}/;

let emu: RunningEmulator;
let dir: string;
let teamA: string;
let teamB: string;
let viewerOnA: { uid: string; tokenFile: string; oidcToken: string };
const projects: ProgramProject[] = [];

beforeAll(async () => {
  emu = await startProviderEmulator();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-access-"));
  const api = { url: emu.url, token: emu.token };
  teamA = (await call(api, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, { name: "team-a" })).uid;
  teamB = (await call(api, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, { name: "team-b" })).uid;
  const identity = await call(api, "POST", `/iam/v2beta1/identities/${teamA}`, {
    name: "pipeline",
    claimMatch: { issuer: emu.issuer, subject: "repo:acme/a:ref:refs/heads/main" },
  });
  const viewer = (await call(api, "GET", "/iam/v2beta1/roles?name=viewer")).roles[0];
  await call(api, "POST", `/iam/v2beta1/roleBindings/${teamA}`, { identityUid: identity.uid, roleUid: viewer.uid });
  const oidcToken = await emu.mintOidcToken({ subject: "repo:acme/a:ref:refs/heads/main", audience: emu.url });
  const tokenFile = path.join(dir, "oidc-token");
  fs.writeFileSync(tokenFile, oidcToken);
  viewerOnA = { uid: identity.uid, tokenFile, oidcToken };
});
afterAll(async () => {
  await emu?.close();
  for (const project of projects) project.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

function withoutLastSeen(org: Awaited<ReturnType<typeof snapshot>>) {
  return { ...org, identities: org.identities.map(({ lastSeenTime: _seen, ...rest }) => rest) };
}

/**
 * A stack of the one-group program. `token` is the static API token as secret config, or none:
 * the program then logs in with the identity its config names.
 */
function stackOf(token?: string): ProgramProject {
  const project = programProject({ name: "one-group", program, api: { url: emu.url, token } });
  projects.push(project);
  return project;
}
const asIdentity = (uid: string, tokenFile: string) => ({
  "platform:identity": uid,
  "platform:identityTokenFile": tokenFile,
});

test("a viewer on one team cannot change another team: PERMISSION_DENIED naming the resource, nothing changed", async () => {
  const api = { url: emu.url, token: emu.token };
  const before = await snapshot(api, emu.rootUid);
  emu.clearRequests();
  const up = await stackOf().run("up", { ...asIdentity(viewerOnA.uid, viewerOnA.tokenFile), parentUid: teamB });
  expect(up.code).not.toBe(0);
  const printed = up.stdout + up.stderr;
  expect(printed).toMatch(/team-group/);
  expect(printed).toMatch(/PERMISSION_DENIED/);
  expect(printed).toMatch(/role binding/);
  expect(printed).not.toMatch(/\n\s+at .*\.js:\d+/); // no stack trace
  // The exchange stamps the identity's lastSeenTime; that is the service's bookkeeping, not a change.
  expect(withoutLastSeen(await snapshot(api, emu.rootUid))).toEqual(withoutLastSeen(before));
  const writes = emu.requests().filter((r) => r.method !== "GET" && r.path !== "/sts/exchange" && r.status < 300);
  expect(writes).toHaveLength(0);
});

test("no token of any kind reaches the provider text, state, config, outputs, messages or logs", async () => {
  // An owner identity, so the run gets as far as creating and updating.
  const api = { url: emu.url, token: emu.token };
  const owner = (await call(api, "GET", "/iam/v2beta1/roles?name=owner")).roles[0];
  const identity = await call(api, "POST", `/iam/v2beta1/identities/${emu.rootUid}`, {
    name: "deployer",
    claimMatch: { issuer: emu.issuer, subject: "deployer" },
  });
  await call(api, "POST", `/iam/v2beta1/roleBindings/${emu.rootUid}`, {
    identityUid: identity.uid,
    roleUid: owner.uid,
  });
  const oidcToken = await emu.mintOidcToken({ subject: "deployer", audience: emu.url });
  const tokenFile = path.join(dir, "deployer-token");
  fs.writeFileSync(tokenFile, oidcToken);

  const assumed = stackOf();
  const loggedIn = { ...asIdentity(identity.uid, tokenFile), parentUid: teamA };
  const withStaticToken = stackOf(emu.token);
  const runs: RealCliRun[] = [
    await assumed.run("up", loggedIn),
    await assumed.run("up", { ...loggedIn, description: "changed" }),
    await assumed.run("refresh"),
    // A failure's message must not carry the token either.
    await withStaticToken.run("up", { parentUid: "no-such-group", name: "x" }),
  ];
  const afterFailure = fs.readFileSync(withStaticToken.stack.checkpointFile, "utf8");
  runs.push(await withStaticToken.run("up", { parentUid: teamB, name: "made-by-pipeline" }));
  expect(runs.map((r) => r.code === 0)).toEqual([true, true, true, false, true]);
  expect(runs[3].stdout + runs[3].stderr).toMatch(
    /creating group "x" under "no-such-group" failed: (NOT_FOUND|PERMISSION_DENIED)/,
  );

  const secrets = [emu.token, oidcToken, viewerOnA.oidcToken];
  const texts = runs.flatMap((r) => [r.stdout, r.stderr, r.runnerOutput, JSON.stringify(r.outputs)]);
  texts.push(afterFailure);
  for (const project of [assumed, withStaticToken]) {
    texts.push(fs.readFileSync(project.stack.checkpointFile, "utf8"));
    texts.push(fs.readFileSync(path.join(project.stack.programDir, "Pulumi.dev.yaml"), "utf8"));
  }
  for (const text of texts) {
    for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    expect(text).not.toMatch(EXCHANGED_TOKEN);
  }
  const providers = [assumed, withStaticToken].flatMap((project) =>
    project.resources().map((r) => r.outputs!.__provider as string),
  );
  expect(providers).toHaveLength(2);
  for (const text of providers) {
    expect(text).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/group\/provider(\.js)?"\)/);
    expect(text).not.toContain(repoRoot);
    expect(text).not.toContain(emu.url);
    expect(text).not.toContain(tokenFile);
  }
});
