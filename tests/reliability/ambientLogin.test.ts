/**
 * CI log-in without token files, under the REAL Pulumi CLI (its engine, the dynamic-provider host
 * it launches) and the emulator: a GitHub Actions job (a local fake of its OIDC token endpoint
 * issuing tokens the emulator trusts) and a GitLab-style literal token in `platform:identityToken`.
 * Neither token reaches the output or the state.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import { AddressInfo } from "node:net";
import * as path from "node:path";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import { ProgramProject, programProject } from "../support/programProject";
import { call } from "../../tools/orgApi";
import { repoRoot } from "../../tools/host/stage";

jest.setTimeout(300_000);

const program = { dir: path.join(repoRoot, "tests", "reliability", "programs", "one-group") };
const SUBJECT = "repo:acme/infra:ref:refs/heads/main";
const REQUEST_TOKEN = "actions-request-token-for-ambient-login-test";

let emu: RunningEmulator;
/** One stack serves both ways in: each test names its own group, and only the second sets a token. */
let project: ProgramProject | undefined;
let identityUid: string;
let actions: http.Server;
let actionsUrl: string;
const minted: string[] = [];

beforeAll(async () => {
  emu = await startProviderEmulator();
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
  project?.remove();
});

/**
 * The one-group program's stack, logging in as the identity with no static token unless
 * `secretConfig` sets one (from this run on); its group is named `name`.
 */
function stackOf(name: string, secretConfig?: Record<string, string>) {
  project ??= programProject({ name: "one-group", program, api: { url: emu.url } });
  const config = { "platform:identity": identityUid, parentUid: emu.rootUid, name };
  const stack = project;
  let first = true;
  return {
    project: stack,
    run: (command: string, env: Record<string, string> = {}) => {
      const once = first ? { secretConfig } : {};
      first = false;
      return stack.run(command, config, { env, ...once });
    },
  };
}
const stateOf = (project: ProgramProject) => fs.readFileSync(project.stack.checkpointFile, "utf8");

test("GitHub Actions: up and destroy log in with the job's own OIDC token, no file, no stored token", async () => {
  const env = { ACTIONS_ID_TOKEN_REQUEST_URL: actionsUrl, ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN };
  const stack = stackOf("from-github-actions");
  emu.clearRequests();
  const up = await stack.run("up", env);
  expect(up.stdout + up.stderr).not.toMatch(/error/i);
  expect(up.code).toBe(0);
  expect(stack.project.resources()).toHaveLength(1);
  expect(minted.length).toBeGreaterThan(0);
  expect(emu.requests().some((r) => r.path === "/sts/exchange" && r.status === 200)).toBe(true);
  const state = stateOf(stack.project);
  const destroy = await stack.run("destroy", env);
  expect(destroy.code).toBe(0);
  expect(stack.project.resources()).toEqual([]);
  for (const text of [up.stdout, up.stderr, up.runnerOutput, destroy.stdout, destroy.stderr, state]) {
    for (const token of [...minted, REQUEST_TOKEN]) expect(text).not.toContain(token);
    expect(text).not.toMatch(/emu_[A-Za-z0-9_-]{20,}/);
  }
});

test("a literal token in platform:identityToken (GitLab and others): up and destroy", async () => {
  const token = await emu.mintOidcToken({ subject: SUBJECT, audience: emu.url });
  const stack = stackOf("from-literal-token", { "platform:identityToken": token });
  const up = await stack.run("up");
  expect(up.code).toBe(0);
  expect(stack.project.resources()).toHaveLength(1);
  const state = stateOf(stack.project);
  const config = fs.readFileSync(path.join(stack.project.stack.programDir, "Pulumi.dev.yaml"), "utf8");
  const destroy = await stack.run("destroy");
  expect(destroy.code).toBe(0);
  expect(stack.project.resources()).toEqual([]);
  for (const text of [up.stdout, up.stderr, up.runnerOutput, destroy.stdout, destroy.stderr, state, config])
    expect(text).not.toContain(token);
});
