/**
 * Issue 6, points 5 and 7, through the engine, the real provider host and the emulator:
 * - a pipeline that assumes an identity bound as viewer on one team cannot change another
 *   team: the run fails with PERMISSION_DENIED naming the resource, and nothing changes;
 * - no static token, OIDC token or exchanged token appears in the serialized provider, the
 *   state file, the outputs, error messages or anything printed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../support/providerEmulator";
import { call, snapshot } from "../../tools/orgApi";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { runEngine } from "../../tools/engine/run";
import { repoRoot } from "../../tools/host/stage";

jest.setTimeout(120_000);

const program = path.join(repoRoot, "tests", "reliability", "programs", "one-group");
// What the emulator's exchanged tokens look like; none may surface anywhere.
const EXCHANGED_TOKEN = /emu_[A-Za-z0-9_-]{20,}/;

let emu: RunningEmulator;
let dir: string;
let teamA: string;
let teamB: string;
let viewerOnA: { uid: string; tokenFile: string; oidcToken: string };

beforeAll(async () => {
  emu = await startProviderEmulator();
  dir = path.join(repoRoot, ".work", `access-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
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
  fs.rmSync(dir, { recursive: true, force: true });
});

function withoutLastSeen(org: Awaited<ReturnType<typeof snapshot>>) {
  return { ...org, identities: org.identities.map(({ lastSeenTime: _seen, ...rest }) => rest) };
}

function run(operation: string[], label: string, config: string[]) {
  return runEngine([...operation, "--config", `platform:apiUrl=${emu.url}`, ...config], {
    cwd: program,
    state: path.join(dir, `${label}.json`),
    env: withoutPlatformEnv(),
  });
}
const asIdentity = (uid: string, tokenFile: string) => [
  "--config",
  `platform:identity=${uid}`,
  "--config",
  `platform:identityTokenFile=${tokenFile}`,
];

test("a viewer on one team cannot change another team: PERMISSION_DENIED naming the resource, nothing changed", async () => {
  const api = { url: emu.url, token: emu.token };
  const before = await snapshot(api, emu.rootUid);
  emu.clearRequests();
  const up = await run(["up"], "viewer", [
    ...asIdentity(viewerOnA.uid, viewerOnA.tokenFile),
    "--config",
    `parentUid=${teamB}`,
  ]);
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

test("no token of any kind reaches the provider text, state, outputs, messages or logs", async () => {
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

  const runs = [
    await run(["up"], "secrets-identity", [...asIdentity(identity.uid, tokenFile), "--config", `parentUid=${teamA}`]),
    await run(["up"], "secrets-identity", [
      ...asIdentity(identity.uid, tokenFile),
      "--config",
      `parentUid=${teamA}`,
      "--config",
      "description=changed",
    ]),
    await run(["refresh"], "secrets-identity", [
      ...asIdentity(identity.uid, tokenFile),
      "--config",
      `parentUid=${teamA}`,
    ]),
    // A failure's message must not carry the token either.
    await run(["up"], "secrets-static", [
      "--secret-config",
      `platform:token=${emu.token}`,
      "--config",
      "parentUid=no-such-group",
      "--config",
      "name=x",
    ]),
    await run(["up"], "secrets-static-ok", [
      "--secret-config",
      `platform:token=${emu.token}`,
      "--config",
      `parentUid=${teamB}`,
    ]),
  ];
  expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 255, 0]);
  expect(runs[3].stdout + runs[3].stderr).toMatch(
    /creating group "x" under "no-such-group" failed: (NOT_FOUND|PERMISSION_DENIED)/,
  );

  const secrets = [emu.token, oidcToken, viewerOnA.oidcToken];
  const texts = runs.flatMap((r) => [r.stdout, r.stderr, JSON.stringify(r.state ?? {})]);
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".json")))
    texts.push(fs.readFileSync(path.join(dir, file), "utf8"));
  for (const text of texts) {
    for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    expect(text).not.toMatch(EXCHANGED_TOKEN);
  }
  const providers = runs
    .flatMap((r) => (r.state?.resources ?? []).map((res) => String(res.outputs.__provider ?? "")))
    .filter(Boolean);
  expect(providers.length).toBeGreaterThan(0);
  for (const text of providers) {
    expect(text).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/group\/provider(\.js)?"\)/);
    expect(text).not.toContain(repoRoot);
    expect(text).not.toContain(emu.url);
    expect(text).not.toContain(tokenFile);
  }
});
