/**
 * One overall deadline per call, across every send and wait: hostile servers on loopback (one
 * that never answers, one that trickles its body forever, one that asks to retry in an hour)
 * with budgets of a few hundred milliseconds or a fake clock; and the setting that sets it.
 */
import * as http from "node:http";
import { fakeClock, seededRandom } from "../tests/support/fakeClock";
import { createClient } from "./client";
import { ConnectionLostError } from "./errors";
import { DEFAULT_CALL_BUDGET_MS, DeadlineExceededError, callBudgetMs, withCallDeadline } from "./deadline";
import { MAX_RETRY_AFTER_MS } from "./retryPolicy";
import { SettingsError } from "./errors";
import { resetConfigured, resolveSettings } from "./settings";
import { recordingServer } from "../tests/support/recordingServer";

const servers: http.Server[] = [];
const sockets = new Set<import("node:net").Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function hostile(handler: http.RequestListener): Promise<{ url: string; hits: string[] }> {
  const recording = await recordingServer(handler);
  recording.server.on("connection", (socket) => sockets.add(socket));
  servers.push(recording.server);
  return recording;
}

const settingsFor = (url: string) => ({
  apiUrl: url,
  authUrl: url,
  apiVersion: "v2beta1" as const,
  token: "tok-12345678",
});

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T | Error; ms: number }> {
  const started = Date.now();
  const result = await fn().catch((e: unknown) => e as Error);
  return { result, ms: Date.now() - started };
}

test("a server that never answers: the call ends at its deadline, one request, saying what waited", async () => {
  const server = await hostile(() => undefined);
  const client = createClient(settingsFor(server.url));
  const { result, ms } = await timed(() =>
    withCallDeadline('reading group "team"', 150, () =>
      client.request({ method: "GET", domain: "iam", path: "groups/acme/team" }),
    ),
  );
  await client.close();
  expect(result).toBeInstanceOf(DeadlineExceededError);
  expect((result as Error).message).toBe(
    "no answer within 0.15 s (platform:timeout); GET /iam/v2beta1/groups/acme/team was still waiting for its answer",
  );
  expect((result as DeadlineExceededError).what).toBe('reading group "team"');
  expect(ms).toBeLessThan(1_000);
  expect(server.hits).toHaveLength(1);
});

test("headers, then a byte every 20 ms forever: the body read ends at the deadline", async () => {
  const server = await hostile((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const timer = setInterval(() => res.write(" "), 20);
    res.on("close", () => clearInterval(timer));
  });
  const client = createClient(settingsFor(server.url));
  const { result, ms } = await timed(() =>
    withCallDeadline("getGroups", 150, () => client.request({ method: "GET", domain: "iam", path: "groups" })),
  );
  await client.close();
  expect(result).toBeInstanceOf(DeadlineExceededError);
  expect((result as Error).message).toMatch(/GET \/iam\/v2beta1\/groups was still waiting for its answer/);
  expect(ms).toBeLessThan(1_000);
  expect(server.hits).toHaveLength(1);
});

test("a body that pauses longer than the idle timeout is a lost answer: a GET is sent again, then fails naming the stall", async () => {
  const server = await hostile((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write("{");
  });
  const client = createClient(settingsFor(server.url), {
    bodyIdleTimeoutMs: 20,
    clock: fakeClock(),
    random: seededRandom(2),
  });
  const result = await client.request({ method: "GET", domain: "iam", path: "groups" }).catch((e: unknown) => e);
  await client.close();
  expect(result).toBeInstanceOf(ConnectionLostError);
  expect((result as Error).message).toMatch(/the answer's body stalled while reading the answer.*on each of 8 sends/);
  expect(server.hits).toHaveLength(8);
});

test("headers that never come within the per-send timeout: sent again, within the deadline", async () => {
  const server = await hostile(() => undefined);
  const client = createClient(settingsFor(server.url), {
    headersTimeoutMs: 20,
    clock: fakeClock(),
    random: seededRandom(2),
  });
  const result = await client
    .request({ method: "DELETE", domain: "iam", path: "groups/acme/x" })
    .catch((e: unknown) => e);
  await client.close();
  expect(result).toBeInstanceOf(ConnectionLostError);
  expect((result as Error).message).toMatch(/no answer headers in time, UND_ERR_HEADERS_TIMEOUT\) on each of 8 sends/);
  // A 20 ms limit on a loaded machine may end a send before its request reached the server.
  expect(server.hits.length).toBeGreaterThanOrEqual(1);
  expect(server.hits.length).toBeLessThanOrEqual(8);
});

describe("Retry-After: 3600", () => {
  const busy: http.RequestListener = (_req, res) => {
    res.writeHead(503, { "content-type": "application/json", "retry-after": "3600" });
    res.end(JSON.stringify({ code: 14, message: "come back in an hour" }));
  };

  test("is honoured up to the cap, and never past the deadline", async () => {
    const server = await hostile(busy);
    const clock = fakeClock();
    const client = createClient(settingsFor(server.url), { clock, random: seededRandom(1) });
    const result = await withCallDeadline(
      "getRoles",
      DEFAULT_CALL_BUDGET_MS,
      () => client.request({ method: "GET", domain: "iam", path: "roles" }),
      clock.now,
    ).catch((e: unknown) => e);
    await client.close();
    // 120 s of budget: three waits of 30 s fit, the fourth would end past the deadline.
    expect(clock.sleeps).toEqual([MAX_RETRY_AFTER_MS, MAX_RETRY_AFTER_MS, MAX_RETRY_AFTER_MS]);
    expect(server.hits).toHaveLength(4);
    expect(result).toBeInstanceOf(DeadlineExceededError);
    expect((result as Error).message).toBe(
      "no answer within 120 s (platform:timeout); the service asked to retry after 3600 s (Retry-After), past this call's deadline; " +
        "last: UNAVAILABLE: come back in an hour (GET /iam/v2beta1/roles); the service stayed unavailable through every retry; run again later",
    );
  });

  test("with less time left than the wait, the call fails at once", async () => {
    const server = await hostile(busy);
    const clock = fakeClock();
    const client = createClient(settingsFor(server.url), { clock, random: seededRandom(1) });
    const result = await withCallDeadline(
      "getRoles",
      10_000,
      () => client.request({ method: "GET", domain: "iam", path: "roles" }),
      clock.now,
    ).catch((e: unknown) => e);
    await client.close();
    expect(clock.sleeps).toEqual([]);
    expect(server.hits).toHaveLength(1);
    expect((result as Error).message).toMatch(
      /^no answer within 10 s \(platform:timeout\); the service asked to retry after 3600 s/,
    );
  });
});

describe("platform:timeout", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfigured();
  });
  const env = (vars: Record<string, string>) => {
    for (const key of Object.keys(process.env)) if (key.startsWith("PLATFORM_")) delete process.env[key];
    Object.assign(process.env, { PLATFORM_API_URL: "https://api.example.com", PLATFORM_TOKEN: "t", ...vars });
  };

  test("sets the budget; 120 s by default", () => {
    env({});
    expect(callBudgetMs()).toBe(120_000);
    env({ PLATFORM_TIMEOUT: "30" });
    expect(callBudgetMs()).toBe(30_000);
    env({ PLATFORM_TIMEOUT: "0.5" });
    expect(callBudgetMs()).toBe(500);
  });

  test.each(["abc", "0", "-5", "1e3", "99999", "12 s", " "])(
    "%j is refused naming the setting, not echoing it",
    (value) => {
      env({ PLATFORM_TIMEOUT: value });
      expect(() => resolveSettings()).toThrow(SettingsError);
      expect(() => resolveSettings()).toThrow(/^PLATFORM_TIMEOUT: must be a number of seconds from 0.1 to 3600/);
      expect(callBudgetMs()).toBe(DEFAULT_CALL_BUDGET_MS);
    },
  );

  test("a request outside any call gets the budget of one call", async () => {
    env({ PLATFORM_TIMEOUT: "0.15" });
    const server = await hostile(() => undefined);
    const client = createClient(settingsFor(server.url));
    const { result, ms } = await timed(() => client.request({ method: "GET", domain: "iam", path: "roles" }));
    await client.close();
    expect(result).toBeInstanceOf(DeadlineExceededError);
    expect((result as DeadlineExceededError).what).toBe("GET iam/roles");
    expect((result as Error).message).toMatch(/^no answer within 0.15 s \(platform:timeout\)/);
    expect(ms).toBeLessThan(1_000);
  });
});
