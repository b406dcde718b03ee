/**
 * CI log-in without token files, through the local engine, the real provider host and the
 * emulator: a GitHub Actions job (a local fake of its OIDC token endpoint issuing tokens the
 * emulator trusts) and a GitLab-style literal token in `platform:identityToken`. Neither token
 * reaches the output or the state.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import { AddressInfo } from "node:net";
import * as path from "node:path";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../support/providerEmulator";
import { call } from "../../tools/orgApi";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { runEngine } from "../../tools/engine/run";
import { repoRoot } from "../../tools/host/stage";

jest.setTimeout(120_000);

const program = path.join(repoRoot, "tests", "reliability", "programs", "one-group");
const SUBJECT = "repo:acme/infra:ref:refs/heads/main";
const REQUEST_TOKEN = "actions-request-token-for-engine-test";

let emu: RunningEmulator;
let dir: string;
let identityUid: string;
let actions: http.Server;
let actionsUrl: string;
const minted: string[] = [];

beforeAll(async () => {
  emu = await startProviderEmulator();
  dir = path.join(repoRoot, ".work", `ambient-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const api = { url: emu.url, token: emu.token };
  identityUid = (
    await call(api, "POST", `/iam/v2beta1/identities/${emu.rootUid}`, {
      name: "ci-deployer",
      claimMatch: { issuer: emu.issuer, subject: SUBJECT, audience: emu.url },
    })
  ).uid;
  const owner = (await call(api, "GET", "/iam/v2beta1/roles?name=owner")).roles[0];
  await call(api, "POST", `/iam/v2beta1/roleBindings/${emu.rootUid}`, { identityUid, roleUid: owner.uid });
  actions = http.createServer((req, res) => {
    const audience = new URL(String(req.url), "http://x").searchParams.get("audience") ?? "";
    if (req.headers.authorization !== `bearer ${REQUEST_TOKEN}`) {
      res.writeHead(403).end();
      return;
    }
    void emu.mintOidcToken({ subject: SUBJECT, audience }).then((value) => {
      minted.push(value);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ value }));
    });
  });
  await new Promise<void>((resolve) => actions.listen(0, "127.0.0.1", resolve));
  actionsUrl = `http://127.0.0.1:${(actions.address() as AddressInfo).port}/_apis/token?api-version=2.0`;
});
afterAll(async () => {
  await new Promise((resolve) => actions?.close(resolve));
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function run(operation: string, stack: string, config: string[], env: NodeJS.ProcessEnv = {}) {
  return runEngine(
    [
      operation,
      "--config",
      `platform:apiUrl=${emu.url}`,
      "--config",
      `platform:identity=${identityUid}`,
      "--config",
      `parentUid=${emu.rootUid}`,
      "--config",
      `name=${stack}`,
      ...config,
    ],
    { cwd: program, state: path.join(dir, `${stack}.json`), env: { ...withoutPlatformEnv(), ...env } },
  );
}

test("GitHub Actions: up and destroy log in with the job's own OIDC token, no file, no stored token", async () => {
  const env = { ACTIONS_ID_TOKEN_REQUEST_URL: actionsUrl, ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN };
  emu.clearRequests();
  const up = await run("up", "from-github-actions", [], env);
  expect(up.stdout + up.stderr).not.toMatch(/error/i);
  expect(up.code).toBe(0);
  expect(minted.length).toBeGreaterThan(0);
  expect(emu.requests().some((r) => r.path === "/sts/exchange" && r.status === 200)).toBe(true);
  const destroy = await run("destroy", "from-github-actions", [], env);
  expect(destroy.code).toBe(0);
  for (const text of [up.stdout, up.stderr, destroy.stdout, destroy.stderr, JSON.stringify(up.state)]) {
    for (const token of [...minted, REQUEST_TOKEN]) expect(text).not.toContain(token);
    expect(text).not.toMatch(/emu_[A-Za-z0-9_-]{20,}/);
  }
});

test("a literal token in platform:identityToken (GitLab and others): up and destroy", async () => {
  const token = await emu.mintOidcToken({ subject: SUBJECT, audience: emu.url });
  const secret = ["--secret-config", `platform:identityToken=${token}`];
  const up = await run("up", "from-literal-token", secret);
  expect(up.code).toBe(0);
  const destroy = await run("destroy", "from-literal-token", secret);
  expect(destroy.code).toBe(0);
  for (const text of [up.stdout, up.stderr, destroy.stdout, destroy.stderr, JSON.stringify(up.state)])
    expect(text).not.toContain(token);
});
