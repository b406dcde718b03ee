/**
 * The batching of reads (core/runtime/readBatches.ts) with a client the test answers request by
 * request: which requests go, with what, and when, is decided by the order of the test's own
 * steps (a GET held, reads made meanwhile, the GET answered), never by time. The same through the
 * real dynamic-provider host and under the real CLI: core/runtime/readBatches.host.test.ts and
 * tests/realCli/driftCheck.realCli.test.ts.
 */
import type { ApiClient, ApiRequest } from "../transport/client";
import { currentCall, DeadlineExceededError, withCallDeadline } from "../transport/deadline";
import { ApiError } from "../common/errors";
import { createClient } from "../transport/client";
import {
  LIST_SHARE,
  MAX_IDS_QUERY_CHARS,
  MAX_LIST_MS,
  MIN_WAIT_MS,
  readBatches,
  readGathering,
  ReadGathering,
} from "./readBatches";
import { HttpAnswer, SendFailure, SendLimits, Transport } from "../transport/transport";
import { fakeClock, FakeClock, seededRandom } from "../../tests/support/fakeClock";

interface Asked {
  req: ApiRequest;
  /** The deadline of the call the request was made in. */
  deadline?: number;
  answer(body: unknown): void;
  fail(error: unknown): void;
}

const KIND = { domain: "iam", collection: "groups", noun: "group" };

/** No engine owes reads: the waiting reads go as soon as nothing of their kind is in flight. */
const NO_ENGINE: ReadGathering = {
  owed: 0,
  arrived: () => {},
  answered: () => {},
  forget: () => {},
  gather: () => {},
  stop: () => {},
};

/** A client whose requests wait until the test answers them, and the batcher of one kind on it. */
function scripted(options: { batchReads?: boolean; clock?: FakeClock; gathering?: ReadGathering } = {}) {
  const asked: Asked[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const client: ApiClient = {
    request<T>(req: ApiRequest): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        asked.push({ req, deadline: currentCall()?.deadline, answer: (body) => resolve(body as T), fail: reject });
        for (const w of waiters.filter((w) => asked.length >= w.count)) w.resolve();
      });
    },
    ...(options.batchReads === undefined ? {} : { batchReads: () => options.batchReads! }),
  };
  const get = (uid: string) => client.request({ method: "GET", domain: "iam", path: `groups/${uid}` });
  const clock = options.clock ?? fakeClock();
  const gathering = options.gathering ?? NO_ENGINE;
  const batches = readBatches(KIND, () => client, get, { clock, gathering });
  const read = (uid: string, budgetMs = 60_000) =>
    withCallDeadline(`reading group ${uid}`, budgetMs, () => batches.read(uid), clock.now);
  return {
    asked,
    read,
    clock,
    gathering,
    /** Resolves once `count` requests have been made. */
    requests: (count: number) =>
      asked.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    /** "GET groups/a" or "LIST a,b,c". */
    said: () =>
      asked.map(({ req }) =>
        req.path.includes("/")
          ? `GET ${req.path}`
          : `LIST ${([] as string[]).concat(req.query?.["uidp.ids"] as string[]).join(",")}`,
      ),
  };
}

const record = (uid: string) => ({ uid, name: uid.split("/").pop(), description: "" });
const list = (...uids: string[]) => ({ groups: uids.map(record), totalCount: String(uids.length) });
const notFound = (uid: string) =>
  new ApiError({
    code: 5,
    httpStatus: 404,
    method: "GET",
    path: `/iam/v2/groups/${uid}`,
    serviceMessage: "Not found",
    resourceName: uid,
    askedUid: uid,
  });
/** Lets every callback already due run: promise callbacks and the batcher's turn (no timer, no I/O). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

test("a read alone is one GET, as it always was", async () => {
  const s = scripted();
  const reading = s.read("org/a");
  await s.requests(1);
  s.asked[0].answer(record("org/a"));
  expect(await reading).toEqual(record("org/a"));
  expect(s.said()).toEqual(["GET groups/org/a"]);
});

test("reads that arrive while one of their kind is in flight wait, and go as one List of their uids when it ends", async () => {
  const s = scripted();
  const first = s.read("org/a");
  await s.requests(1);
  const others = ["org/b", "org/c", "other/d"].map((uid) => s.read(uid));
  await turn();
  expect(s.said()).toEqual(["GET groups/org/a"]);
  s.asked[0].answer(record("org/a"));
  await s.requests(2);
  expect(s.said()).toEqual(["GET groups/org/a", "LIST org/b,org/c,other/d"]);
  expect(s.asked[1].req).toMatchObject({ method: "GET", domain: "iam", path: "groups", query: { page_size: 3 } });
  // The List answers in its own order; each read gets its own record.
  s.asked[1].answer(list("other/d", "org/b", "org/c"));
  expect(await Promise.all([first, ...others])).toEqual(["org/a", "org/b", "org/c", "other/d"].map(record));
  expect(s.asked).toHaveLength(2);
});

test("a record the List does not answer is read by its own GET, and only that GET's NOT_FOUND says it is gone", async () => {
  const s = scripted();
  const first = s.read("org/a");
  await s.requests(1);
  const [b, c, d] = ["org/b", "org/c", "org/d"].map((uid) => s.read(uid));
  s.asked[0].answer(record("org/a"));
  await s.requests(2);
  // b was deleted before the List; c is one the List leaves out though it exists (not listable, say).
  s.asked[1].answer(list("org/d"));
  await s.requests(4);
  expect(s.said().slice(2).sort()).toEqual(["GET groups/org/b", "GET groups/org/c"]);
  s.asked.find((a) => a.req.path === "groups/org/b")!.fail(notFound("org/b"));
  s.asked.find((a) => a.req.path === "groups/org/c")!.answer(record("org/c"));
  await expect(b).rejects.toMatchObject({ recordGone: true });
  expect(await c).toEqual(record("org/c"));
  expect(await d).toEqual(record("org/d"));
  await first;
});

test("a List that fails answers nothing: each read sends its own GET, and one record's error stays its own", async () => {
  for (const failure of [
    new ApiError({
      code: 7,
      httpStatus: 403,
      method: "GET",
      path: "/iam/v2/groups",
      serviceMessage: "Permission denied: list",
    }),
    "not a List's answer",
  ]) {
    const s = scripted();
    const first = s.read("org/a");
    await s.requests(1);
    const [b, c] = ["org/b", "org/c"].map((uid) => s.read(uid));
    s.asked[0].answer(record("org/a"));
    await s.requests(2);
    if (typeof failure === "string") s.asked[1].answer({ groups: "nothing" });
    else s.asked[1].fail(failure);
    await s.requests(4);
    expect(s.said().slice(2).sort()).toEqual(["GET groups/org/b", "GET groups/org/c"]);
    const denied = new ApiError({
      code: 7,
      httpStatus: 403,
      method: "GET",
      path: "/iam/v2/groups/org/b",
      serviceMessage: "Permission denied: b",
    });
    s.asked.find((a) => a.req.path === "groups/org/b")!.fail(denied);
    s.asked.find((a) => a.req.path === "groups/org/c")!.answer(record("org/c"));
    await expect(b).rejects.toBe(denied);
    expect(await c).toEqual(record("org/c"));
    await first;
  }
});

test("a List that answers a page token is asked for the next page with the same uids and the token", async () => {
  const s = scripted();
  const first = s.read("org/a");
  await s.requests(1);
  const rest = ["org/b", "org/c", "org/d"].map((uid) => s.read(uid));
  s.asked[0].answer(record("org/a"));
  await s.requests(2);
  s.asked[1].answer({ ...list("org/b", "org/c"), nextPageToken: "page-2" });
  await s.requests(3);
  expect(s.said()[2]).toBe("LIST org/b,org/c,org/d");
  expect(s.asked[2].req.query).toMatchObject({ page_token: "page-2", page_size: 3 });
  s.asked[2].answer(list("org/d"));
  expect(await Promise.all(rest)).toEqual(["org/b", "org/c", "org/d"].map(record));
  expect(s.asked).toHaveLength(3);
  await first;
});

test("a page that brings nothing asked for ends the walk: what is left is read alone", async () => {
  const s = scripted();
  const first = s.read("org/a");
  await s.requests(1);
  const rest = ["org/b", "org/c"].map((uid) => s.read(uid));
  s.asked[0].answer(record("org/a"));
  await s.requests(2);
  s.asked[1].answer({ ...list("org/b"), nextPageToken: "page-2" });
  await s.requests(3);
  s.asked[2].answer({ ...list("org/z"), nextPageToken: "page-3" });
  await s.requests(4);
  expect(s.said()[3]).toBe("GET groups/org/c");
  s.asked[3].answer(record("org/c"));
  expect(await Promise.all(rest)).toEqual(["org/b", "org/c"].map(record));
  await first;
});

test("uids that would make a List's URL too long go in several Lists at once, none longer than the limit", async () => {
  const s = scripted();
  const first = s.read("org/a");
  await s.requests(1);
  const deep = (i: number) => `${"a".repeat(16)}/${"b".repeat(16)}/${i.toString(16).padStart(16, "0")}`;
  const uids = Array.from({ length: 120 }, (_, i) => deep(i));
  const reads = uids.map((uid) => s.read(uid));
  s.asked[0].answer(record("org/a"));
  await s.requests(2);
  await turn();
  const lists = s.asked.slice(1);
  expect(lists.length).toBeGreaterThanOrEqual(3);
  expect(lists.flatMap((l) => l.req.query?.["uidp.ids"] as string[])).toEqual(uids);
  for (const l of lists) {
    const ids = l.req.query?.["uidp.ids"] as string[];
    expect(
      new URLSearchParams(ids.map((id): [string, string] => ["uidp.ids", id])).toString().length,
    ).toBeLessThanOrEqual(MAX_IDS_QUERY_CHARS);
    l.answer(list(...ids));
  }
  expect((await Promise.all(reads)).map((r: any) => r.uid)).toEqual(uids);
  await first;
});

test("two resources of one record share its place in the List", async () => {
  const s = scripted();
  const first = s.read("org/a");
  await s.requests(1);
  const twice = [s.read("org/b"), s.read("org/b"), s.read("org/c")];
  s.asked[0].answer(record("org/a"));
  await s.requests(2);
  expect(s.said()[1]).toBe("LIST org/b,org/c");
  s.asked[1].answer(list("org/b", "org/c"));
  expect(await Promise.all(twice)).toEqual([record("org/b"), record("org/b"), record("org/c")]);
  await first;
});

test("deadlines: the List's call is its own, a quarter of its earliest read's time left at most MAX_LIST_MS", async () => {
  const clock = fakeClock();
  const t = scripted({ clock });
  const a = t.read("org/a", 60_000);
  await t.requests(1);
  const reads = [t.read("org/b", 50_000), t.read("org/c", 20_000), t.read("org/d", 200_000)];
  const started = clock.now();
  t.asked[0].answer(record("org/a"));
  await t.requests(2);
  expect(t.asked[1].deadline).toBe(started + 20_000 * LIST_SHARE);
  t.asked[1].answer(list("org/b", "org/c", "org/d"));
  await Promise.all([a, ...reads]);

  // Reads with time to spare: the List still ends after MAX_LIST_MS.
  const u = scripted({ clock });
  const e = u.read("org/e", 600_000);
  await u.requests(1);
  const more = [u.read("org/f", 600_000), u.read("org/g", 600_000)];
  u.asked[0].answer(record("org/e"));
  await u.requests(2);
  expect(u.asked[1].deadline).toBe(clock.now() + MAX_LIST_MS);
  u.asked[1].answer(list("org/f", "org/g"));
  await Promise.all([e, ...more]);
});

/**
 * The batcher on the real client and send loop, over a transport the test answers send by send
 * on a fake clock: what a hung, refused or rate-limited List costs its reads, in sends and time.
 */
function wired() {
  const clock = fakeClock();
  interface Sent {
    said: string;
    limits: SendLimits;
    sentAt: number;
    answer(status: number, body: unknown, retryAfter?: string): void;
    cut(): void;
  }
  const sends: Sent[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const transport: Transport = {
    send(req, limits) {
      return new Promise<HttpAnswer>((resolve, reject) => {
        const url = new URL(req.url);
        const uid = decodeURIComponent(url.pathname.split("/groups/")[1] ?? "");
        // A send the service never answers ends at its call's deadline, as the real transport's does.
        const timer = clock.timer(limits.deadlineMs ?? Infinity, () =>
          reject(new SendFailure("ABORTED", true, "the call's deadline passed")),
        );
        sends.push({
          said: uid ? `GET ${uid}` : `LIST ${url.searchParams.getAll("uidp.ids").join(",")}`,
          limits,
          sentAt: clock.now(),
          answer(status, body, retryAfter) {
            timer.cancel();
            resolve({ status, contentType: "application/json", text: JSON.stringify(body), retryAfter });
          },
          cut() {
            timer.cancel();
            reject(new SendFailure("ECONNRESET", true, "the connection was reset"));
          },
        });
        for (const w of waiters.filter((w) => sends.length >= w.count)) w.resolve();
      });
    },
    close: async () => {},
  };
  const client = createClient(
    { apiUrl: "http://api.test", authUrl: "http://api.test", apiVersion: "v2beta1", token: "t" },
    { transport, clock, random: seededRandom(7) },
  );
  const get = (uid: string) => client.request({ method: "GET", domain: "iam", path: `groups/${uid}` });
  const batches = readBatches({ ...KIND, noun: "group" }, () => client, get, { clock, gathering: NO_ENGINE });
  const read = (uid: string, budgetMs = 60_000, accepts?: (record: unknown) => boolean) =>
    withCallDeadline(`reading group ${uid}`, budgetMs, () => batches.read(uid, accepts), clock.now);
  const sent = (count: number) =>
    sends.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }));
  /** A GET of org/a held while b and c come, then answered: b and c go as one List (the last send). */
  const listOfBC = async (budgetMs = 60_000) => {
    const a = read("org/a", budgetMs);
    await sent(1);
    const others = [read("org/b", budgetMs), read("org/c", budgetMs)];
    await turn();
    sends[0].answer(200, record("org/a"));
    await sent(2);
    expect(sends[1].said).toBe("LIST org/b,org/c");
    return { a, others };
  };
  return { clock, sends, read, sent, listOfBC, said: () => sends.map((s) => s.said) };
}

test("a read never waits behind a hung GET longer than its own short bound: then it sends its own GET", async () => {
  const w = wired();
  const hung = w.read("org/a", 60_000);
  await w.sent(1);
  const b = w.read("org/b", 60_000);
  await turn();
  w.clock.advance(MIN_WAIT_MS - 1);
  await turn();
  expect(w.said()).toEqual(["GET org/a"]);
  w.clock.advance(1);
  await w.sent(2);
  expect(w.said()).toEqual(["GET org/a", "GET org/b"]);
  w.sends[1].answer(200, record("org/b"));
  expect(await b).toEqual(record("org/b"));
  // Only the hung record fails, at its own deadline.
  w.clock.advance(60_000);
  await expect(hung).rejects.toBeInstanceOf(DeadlineExceededError);
});

test("a hung List ends at its own short deadline: its reads send their GETs with most of their deadline left", async () => {
  const w = wired();
  const { a, others } = await w.listOfBC(60_000);
  const listAt = w.clock.now();
  expect(w.sends[1].limits.deadlineMs).toBe(MAX_LIST_MS);
  w.clock.advance(MAX_LIST_MS);
  await w.sent(4);
  expect(w.said().slice(2).sort()).toEqual(["GET org/b", "GET org/c"]);
  expect(w.said().filter((s) => s.startsWith("LIST"))).toHaveLength(1);
  for (const get of w.sends.slice(2)) {
    expect(get.sentAt).toBe(listAt + MAX_LIST_MS);
    expect(get.limits.deadlineMs).toBeGreaterThanOrEqual(60_000 * 0.75);
  }
  for (const get of w.sends.slice(2)) get.answer(200, record(get.said.slice(4)));
  expect(await Promise.all([a, ...others])).toEqual(["org/a", "org/b", "org/c"].map(record));
});

test("a List refused (500) or cut off is sent once more at most, then its reads send their own GETs", async () => {
  for (const refuse of ["500", "cut"] as const) {
    const w = wired();
    const { a, others } = await w.listOfBC();
    for (const at of [1, 2]) {
      await w.sent(at + 1);
      expect(w.sends[at].said).toBe("LIST org/b,org/c");
      if (refuse === "500") w.sends[at].answer(500, { code: 13, message: "internal" });
      else w.sends[at].cut();
    }
    await w.sent(5);
    expect(w.said().slice(3).sort()).toEqual(["GET org/b", "GET org/c"]);
    for (const get of w.sends.slice(3)) get.answer(200, record(get.said.slice(4)));
    expect(await Promise.all([a, ...others])).toEqual(["org/a", "org/b", "org/c"].map(record));
    // One backoff between the two Lists, nothing more.
    expect(w.clock.sleeps).toHaveLength(1);
  }
});

test("a List answered 429 with a Retry-After past its own deadline is not waited, and its pause holds back no GET", async () => {
  const w = wired();
  const { a, others } = await w.listOfBC();
  const at = w.clock.now();
  w.sends[1].answer(429, { code: 8, message: "slow down" }, "20");
  await w.sent(4);
  // At once: the reads' GETs go without waiting the 20 s the List was asked to.
  expect(w.clock.now()).toBe(at);
  expect(w.clock.sleeps).toEqual([]);
  expect(w.said().slice(2).sort()).toEqual(["GET org/b", "GET org/c"]);
  for (const get of w.sends.slice(2)) get.answer(200, record(get.said.slice(4)));
  expect(await Promise.all([a, ...others])).toEqual(["org/a", "org/b", "org/c"].map(record));

  // A Retry-After the List can afford is waited once, by the List alone.
  const v = wired();
  const second = await v.listOfBC();
  v.sends[1].answer(429, { code: 8, message: "slow down" }, "1");
  await v.sent(3);
  expect(v.clock.sleeps).toEqual([1000]);
  v.sends[2].answer(200, list("org/b", "org/c"));
  expect(await Promise.all([second.a, ...second.others])).toEqual(["org/a", "org/b", "org/c"].map(record));
});

test("a List that answers a record twice with different contents: that record is read by its own GET", async () => {
  const w = wired();
  const { a, others } = await w.listOfBC();
  const changed = { ...record("org/b"), description: "not what the first copy says" };
  w.sends[1].answer(200, { groups: [record("org/b"), record("org/c"), changed, record("org/c")] });
  await w.sent(3);
  expect(w.said()).toEqual(["GET org/a", "LIST org/b,org/c", "GET org/b"]);
  w.sends[2].answer(200, changed);
  expect(await Promise.all([a, ...others])).toEqual([record("org/a"), changed, record("org/c")]);
});

test("a List whose record lacks a field every GET of the kind carried: that record is read by its own GET", async () => {
  const w = wired();
  const { a, others } = await w.listOfBC();
  const { description: _left, ...bare } = record("org/b");
  w.sends[1].answer(200, { groups: [bare, record("org/c")] });
  await w.sent(3);
  expect(w.said()).toEqual(["GET org/a", "LIST org/b,org/c", "GET org/b"]);
  w.sends[2].answer(200, record("org/b"));
  expect(await Promise.all([a, ...others])).toEqual(["org/a", "org/b", "org/c"].map(record));
});

test("a List's record the reader does not accept (not in its place) is read by its own GET", async () => {
  const w = wired();
  const a = w.read("org/a");
  await w.sent(1);
  const b = w.read("org/b", 60_000, (r) => (r as { name?: string }).name === "b");
  const c = w.read("org/c");
  await turn();
  w.sends[0].answer(200, record("org/a"));
  await w.sent(2);
  w.sends[1].answer(200, { groups: [{ ...record("org/b"), name: "elsewhere" }, record("org/c")] });
  await w.sent(3);
  expect(w.said()[2]).toBe("GET org/b");
  w.sends[2].answer(200, record("org/b"));
  expect(await Promise.all([a, b, c])).toEqual(["org/a", "org/b", "org/c"].map(record));
});

test("platform:batchReads false: one GET per read, whatever overlaps", async () => {
  const s = scripted({ batchReads: false });
  const reads = ["org/a", "org/b", "org/c"].map((uid) => s.read(uid));
  await s.requests(3);
  expect(s.said()).toEqual(["GET groups/org/a", "GET groups/org/b", "GET groups/org/c"]);
  for (const a of s.asked) a.answer(record(a.req.path.slice("groups/".length)));
  await Promise.all(reads);
});

test("gathering: the waiting reads wait for the reads the engine owes (one per read answered), or a round trip of time", async () => {
  const clock = fakeClock();
  const gathering = readGathering();
  const s = scripted({ clock, gathering });
  const a = s.read("org/a");
  await s.requests(1);
  const [b, c] = [s.read("org/b"), s.read("org/c")];
  clock.advance(40);
  s.asked[0].answer(record("org/a"));
  await a;
  // a's worker is free: its next read is owed, so b and c wait for it.
  expect(gathering.owed).toBe(1);
  await turn();
  expect(s.asked).toHaveLength(1);
  const d = s.read("org/d");
  await s.requests(2);
  expect(s.said()[1]).toBe("LIST org/b,org/c,org/d");
  s.asked[1].answer(list("org/b", "org/c", "org/d"));
  await Promise.all([b, c, d]);
  expect(gathering.owed).toBe(3);

  // Nothing more comes: after the kind's last round trip (here 0 ms of the fake clock), e goes
  // alone, as the GET it always was.
  const e = s.read("org/e");
  await turn();
  await turn();
  expect(s.asked).toHaveLength(2);
  clock.advance(0);
  await s.requests(3);
  expect(s.said()[2]).toBe("GET groups/org/e");
  expect(gathering.owed).toBe(0);
  s.asked[2].answer(record("org/e"));
  await e;
});

test("gathering: a read that comes while the engine owes reads waits for them, though nothing of its kind is in flight", async () => {
  const clock = fakeClock();
  const gathering = readGathering();
  const s = scripted({ clock, gathering });
  const a = s.read("org/a");
  await s.requests(1);
  s.asked[0].answer(record("org/a"));
  await a;
  // a's worker comes back with b; c and d were on their way.
  gathering.answered();
  gathering.answered();
  expect(gathering.owed).toBe(3);
  const [b, c] = [s.read("org/b"), s.read("org/c")];
  await turn();
  expect(s.asked).toHaveLength(1);
  const d = s.read("org/d");
  await s.requests(2);
  expect(s.said()[1]).toBe("LIST org/b,org/c,org/d");
  s.asked[1].answer(list("org/b", "org/c", "org/d"));
  await Promise.all([b, c, d]);
});
