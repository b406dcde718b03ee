/**
 * The retry policy: its decisions one by one, then the stated worst case counted in requests
 * against servers that fail every time, each way a server can fail. Time is a fake clock.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { fakeClock, seededRandom } from "../../tests/support/fakeClock";
import { createClient } from "./client";
import { DeadlineExceededError } from "./deadline";
import { ConnectionLostError, UnknownOutcomeError, UnreachableError } from "../common/errors";
import {
  BASE_DELAY_MS,
  MAX_CREATE_SENDS,
  MAX_RETRY_AFTER_MS,
  MAX_SENDS_PER_REQUEST,
  MAX_UNREACHABLE_SENDS,
  Outcome,
  backoffMs,
  decide,
  mayResendCreate,
  retryAfterMs,
} from "./retryPolicy";
import { recordingServer } from "../../tests/support/recordingServer";

const answered = (httpStatus: number, code: number, retryAfter?: number): Outcome => ({
  kind: "answered",
  httpStatus,
  code,
  retryAfterMs: retryAfter,
});
const random = seededRandom(11);

describe("decisions", () => {
  test.each([
    ["GET", answered(503, 14), true],
    ["POST", answered(503, 14), true],
    ["POST", answered(429, 8), true],
    ["GET", answered(500, 13), true],
    ["PATCH", answered(502, 14), true],
    ["DELETE", answered(504, 4), true],
    ["POST", answered(500, 13), false],
    ["POST", answered(502, 14), false],
    ["POST", answered(504, 4), false],
    ["GET", answered(400, 3), false],
    ["GET", answered(404, 5), false],
    ["POST", answered(409, 6), false],
    ["GET", answered(403, 7), false],
    ["GET", answered(401, 16), false],
    ["GET", { kind: "lost", cause: "ECONNRESET" }, true],
    ["PATCH", { kind: "lost", cause: "UND_ERR_BODY_TIMEOUT" }, true],
    ["POST", { kind: "lost", cause: "ECONNRESET" }, false],
    ["POST", { kind: "unsent", cause: "ECONNREFUSED" }, true],
  ] as Array<[string, Outcome, boolean]>)("%s after %j: retry %s", (method, outcome, retry) => {
    expect(decide({ method, sends: 1, outcome }, random).retry).toBe(retry);
  });

  test("every kind of repeat stops at the stated number of sends", () => {
    expect(decide({ method: "GET", sends: MAX_SENDS_PER_REQUEST - 1, outcome: answered(503, 14) }).retry).toBe(true);
    expect(decide({ method: "GET", sends: MAX_SENDS_PER_REQUEST, outcome: answered(503, 14) }).retry).toBe(false);
    const unsent: Outcome = { kind: "unsent", cause: "ECONNREFUSED" };
    expect(decide({ method: "GET", sends: MAX_UNREACHABLE_SENDS - 1, outcome: unsent }).retry).toBe(true);
    expect(decide({ method: "GET", sends: MAX_UNREACHABLE_SENDS, outcome: unsent }).retry).toBe(false);
    const denied = answered(403, 7);
    expect(decide({ method: "POST", sends: 3, outcome: denied, parentJustCreated: true }).retry).toBe(true);
    expect(
      decide({ method: "POST", sends: MAX_SENDS_PER_REQUEST, outcome: denied, parentJustCreated: true }).retry,
    ).toBe(false);
    expect(mayResendCreate(MAX_CREATE_SENDS - 1)).toBe(true);
    expect(mayResendCreate(MAX_CREATE_SENDS)).toBe(false);
  });

  test("a refusal that asks to wait (429, 503 with Retry-After) is repeated whatever the count, for a POST too; it does not use up the count of other failures", () => {
    const many = 10 * MAX_SENDS_PER_REQUEST;
    for (const method of ["POST", "GET", "PATCH", "DELETE"]) {
      expect(decide({ method, sends: many, refusals: many, outcome: answered(429, 8, 1_000) })).toEqual({
        retry: true,
        delayMs: 1_000,
      });
      expect(decide({ method, sends: many, refusals: many, outcome: answered(503, 14, 2_000) })).toEqual({
        retry: true,
        delayMs: 2_000,
      });
      // A 429 without Retry-After backs off, the steps counted in refusals.
      expect(decide({ method, sends: many, refusals: many, outcome: answered(429, 8) }, () => 0)).toEqual({
        retry: true,
        delayMs: 2_000,
      });
    }
    // A 503 that says nothing of when is an outage: counted.
    expect(decide({ method: "GET", sends: MAX_SENDS_PER_REQUEST, outcome: answered(503, 14) }).retry).toBe(false);
    // Seven refusals then failures of another kind: those still get their own count of sends.
    const lost: Outcome = { kind: "lost", cause: "ECONNRESET" };
    const afterRefusals = (counted: number) => ({ method: "GET", sends: 7 + counted, refusals: 7, outcome: lost });
    expect(decide(afterRefusals(MAX_SENDS_PER_REQUEST - 1)).retry).toBe(true);
    expect(decide(afterRefusals(MAX_SENDS_PER_REQUEST)).retry).toBe(false);
    const unsent: Outcome = { kind: "unsent", cause: "ECONNREFUSED" };
    expect(decide({ method: "GET", sends: 9, refusals: 7, outcome: unsent }).retry).toBe(true);
    expect(decide({ method: "GET", sends: 10, refusals: 7, outcome: unsent }).retry).toBe(false);
  });

  test("a Retry-After of 0 still waits the first backoff step: a service answering it forever is not hammered", () => {
    expect(decide({ method: "GET", sends: 1, refusals: 1, outcome: answered(429, 8, 0) })).toEqual({
      retry: true,
      delayMs: BASE_DELAY_MS,
    });
  });

  test("UNAUTHENTICATED is repeated at once only when the token can be renewed", () => {
    expect(decide({ method: "GET", sends: 1, outcome: answered(401, 16), canRenewToken: true })).toEqual({
      retry: true,
      delayMs: 0,
      renewToken: true,
    });
    expect(decide({ method: "GET", sends: 1, outcome: answered(401, 16), canRenewToken: false }).retry).toBe(false);
  });

  test("Retry-After is obeyed up to the cap; backoff doubles with jitter up to its maximum", () => {
    expect(decide({ method: "GET", sends: 1, outcome: answered(429, 8, 2_000) })).toEqual({
      retry: true,
      delayMs: 2_000,
    });
    expect(decide({ method: "GET", sends: 1, outcome: answered(503, 14, 3_600_000) })).toEqual({
      retry: true,
      delayMs: MAX_RETRY_AFTER_MS,
    });
    const steps = [1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, () => 1 - 1e-9));
    expect(steps.map(Math.round)).toEqual([100, 200, 400, 800, 1600, 3200, 4000]);
    expect(backoffMs(3, () => 0)).toBe(200);
  });

  test("Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe("the worst case, counted against servers that fail every time", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function failing(
    handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  ): Promise<{ url: string; hits: string[] }> {
    const recording = await recordingServer(handler);
    servers.push(recording.server);
    return recording;
  }
  const status = (res: http.ServerResponse, httpStatus: number, code: number) => {
    res.writeHead(httpStatus, { "content-type": "application/json" });
    res.end(JSON.stringify({ code, message: "no" }));
  };

  async function attempt(url: string, method: "GET" | "POST", extra: object = {}) {
    const clock = fakeClock();
    const client = createClient(
      { apiUrl: url, authUrl: url, apiVersion: "v2beta1", token: "static-token-1234", ...extra },
      { clock, random: seededRandom(1) },
    );
    try {
      return await client
        .request({ method, domain: "iam", path: "groups/acme", body: method === "POST" ? {} : undefined })
        .catch((e: unknown) => e as Error);
    } finally {
      await client.close();
    }
  }

  test.each([
    ["GET", 503, 14, MAX_SENDS_PER_REQUEST],
    ["POST", 503, 14, MAX_SENDS_PER_REQUEST],
    ["GET", 500, 13, MAX_SENDS_PER_REQUEST],
    ["POST", 500, 13, 1],
    ["GET", 401, 16, 1],
    ["GET", 403, 7, 1],
  ] as const)("%s answered %i (code %i) every time: %i requests", async (method, httpStatus, code, expected) => {
    const server = await failing((_req, res) => status(res, httpStatus, code));
    const error = await attempt(server.url, method);
    expect(error).toBeInstanceOf(Error);
    expect(server.hits).toHaveLength(expected);
  });

  test.each(["GET", "POST"] as const)(
    "%s answered 429 with Retry-After 1 every time: sent once a second until the call's deadline (120 s), then DeadlineExceededError saying the service asked to wait",
    async (method) => {
      const server = await failing((_req, res) => {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
        res.end(JSON.stringify({ code: 8, message: "Resource exhausted: rate limit reached" }));
      });
      const error = await attempt(server.url, method);
      expect(error).toBeInstanceOf(DeadlineExceededError);
      expect((error as Error).message).toMatch(
        /no answer within 120 s \(platform:timeout\); the service asked to retry after 1 s \(Retry-After\), past this call's deadline; last: RESOURCE_EXHAUSTED/,
      );
      // Sent at 0, 1, … 119 s: the wait from the last would end at the deadline.
      expect(server.hits).toHaveLength(120);
    },
  );

  test("connections dropped every time: a GET is sent 8 times, a POST once (unknown outcome)", async () => {
    const server = await failing((req) => req.socket.destroy());
    const get = await attempt(server.url, "GET");
    expect(get).toBeInstanceOf(ConnectionLostError);
    expect((get as Error).message).toMatch(/on each of 8 sends; check the network/);
    expect(server.hits).toHaveLength(MAX_SENDS_PER_REQUEST);
    server.hits.length = 0;
    expect(await attempt(server.url, "POST")).toBeInstanceOf(UnknownOutcomeError);
    expect(server.hits).toHaveLength(1);
  });

  test("an unreachable host is tried 3 times", async () => {
    const server = await failing(() => undefined);
    const { url } = server;
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const error = await attempt(url, "GET");
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  test("an assumed identity whose tokens are always rejected: 2 exchanges and 2 API requests", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-policy-"));
    const file = path.join(dir, "token");
    fs.writeFileSync(file, "oidc-token-for-policy-test");
    let exchanged = 0;
    const server = await failing((req, res) => {
      if (String(req.url).startsWith("/sts/exchange")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ token: `exchanged-token-${++exchanged}` }));
        return;
      }
      status(res, 401, 16);
    });
    const error = await attempt(server.url, "GET", { token: undefined, identity: "acme/ci", identityTokenFile: file });
    expect((error as Error).message).toMatch(/^UNAUTHENTICATED/);
    expect(server.hits).toEqual([
      "GET /sts/exchange",
      "GET /iam/v2beta1/groups/acme",
      "GET /sts/exchange",
      "GET /iam/v2beta1/groups/acme",
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("an exchange endpoint that is always unavailable: 8 exchange sends, no API request", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-policy-"));
    const file = path.join(dir, "token");
    fs.writeFileSync(file, "oidc-token-for-policy-test");
    const server = await failing((_req, res) => status(res, 503, 14));
    const error = await attempt(server.url, "GET", { token: undefined, identity: "acme/ci", identityTokenFile: file });
    expect((error as Error).message).toMatch(/^UNAVAILABLE: exchanging the OIDC token for identity "acme\/ci" failed/);
    expect(server.hits).toEqual(Array(MAX_SENDS_PER_REQUEST).fill("GET /sts/exchange"));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
