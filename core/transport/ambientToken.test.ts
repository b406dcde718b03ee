/**
 * CI credentials without files: the job's OIDC token fetched from a local fake of GitHub
 * Actions' token endpoint (issuing tokens the emulator trusts), fetched again at each renewal;
 * a literal token from PLATFORM_IDENTITY_TOKEN; and the order of the sources.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import { fakeClock, seededRandom } from "../../tests/support/fakeClock";
import { createClient } from "./client";
import { SettingsError } from "../common/errors";
import { Settings, resolveSettings } from "./settings";

const SUBJECT = "repo:acme/infra:ref:refs/heads/main";
const REQUEST_TOKEN = "actions-request-token-0123456789";

let emu: RunningEmulator;
let identityUid: string;
let actions: http.Server;
let actionsUrl: string;
let fetches: Array<{ audience: string | null; authorization: string | undefined; query: string }>;

beforeAll(async () => {
  emu = await startProviderEmulator();
  const headers = { authorization: `Bearer ${emu.token}`, "content-type": "application/json" };
  // The identity only accepts tokens for the API's audience, so the audience asked for matters.
  const identity = (await fetch(`${emu.url}/iam/v2beta1/identities/${emu.rootUid}`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: "github-deploy",
      claimMatch: { issuer: emu.issuer, subject: SUBJECT, audience: emu.url },
    }),
  }).then((r) => r.json())) as { uid: string };
  identityUid = identity.uid;
  const owner = (await fetch(`${emu.url}/iam/v2beta1/roles?name=owner`, { headers }).then((r) => r.json())) as {
    roles: { uid: string }[];
  };
  await fetch(`${emu.url}/iam/v2beta1/roleBindings/${emu.rootUid}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ identityUid, roleUid: owner.roles[0].uid }),
  });
  // A fake of GitHub's endpoint: checks the request token, mints a token for the audience asked.
  actions = http.createServer((req, res) => {
    const url = new URL(String(req.url), "http://x");
    fetches.push({
      audience: url.searchParams.get("audience"),
      authorization: req.headers.authorization,
      query: url.search,
    });
    if (req.headers.authorization !== `bearer ${REQUEST_TOKEN}`) {
      res.writeHead(403, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable" }));
      return;
    }
    void emu
      .mintOidcToken({ subject: SUBJECT, audience: url.searchParams.get("audience") ?? "", expiresInSeconds: 300 })
      .then((value) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ count: 1, value }));
      });
  });
  await new Promise<void>((resolve) => actions.listen(0, "127.0.0.1", resolve));
  actionsUrl = `http://127.0.0.1:${(actions.address() as AddressInfo).port}/_apis/token?api-version=2.0`;
});
afterAll(async () => {
  await new Promise((resolve) => actions.close(resolve));
  await emu.close();
});
beforeEach(() => {
  fetches = [];
  emu.clearRequests();
});

const base = (): Settings => ({ apiUrl: emu.url, authUrl: emu.url, apiVersion: "v2beta1", identity: identityUid });

test("GitHub Actions: the job's token is fetched for the API's audience, exchanged, and fetched again at renewal", async () => {
  const clock = fakeClock();
  const client = createClient(
    { ...base(), githubActions: { requestUrl: actionsUrl, requestToken: REQUEST_TOKEN } },
    { clock, random: seededRandom(9) },
  );
  try {
    await Promise.all(
      Array.from({ length: 5 }, () => client.request({ method: "GET", domain: "iam", path: `groups/${emu.rootUid}` })),
    );
    expect(fetches).toEqual([
      {
        audience: emu.url,
        authorization: `bearer ${REQUEST_TOKEN}`,
        query: `?api-version=2.0&audience=${encodeURIComponent(emu.url)}`,
      },
    ]);
    expect(emu.requests().filter((r) => r.path === "/sts/exchange")).toHaveLength(1);
    // An hour later the exchanged token is renewed, with a freshly fetched job token.
    clock.advance(60 * 60 * 1000);
    emu.advanceClock(60 * 60 * 1000);
    await client.request({ method: "GET", domain: "iam", path: `groups/${emu.rootUid}` });
    expect(fetches).toHaveLength(2);
    expect(emu.requests().filter((r) => r.path === "/sts/exchange")).toHaveLength(2);
    expect(emu.requests().filter((r) => r.status === 401)).toHaveLength(0);
  } finally {
    await client.close();
  }
});

test("GitHub Actions without id-token permission: a clear error, no exchange", async () => {
  const client = createClient(
    { ...base(), githubActions: { requestUrl: actionsUrl, requestToken: "wrong-request-token-123" } },
    { clock: fakeClock(), random: seededRandom(9) },
  );
  const error = await client.request({ method: "GET", domain: "iam", path: "roles" }).catch((e: unknown) => e);
  await client.close();
  expect(error).toBeInstanceOf(SettingsError);
  expect((error as Error).message).toBe(
    "fetching the GitHub Actions OIDC token failed (HTTP 403): does the job have `permissions: id-token: write`?",
  );
  expect(fetches).toHaveLength(1);
  expect(emu.requests()).toHaveLength(0);
});

test("a literal token (GitLab and others) is exchanged the same way", async () => {
  const token = await emu.mintOidcToken({ subject: SUBJECT, audience: emu.url });
  const client = createClient({ ...base(), identityToken: token }, { clock: fakeClock(), random: seededRandom(9) });
  const group = await client.request<{ uid: string }>({ method: "GET", domain: "iam", path: `groups/${emu.rootUid}` });
  await client.close();
  expect(group.uid).toBe(emu.rootUid);
  expect(emu.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
    "GET /sts/exchange",
    `GET /iam/v2beta1/groups/${emu.rootUid}`,
  ]);
});

describe("the order of sources", () => {
  const saved = { ...process.env };
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-ambient-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  afterEach(() => {
    process.env = { ...saved };
  });
  const env = (vars: Record<string, string>) => {
    for (const key of Object.keys(process.env))
      if (key.startsWith("PLATFORM_") || key.startsWith("ACTIONS_ID_TOKEN_")) delete process.env[key];
    Object.assign(process.env, { PLATFORM_API_URL: "https://api.example.com", ...vars });
  };
  const actionsEnv = {
    ACTIONS_ID_TOKEN_REQUEST_URL: "https://token.actions.example/x?api-version=2.0",
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN,
  };

  test("a literal token wins over a file, a file over GitHub Actions; the identity over a static token", () => {
    env({
      PLATFORM_IDENTITY: "acme/ci",
      PLATFORM_IDENTITY_TOKEN: "literal.jwt.token",
      PLATFORM_IDENTITY_TOKEN_FILE: "/run/token",
      PLATFORM_TOKEN: "static-token",
      ...actionsEnv,
    });
    expect(resolveSettings()).toMatchObject({ identity: "acme/ci", identityToken: "literal.jwt.token" });
    expect(resolveSettings().identityTokenFile).toBeUndefined();
    delete process.env.PLATFORM_IDENTITY_TOKEN;
    expect(resolveSettings()).toMatchObject({ identityTokenFile: "/run/token" });
    expect(resolveSettings().githubActions).toBeUndefined();
    delete process.env.PLATFORM_IDENTITY_TOKEN_FILE;
    expect(resolveSettings().githubActions).toEqual({
      requestUrl: actionsEnv.ACTIONS_ID_TOKEN_REQUEST_URL,
      requestToken: REQUEST_TOKEN,
    });
    expect(resolveSettings().token).toBeUndefined();
  });

  test("GitHub Actions' variables alone assume nothing: without an identity the static token is used", () => {
    env({ PLATFORM_TOKEN: "static-token", ...actionsEnv });
    expect(resolveSettings()).toMatchObject({ token: "static-token" });
    expect(resolveSettings().githubActions).toBeUndefined();
  });

  test("an identity with no token source says where a token may come from", () => {
    env({ PLATFORM_IDENTITY: "acme/ci" });
    expect(() => resolveSettings()).toThrow(
      /^PLATFORM_IDENTITY is set but there is no OIDC token to exchange: set platform:identityToken \(PLATFORM_IDENTITY_TOKEN, a secret\) or platform:identityTokenFile .* GitHub Actions/,
    );
  });

  test("a literal token with whitespace is refused without being shown", () => {
    env({ PLATFORM_IDENTITY: "acme/ci", PLATFORM_IDENTITY_TOKEN: "two secret-words-here" });
    expect(() => resolveSettings()).toThrow(/^PLATFORM_IDENTITY_TOKEN: the OIDC token contains whitespace/);
    expect(() => resolveSettings()).not.toThrow(/secret-words/);
  });
});
