/**
 * One overall deadline per call, across every send and wait: hostile servers on loopback (one
 * that never answers, one that trickles its body forever, one that asks to retry in an hour)
 * on a fake clock that the test moves on itself; and the setting that sets it.
 */
import * as http from "node:http";
import { fakeClock, seededRandom } from "../../tests/support/fakeClock";
import { createClient } from "./client";
import { ConnectionLostError } from "../common/errors";
import { DEFAULT_CALL_BUDGET_MS, DeadlineExceededError, callBudgetMs, withCallDeadline } from "./deadline";
import { MAX_RETRY_AFTER_MS } from "./retryPolicy";
import { SettingsError } from "../common/errors";
import { resolveSettings } from "./settings";
import { recordingServer } from "../../tests/support/recordingServer";

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

/** Resolves at the next request the server receives: the send is then under way. */
function arrivals(): { handler(next: http.RequestListener): http.RequestListener; next(): Promise<void> } {
  let waiting: Array<() => void> = [];
  return {
    handler: (next) => (req, res) => {
      const told = waiting;
      waiting = [];
      for (const resolve of told) resolve();
      next(req, res);
    },
    next: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

/** Whether a promise has settled, once everything already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

test("a server that never answers: the call ends at its deadline, not before, one request, saying what waited", async () => {
  const arrived = arrivals();
  const server = await hostile(arrived.handler(() => undefined));
  const clock = fakeClock();
  const client = createClient(settingsFor(server.url), { clock });
  const sent = arrived.next();
  const armed = clock.nextTimer();
  const call = withCallDeadline(
    'reading group "team"',
    150,
    () => client.request({ method: "GET", domain: "iam", path: "groups/acme/team" }),
    clock.now,
  ).catch((e: unknown) => e as Error);
  // The send's one timer is the deadline's (the header limit is clamped to what is left).
  expect(await armed).toBe(150);
  await sent;
  clock.advance(149);
  expect(await settled(call)).toBe(false);
  clock.advance(1);
  const result = (await call) as Error;
  await client.close();
  expect(result).toBeInstanceOf(DeadlineExceededError);
  expect(result.message).toBe(
    "no answer within 0.15 s (platform:timeout); GET /iam/v2beta1/groups/acme/team was still waiting for its answer",
  );
  expect((result as DeadlineExceededError).what).toBe('reading group "team"');
  expect(server.hits).toHaveLength(1);
});

test("headers, then a byte every 50 ms of the clock forever: the body read ends at the deadline", async () => {
  const arrived = arrivals();
  let answer: http.ServerResponse | undefined;
  const server = await hostile(
    arrived.handler((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(" ");
      answer = res;
    }),
  );
  const clock = fakeClock();
  const client = createClient(settingsFor(server.url), { clock });
  const sent = arrived.next();
  const call = withCallDeadline(
    "getGroups",
    150,
    () => client.request({ method: "GET", domain: "iam", path: "groups" }),
    clock.now,
  ).catch((e: unknown) => e as Error);
  await sent;
  for (let elapsed = 50; elapsed < 150; elapsed += 50) {
    clock.advance(50);
    answer!.write(" ");
    expect(await settled(call)).toBe(false);
  }
  clock.advance(50);
  const result = (await call) as Error;
  await client.close();
  expect(result).toBeInstanceOf(DeadlineExceededError);
  expect(result.message).toMatch(
    /^no answer within 0.15 s .*GET \/iam\/v2beta1\/groups was still waiting for its answer/,
  );
  expect(server.hits).toHaveLength(1);
});

test("a body that pauses longer than the idle timeout is a lost answer: a GET is sent again, then fails naming the stall", async () => {
  const server = await hostile((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write("{");
  });
  const clock = fakeClock();
  const client = createClient(settingsFor(server.url), { bodyIdleTimeoutMs: 20, clock, random: seededRandom(2) });
  const armed = clock.nextTimer();
  const call = client.request({ method: "GET", domain: "iam", path: "groups" }).catch((e: unknown) => e as Error);
  for (let send = 1; send <= 8; send++) {
    await (send === 1 ? armed : clock.nextTimer()); // the send's header limit
    expect(await clock.nextTimer()).toBe(20); // the headers came: the body may pause 20 ms
    clock.advance(20);
  }
  const result = (await call) as Error;
  await client.close();
  expect(result).toBeInstanceOf(ConnectionLostError);
  expect(result.message).toMatch(/the answer's body stalled while reading the answer.*on each of 8 sends/);
  expect(server.hits).toHaveLength(8);
});

test("headers that never come within the per-send timeout: sent again, within the deadline", async () => {
  const arrived = arrivals();
  const server = await hostile(arrived.handler(() => undefined));
  const clock = fakeClock();
  const client = createClient(settingsFor(server.url), { headersTimeoutMs: 20, clock, random: seededRandom(2) });
  let sent = arrived.next();
  const call = client
    .request({ method: "DELETE", domain: "iam", path: "groups/acme/x" })
    .catch((e: unknown) => e as Error);
  for (let send = 1; send <= 8; send++) {
    await sent;
    sent = arrived.next();
    clock.advance(20);
  }
  const result = (await call) as Error;
  await client.close();
  expect(result).toBeInstanceOf(ConnectionLostError);
  expect(result.message).toMatch(/no answer headers in time, UND_ERR_HEADERS_TIMEOUT\) on each of 8 sends/);
  expect(server.hits).toHaveLength(8);
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
    const arrived = arrivals();
    const server = await hostile(arrived.handler(() => undefined));
    const clock = fakeClock();
    const client = createClient(settingsFor(server.url), { clock });
    const sent = arrived.next();
    const call = client.request({ method: "GET", domain: "iam", path: "roles" }).catch((e: unknown) => e as Error);
    await sent;
    clock.advance(150);
    const result = (await call) as Error;
    await client.close();
    expect(result).toBeInstanceOf(DeadlineExceededError);
    expect((result as DeadlineExceededError).what).toBe("GET iam/roles");
    expect(result.message).toMatch(/^no answer within 0.15 s \(platform:timeout\)/);
  });
});
