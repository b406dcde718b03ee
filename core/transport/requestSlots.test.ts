/**
 * The bound on requests in flight (platform:maxConcurrency) and the pause a Retry-After asks
 * for, through the client's own send loop: a transport that the test answers send by send, and a
 * fake clock, so every wait is one the test makes pass.
 */
import { createClient } from "./client";
import { DeadlineExceededError, withCallDeadline } from "./deadline";
import { ApiError } from "../common/errors";
import { requestSlots } from "./requestSlots";
import type { HttpAnswer, HttpRequest, Transport } from "./transport";
import { fakeClock, FakeClock, seededRandom } from "../../tests/support/fakeClock";

interface Sent {
  req: HttpRequest;
  answer(status: number, body?: unknown, retryAfter?: string): void;
}

/** A transport whose sends wait until the test answers them; `sent` lists them in order. */
function heldTransport() {
  const sent: Sent[] = [];
  let inFlight = 0;
  let peak = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const transport: Transport = {
    send: (req) =>
      new Promise<HttpAnswer>((resolve) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        sent.push({
          req,
          answer(status, body = {}, retryAfter) {
            inFlight--;
            resolve({ status, contentType: "application/json", text: JSON.stringify(body), retryAfter });
          },
        });
        for (const w of waiters.filter((w) => sent.length >= w.count)) w.resolve();
      }),
    close: async () => {},
  };
  return {
    transport,
    sent,
    peak: () => peak,
    /** Resolves once `count` sends have been made. */
    sends: (count: number) =>
      sent.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
  };
}

/** Lets every pending promise callback run (no timer, no I/O). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function clientWith(maxConcurrency: number, clock: FakeClock) {
  const held = heldTransport();
  const client = createClient(
    {
      apiUrl: "https://api.example.com",
      authUrl: "https://api.example.com",
      apiVersion: "v2",
      token: "t",
      maxConcurrency,
    },
    { transport: held.transport, clock, random: seededRandom(3) },
  );
  const get = (i: number) =>
    withCallDeadline(
      `reading ${i}`,
      60_000,
      () => client.request({ method: "GET", domain: "iam", path: `groups/g${i}` }),
      clock.now,
    );
  return { ...held, client, get };
}

const RATE_LIMITED = { code: 8, message: "Resource exhausted: rate limit reached" };

test("platform:maxConcurrency: at most that many requests in flight; the others start in the order they came as sends end", async () => {
  const clock = fakeClock();
  const { sent, peak, sends, get } = clientWith(2, clock);
  const reads = [0, 1, 2, 3, 4].map((i) => get(i));
  await sends(2);
  await settle();
  expect(sent.map((s) => s.req.url.split("/").pop())).toEqual(["g0", "g1"]);
  sent[1].answer(200, { uid: "g1" });
  await sends(3);
  sent[0].answer(200, { uid: "g0" });
  await sends(4);
  await settle();
  expect(sent.map((s) => s.req.url.split("/").pop())).toEqual(["g0", "g1", "g2", "g3"]);
  for (const s of sent.slice(2)) s.answer(200, { uid: "x" });
  await sends(5);
  sent[4].answer(200, { uid: "g4" });
  await Promise.all(reads);
  expect(peak()).toBe(2);
});

test("a request waiting for a slot past its call's deadline fails with DeadlineExceededError naming platform:maxConcurrency, unsent", async () => {
  const clock = fakeClock();
  const { sent, sends, client } = clientWith(1, clock);
  const first = withCallDeadline(
    "reading a",
    60_000,
    () => client.request({ method: "GET", domain: "iam", path: "groups/a" }),
    clock.now,
  );
  await sends(1);
  const second = withCallDeadline(
    "reading b",
    5_000,
    () => client.request({ method: "GET", domain: "iam", path: "groups/b" }),
    clock.now,
  );
  const failed = expect(second).rejects.toThrow(
    /no answer within 5 s \(platform:timeout\); GET \/iam\/v2\/groups\/b was waiting for one of the 1 requests in flight to end \(platform:maxConcurrency\)/,
  );
  await settle();
  clock.advance(5_000);
  await failed;
  await expect(second).rejects.toBeInstanceOf(DeadlineExceededError);
  sent[0].answer(200, { uid: "a" });
  await first;
  expect(sent).toHaveLength(1);
});

test("a 429's Retry-After pauses every send of the client, not only the refused request's repeat", async () => {
  const clock = fakeClock();
  const { sent, sends, client, get } = clientWith(4, clock);
  // A call with 1 s left cannot wait the 2 s asked for: it fails at once, and the pause stays.
  const short = withCallDeadline(
    "reading g0",
    1_000,
    () => client.request({ method: "GET", domain: "iam", path: "groups/g0" }),
    clock.now,
  );
  await sends(1);
  sent[0].answer(429, RATE_LIMITED, "2");
  await expect(short).rejects.toThrow(/asked to retry after 2 s \(Retry-After\), past this call's deadline/);
  const others = [1, 2].map((i) => get(i));
  await settle();
  expect(sent).toHaveLength(1);
  clock.advance(1_999);
  await settle();
  expect(sent).toHaveLength(1);
  clock.advance(1);
  await sends(3);
  expect(sent.map((s) => s.req.url.split("/").pop())).toEqual(["g0", "g1", "g2"]);
  for (const s of sent.slice(1)) s.answer(200, { uid: "x" });
  await Promise.all(others);
  expect(clock.sleeps).toEqual([]);
});

test("a pause past a call's deadline fails that call at once, saying the service asked to wait (Retry-After)", async () => {
  const clock = fakeClock();
  const slots = requestSlots(8, clock);
  slots.pauseUntil(clock.now() + 10_000);
  let sends = 0;
  const send = async () => void sends++;
  await withCallDeadline(
    "reading g",
    5_000,
    async () => {
      const scope = (await import("./deadline")).currentCall()!;
      await expect(slots.run(scope, "GET /iam/v2/groups/g", send)).rejects.toThrow(
        /the service asked to wait 10 s \(Retry-After\), past this call's deadline, before GET \/iam\/v2\/groups\/g was sent/,
      );
    },
    clock.now,
  );
  // A call with time enough waits for the pause, then sends.
  const later = withCallDeadline(
    "reading h",
    60_000,
    async () => {
      const scope = (await import("./deadline")).currentCall()!;
      return slots.run(scope, "GET /iam/v2/groups/h", send);
    },
    clock.now,
  );
  await settle();
  expect([sends, slots.waiting]).toEqual([0, 1]);
  clock.advance(10_000);
  await later;
  expect([sends, slots.waiting, slots.inFlight]).toEqual([1, 0, 0]);
});

test("a 429 without Retry-After pauses no one: each request backs off on its own", async () => {
  const clock = fakeClock();
  const { sent, sends, get } = clientWith(4, clock);
  const first = get(0);
  await sends(1);
  sent[0].answer(429, RATE_LIMITED);
  const second = get(1);
  await sends(3);
  expect(sent.map((s) => s.req.url.split("/").pop()).sort()).toEqual(["g0", "g0", "g1"]);
  for (const s of sent.slice(1)) s.answer(200, { uid: "x" });
  await Promise.all([first, second]);
  expect(clock.sleeps).toHaveLength(1);
});

test("under a rate limit, creates refused more often than a request is otherwise sent wait their turn until they pass", async () => {
  const clock = fakeClock();
  const { sent, sends, client, peak } = clientWith(2, clock);
  const create = (i: number) =>
    withCallDeadline(
      `creating g${i}`,
      60_000,
      () => client.request<{ uid: string }>({ method: "POST", domain: "iam", path: "groups", body: { name: `g${i}` } }),
      clock.now,
    );
  const creates = [0, 1].map(create);
  // Each create refused 10 times (a request is otherwise sent at most 8), 1 s asked each time.
  for (let round = 0; round < 10; round++) {
    await sends(2 * round + 2);
    await settle();
    for (const s of sent.slice(2 * round)) s.answer(429, RATE_LIMITED, "1");
  }
  await sends(22);
  for (const s of sent.slice(20)) s.answer(200, { uid: (JSON.parse(s.req.body!) as { name: string }).name });
  expect((await Promise.all(creates)).map((r) => r.uid)).toEqual(["g0", "g1"]);
  expect(sent.map((s) => s.req.method)).toEqual(Array(22).fill("POST"));
  expect(peak()).toBe(2);
  expect(clock.sleeps).toEqual(Array(20).fill(1000));
});

test("errors pass through the bound unchanged, and the slot is freed", async () => {
  const clock = fakeClock();
  const { sent, sends, get } = clientWith(1, clock);
  const failing = get(0);
  await sends(1);
  sent[0].answer(403, { code: 7, message: "Permission denied" });
  await expect(failing).rejects.toBeInstanceOf(ApiError);
  const next = get(1);
  await sends(2);
  sent[1].answer(200, { uid: "g1" });
  await expect(next).resolves.toEqual({ uid: "g1" });
});
