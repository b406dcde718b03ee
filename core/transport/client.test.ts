import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import { createClient, encodeQuery, sharedClient } from "./client";
import { DeadlineExceededError, withCallDeadline } from "./deadline";
import { ApiError, SettingsError, UnknownOutcomeError, UnreachableError } from "../common/errors";
import { Settings, providerSettings, resolveSettings } from "./settings";
import { fakeClock, seededRandom } from "../../tests/support/fakeClock";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startProviderEmulator();
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.setFaults([]);
  emu.clearRequests();
});

/** A fake clock per client: waits pass at once, and nothing in these tests sleeps for real. */
const fast = () => ({ clock: fakeClock(), random: seededRandom(7) });
const settingsOf = (over: Partial<Settings> = {}): Settings => ({
  apiUrl: emu.url,
  authUrl: emu.url,
  apiVersion: "v2beta1",
  token: emu.token,
  ...over,
});

describe("settings", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const env = (vars: Record<string, string>) => {
    for (const key of Object.keys(process.env))
      if (key.startsWith("PLATFORM_") || key.startsWith("ACTIONS_ID_TOKEN_")) delete process.env[key];
    Object.assign(process.env, vars);
  };

  test("configure wins over the environment, key by key", () => {
    env({ PLATFORM_API_URL: "https://env.example.com/", PLATFORM_TOKEN: "env-token", PLATFORM_API_VERSION: "v2" });
    const settings = providerSettings();
    settings.configure({ get: (key) => (key === "platform:apiUrl" ? "https://config.example.com" : undefined) });
    expect(settings.resolve()).toEqual({
      apiUrl: "https://config.example.com",
      authUrl: "https://config.example.com",
      apiVersion: "v2",
      token: "env-token",
    });
  });

  test("platform:maxConcurrency and platform:batchReads: absent unless set, from configure or the environment", () => {
    env({ PLATFORM_API_URL: "https://env.example.com", PLATFORM_TOKEN: "t" });
    expect(resolveSettings()).not.toHaveProperty("maxConcurrency");
    expect(resolveSettings()).not.toHaveProperty("batchReads");
    env({
      PLATFORM_API_URL: "https://env.example.com",
      PLATFORM_TOKEN: "t",
      PLATFORM_MAX_CONCURRENCY: " 4 ",
      PLATFORM_BATCH_READS: "FALSE",
    });
    expect(resolveSettings()).toMatchObject({ maxConcurrency: 4, batchReads: false });
    const settings = providerSettings();
    settings.configure({
      get: (key) => ({ "platform:maxConcurrency": "64", "platform:batchReads": "true" })[key],
    });
    expect(settings.resolve()).toMatchObject({ maxConcurrency: 64, batchReads: true });
  });

  test("a config object that throws (never configured) falls back to the environment", () => {
    env({ PLATFORM_API_URL: "https://env.example.com", PLATFORM_TOKEN: "t" });
    const settings = providerSettings();
    settings.configure({
      get: () => {
        throw new Error("not configured");
      },
    });
    expect(settings.resolve().apiUrl).toBe("https://env.example.com");
  });

  test.each([
    [{}, /platform:apiUrl is not set.*PLATFORM_API_URL/],
    [{ PLATFORM_API_URL: "not a url", PLATFORM_TOKEN: "t" }, /^PLATFORM_API_URL: is not a URL; expected for example/],
    [
      { PLATFORM_API_URL: "http://api.example.com", PLATFORM_TOKEN: "t" },
      /^PLATFORM_API_URL: http:\/\/ is refused; use https/,
    ],
    [
      { PLATFORM_API_URL: "https://a.example.com", PLATFORM_AUTH_URL: "ftp://x", PLATFORM_TOKEN: "t" },
      /PLATFORM_AUTH_URL: ftp:\/\/ is refused/,
    ],
    [
      { PLATFORM_API_URL: "https://a.example.com", PLATFORM_API_VERSION: "v3", PLATFORM_TOKEN: "t" },
      /^PLATFORM_API_VERSION: is not an API version; use v2beta1/,
    ],
    [{ PLATFORM_API_URL: "https://a.example.com" }, /no credentials: set platform:token/],
    [
      { PLATFORM_API_URL: "https://a.example.com", PLATFORM_IDENTITY: "org/ci" },
      /PLATFORM_IDENTITY is set but there is no OIDC token to exchange: set platform:identityToken/,
    ],
    [
      { PLATFORM_API_URL: "https://a.example.com", PLATFORM_IDENTITY_TOKEN_FILE: "/tmp/x" },
      /PLATFORM_IDENTITY_TOKEN_FILE is set but platform:identity/,
    ],
    [
      {
        PLATFORM_API_URL: "https://a.example.com",
        PLATFORM_IDENTITY: "org//ci",
        PLATFORM_IDENTITY_TOKEN_FILE: "/tmp/x",
      },
      /^PLATFORM_IDENTITY: is not an identity uid: it has an empty segment/,
    ],
    [
      { PLATFORM_API_URL: "https://a.example.com", PLATFORM_TOKEN: "two words" },
      /PLATFORM_TOKEN: the token contains whitespace/,
    ],
    ...["0", "-1", "2.5", "lots", "1025"].map((value): [Record<string, string>, RegExp] => [
      { PLATFORM_API_URL: "https://a.example.com", PLATFORM_TOKEN: "t", PLATFORM_MAX_CONCURRENCY: value },
      /^PLATFORM_MAX_CONCURRENCY: must be a whole number of requests from 1 to 1024 \(how many this process sends at once at most; default 16\)$/,
    ]),
    [
      { PLATFORM_API_URL: "https://a.example.com", PLATFORM_TOKEN: "t", PLATFORM_BATCH_READS: "no" },
      /^PLATFORM_BATCH_READS: must be true \(the default: reads of one kind that overlap are answered together by one List\) or false/,
    ],
  ])("bad settings %j fail naming the setting", (vars, message) => {
    env(vars);
    expect(() => resolveSettings()).toThrow(SettingsError);
    expect(() => resolveSettings()).toThrow(message);
  });

  test("the process-wide client reads settings at call time and reports missing ones without a request", async () => {
    env({});
    await expect(sharedClient().request({ method: "GET", domain: "iam", path: "roles" })).rejects.toThrow(
      /platform:apiUrl is not set/,
    );
    env({ PLATFORM_API_URL: emu.url, PLATFORM_TOKEN: emu.token });
    const roles = await sharedClient().request<{ roles: unknown[] }>({ method: "GET", domain: "iam", path: "roles" });
    expect(roles.roles.length).toBeGreaterThan(0);
    expect(emu.requests()).toHaveLength(1);
  });
});

describe("requests", () => {
  test("query values: spaces as %20, lists as repeated keys, undefined left out", () => {
    expect(encodeQuery({ order_by: "name desc", "uidp.ids": ["a/b", "c"], skip: 2, name: undefined })).toBe(
      "?order_by=name%20desc&uidp.ids=a%2Fb&uidp.ids=c&skip=2",
    );
  });

  test("v2 switches only the version segment", async () => {
    const client = createClient(settingsOf({ apiVersion: "v2" }), fast());
    await client.request({ method: "GET", domain: "iam", path: `groups/${emu.rootUid}` });
    expect(emu.requests()[0].path).toBe(`/iam/v2/groups/${emu.rootUid}`);
    await client.close();
  });

  test("an AIP-193 error decodes into code, reason and field violations, and a message naming the field", async () => {
    const client = createClient(settingsOf(), fast());
    const error: any = await client
      .request({ method: "POST", domain: "iam", path: `groups/${emu.rootUid}`, body: { name: "Not Valid!" } })
      .catch((e: any) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 3, status: "INVALID_ARGUMENT", httpStatus: 400, reason: "INVALID_ARGUMENT" });
    expect(error.fieldViolations.map((v: { field: string }) => v.field)).toEqual(["name"]);
    expect(error.message).toMatch(
      /^INVALID_ARGUMENT: name: .*\^\[a-z0-9 \._-\]\{1,\}\$ \(POST \/iam\/v2beta1\/groups\//,
    );
    await client.close();
  });

  test("a group with repos fails to delete with the precondition spelled out", async () => {
    const client = createClient(settingsOf(), fast());
    const error: any = await client
      .request({ method: "DELETE", domain: "iam", path: `groups/${emu.rootUid}` })
      .catch((e: any) => e);
    expect(error).toMatchObject({ code: 9, status: "FAILED_PRECONDITION" });
    expect(error.preconditionViolations[0].type).toBe("RESOURCE_NOT_EMPTY");
    expect(error.message).toMatch(/^FAILED_PRECONDITION: RESOURCE_NOT_EMPTY: /);
    await client.close();
  });

  test("a non-JSON answer from a proxy becomes a Status-like error that says what is wrong", async () => {
    const http = await import("node:http");
    const proxy = http.createServer((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>bad gateway</html>");
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const port = (proxy.address() as { port: number }).port;
    const client = createClient(settingsOf({ apiUrl: `http://127.0.0.1:${port}` }), fast());
    const error: any = await client.request({ method: "GET", domain: "iam", path: "groups" }).catch((e: any) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toMatch(/HTTP 502 with a body that is not an API Status \(text\/html\): is platform:apiUrl/);
    await client.close();
    proxy.close();
  });

  test("an unreachable URL fails quickly with the setting to check", async () => {
    const client = createClient(settingsOf({ apiUrl: "http://127.0.0.1:1" }), fast());
    const error: any = await client.request({ method: "GET", domain: "iam", path: "groups" }).catch((e: any) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toMatch(/cannot reach http:\/\/127.0.0.1:1 \(ECONNREFUSED\): check platform:apiUrl/);
    await client.close();
  });
});

describe("2xx answers without a usable body", () => {
  test.each([
    ["POST", "", "application/json", "UnknownOutcomeError", /HTTP 200 with an empty body/],
    ["POST", '{"uid": "acme/x', "application/json", "UnknownOutcomeError", /not JSON \(application\/json\)/],
    ["POST", "<html>portal</html>", "text/html", "UnknownOutcomeError", /not JSON \(text\/html\)/],
    [
      "GET",
      "<html>portal</html>",
      "text/html",
      "ApiError",
      /the answer is not JSON \(text\/html\): is platform:apiUrl/,
    ],
    ["DELETE", "", "", "none", /./],
  ])("%s answered %j", async (method, body, type, expected, message) => {
    const http = await import("node:http");
    const server = http.createServer((_req, res) => {
      res.writeHead(200, type ? { "content-type": type } : {});
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const client = createClient(settingsOf({ apiUrl: url }), fast());
    const result: any = await client
      .request({
        method: method as "GET",
        domain: "iam",
        path: "groups/acme",
        body: method === "POST" ? {} : undefined,
      })
      .catch((e: any) => e);
    await client.close();
    server.close();
    if (expected === "none") {
      expect(result).toBeUndefined();
      return;
    }
    expect(result?.name).toBe(expected);
    expect(result.message).toMatch(message);
    if (expected === "UnknownOutcomeError") expect(result).toBeInstanceOf(UnknownOutcomeError);
  });
});

describe("retries", () => {
  test("UNAVAILABLE and RESOURCE_EXHAUSTED are retried until they pass, for reads and creates; Retry-After is honoured", async () => {
    // Every other request fails: each request needs exactly one retry.
    let n = 0;
    const http = await import("node:http");
    const flaky = http.createServer((req, res) => {
      n++;
      if (n % 2 === 1) {
        res.writeHead(n % 4 === 1 ? 503 : 429, { "content-type": "application/json", "retry-after": "2" });
        res.end(JSON.stringify({ code: n % 4 === 1 ? 14 : 8, message: "busy" }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ uid: `acme/g${n}`, method: req.method }));
    });
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(flaky.address() as { port: number }).port}`;
    const options = fast();
    const client = createClient(settingsOf({ apiUrl: url }), options);
    for (const method of ["POST", "GET", "POST", "GET"] as const) {
      const answer = await client.request<{ method: string }>({
        method,
        domain: "iam",
        path: "groups/acme",
        body: method === "POST" ? {} : undefined,
      });
      expect(answer.method).toBe(method);
    }
    expect(n).toBe(8);
    expect(options.clock.sleeps).toEqual([2000, 2000, 2000, 2000]);
    await client.close();
    flaky.close();
  });

  test("RESOURCE_EXHAUSTED through every send is waited out as Retry-After asks until the call's deadline, then fails naming the wait", async () => {
    emu.setFaults([{ path: "^/iam/v2beta1/roles$", exhaustedRate: 1, retryAfterSeconds: 1 }]);
    const options = fast();
    const client = createClient(settingsOf(), options);
    const error: any = await withCallDeadline(
      "reading roles",
      5_000,
      () => client.request({ method: "GET", domain: "iam", path: "roles" }),
      options.clock.now,
    ).catch((e: any) => e);
    // Sent at 0, 1, 2, 3 and 4 s; a sixth would be sent at the deadline.
    expect(emu.requests()).toHaveLength(5);
    expect(options.clock.sleeps).toEqual(Array(4).fill(1000));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error.message).toMatch(
      /^no answer within 5 s \(platform:timeout\); the service asked to retry after 1 s \(Retry-After\), past this call's deadline; last: RESOURCE_EXHAUSTED/,
    );
    await client.close();
  });

  test("a dropped connection is retried for GET, but a POST whose answer was lost is reported as unknown outcome", async () => {
    // Every other connection is dropped before any answer.
    let n = 0;
    const http = await import("node:http");
    const dropping = http.createServer((req, res) => {
      n++;
      if (n % 2 === 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ uid: "acme/x" }));
    });
    await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(dropping.address() as { port: number }).port}`;
    const client = createClient(settingsOf({ apiUrl: url }), fast());
    for (let i = 0; i < 5; i++) await client.request({ method: "GET", domain: "iam", path: "groups/acme" });
    expect(n).toBe(10);
    n = 0;
    const error: any = await client
      .request({ method: "POST", domain: "iam", path: "groups/acme", body: { name: "lost-answer" } })
      .catch((e: any) => e);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(n).toBe(1);
    await client.close();
    dropping.close();
  });

  test("PERMISSION_DENIED right after this process created the parent is retried until access propagates", async () => {
    const slow = await startProviderEmulator({ propagationDelayMs: 1500 });
    slow.advanceClock(2000); // the seeded root is not new
    // The client's waits move the emulator's clock: propagation completes without real time passing.
    const clock = fakeClock();
    const client = createClient(
      { apiUrl: slow.url, authUrl: slow.url, apiVersion: "v2beta1", token: slow.token },
      {
        clock: {
          ...clock,
          sleep: async (ms) => {
            await clock.sleep(ms);
            slow.advanceClock(ms);
          },
        },
        random: seededRandom(3),
      },
    );
    const parent = await client.request<{ uid: string }>({
      method: "POST",
      domain: "iam",
      path: `groups/${slow.rootUid}`,
      body: { name: "fresh" },
    });
    const child = await client.request<{ uid: string }>({
      method: "POST",
      domain: "iam",
      path: `groups/${parent.uid}`,
      body: { name: "child" },
    });
    expect(child.uid.startsWith(`${parent.uid}/`)).toBe(true);
    expect(slow.requests().some((r) => r.status === 403)).toBe(true);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1500);
    await client.close();
    await slow.close();
  });

  test("PERMISSION_DENIED anywhere else fails at once", async () => {
    const slow = await startProviderEmulator({ propagationDelayMs: 60_000 });
    const client = createClient(
      { apiUrl: slow.url, authUrl: slow.url, apiVersion: "v2beta1", token: slow.token },
      fast(),
    );
    const young = await fetch(`${slow.url}/iam/v2beta1/groups/${slow.rootUid}`, {
      method: "POST",
      headers: { authorization: `Bearer ${slow.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "made-elsewhere" }),
    }).then((r) => r.json() as Promise<{ uid: string }>);
    slow.clearRequests();
    const error: any = await client
      .request({ method: "POST", domain: "iam", path: `groups/${young.uid}`, body: { name: "x" } })
      .catch((e: any) => e);
    expect(error).toMatchObject({ status: "PERMISSION_DENIED" });
    expect(error.message).toMatch(/needs a role binding/);
    expect(slow.requests()).toHaveLength(1);
    await client.close();
    await slow.close();
  });
});

describe("assumed identity", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-oidc-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function ciIdentity(target: RunningEmulator, subject: string) {
    const created = await fetch(`${target.url}/iam/v2beta1/identities/${target.rootUid}`, {
      method: "POST",
      headers: { authorization: `Bearer ${target.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: subject.replace(/[^a-z0-9]/g, "-"),
        claimMatch: { issuer: target.issuer, subject },
      }),
    }).then((r) => r.json() as Promise<{ uid: string }>);
    const roles = await fetch(`${target.url}/iam/v2beta1/roles?name=owner`, {
      headers: { authorization: `Bearer ${target.token}` },
    }).then((r) => r.json() as Promise<{ roles: { uid: string }[] }>);
    await fetch(`${target.url}/iam/v2beta1/roleBindings/${target.rootUid}`, {
      method: "POST",
      headers: { authorization: `Bearer ${target.token}`, "content-type": "application/json" },
      body: JSON.stringify({ identityUid: created.uid, roleUid: roles.roles[0].uid }),
    });
    const file = path.join(dir, `${subject}.jwt`);
    fs.writeFileSync(file, await target.mintOidcToken({ subject, audience: target.url, expiresInSeconds: 3600 }));
    return { uid: created.uid, file };
  }

  test("one exchange serves many concurrent calls; the token is renewed before it expires and once after a rejection", async () => {
    const shortLived = await startProviderEmulator({ tokenTtlSeconds: 2 });
    const ci = await ciIdentity(shortLived, "ci-short");
    shortLived.clearRequests();
    const clock = fakeClock();
    const client = createClient(
      {
        apiUrl: shortLived.url,
        authUrl: shortLived.url,
        apiVersion: "v2beta1",
        identity: ci.uid,
        identityTokenFile: ci.file,
      },
      { clock, random: seededRandom(5) },
    );
    await Promise.all(
      Array.from({ length: 10 }, () =>
        client.request({ method: "GET", domain: "iam", path: `groups/${shortLived.rootUid}` }),
      ),
    );
    expect(shortLived.requests().filter((r) => r.path === "/sts/exchange")).toHaveLength(1);
    // Outlive the 2-second token: renewal happens before expiry, so nothing is ever rejected.
    for (let i = 0; i < 6; i++) {
      await client.request({ method: "GET", domain: "iam", path: `groups/${shortLived.rootUid}` });
      clock.advance(500);
      shortLived.advanceClock(500);
    }
    expect(shortLived.requests().filter((r) => r.status === 401)).toHaveLength(0);
    expect(shortLived.requests().filter((r) => r.path === "/sts/exchange").length).toBeGreaterThan(1);
    // The service's clock jumps past expiry: the rejected token is exchanged once more and the call succeeds.
    shortLived.advanceClock(10_000);
    await client.request({ method: "GET", domain: "iam", path: `groups/${shortLived.rootUid}` });
    expect(shortLived.requests().filter((r) => r.status === 401)).toHaveLength(1);
    await client.close();
    await shortLived.close();
  });

  test("exchange failures name the identity; a missing token file names the setting", async () => {
    const ci = await ciIdentity(emu, "ci-wrong");
    fs.writeFileSync(
      path.join(dir, "other.jwt"),
      await emu.mintOidcToken({ subject: "someone-else", audience: emu.url }),
    );
    const wrongSubject = createClient(
      settingsOf({ token: undefined, identity: ci.uid, identityTokenFile: path.join(dir, "other.jwt") }),
      fast(),
    );
    await expect(wrongSubject.request({ method: "GET", domain: "iam", path: "roles" })).rejects.toThrow(
      new RegExp(`^UNAUTHENTICATED: exchanging the OIDC token for identity "${ci.uid}" failed: .*subject`),
    );
    const missing = createClient(
      settingsOf({ token: undefined, identity: ci.uid, identityTokenFile: path.join(dir, "nope.jwt") }),
      fast(),
    );
    await expect(missing.request({ method: "GET", domain: "iam", path: "roles" })).rejects.toThrow(
      /platform:identityTokenFile \(PLATFORM_IDENTITY_TOKEN_FILE\): cannot read .*nope.jwt \(ENOENT\)/,
    );
    await wrongSubject.close();
    await missing.close();
  });
});
