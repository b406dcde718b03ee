/**
 * The batching of reads (provider/readBatches.ts) with a client the test answers request by
 * request: which requests go, with what, and when, is decided by the order of the test's own
 * steps (a GET held, reads made meanwhile, the GET answered), never by time. The same through the
 * real dynamic-provider host and under the real CLI: provider/readBatches.host.test.ts and
 * tests/realCli/driftCheck.realCli.test.ts.
 */
import type { ApiClient, ApiRequest } from "./client";
import { currentCall, DeadlineExceededError, withCallDeadline } from "./deadline";
import { ApiError } from "./errors";
import { MAX_IDS_QUERY_CHARS, readBatches, readGathering, ReadGathering } from "./readBatches";
import { fakeClock, FakeClock } from "../tests/support/fakeClock";

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

test("deadlines: the List ends when the first of its reads' calls does, and a read still waiting at its own deadline fails", async () => {
  const clock = fakeClock();
  const s = scripted({ clock });
  const first = s.read("org/a", 60_000);
  await s.requests(1);
  const soon = s.read("org/b", 10_000);
  const later = s.read("org/c", 30_000);
  const failed = expect(soon).rejects.toThrow(
    /no answer within 10 s \(platform:timeout\); it was waiting to be read with other groups by one List/,
  );
  await turn();
  clock.advance(10_000);
  await failed;
  await expect(soon).rejects.toBeInstanceOf(DeadlineExceededError);
  s.asked[0].answer(record("org/a"));
  await s.requests(2);
  // b gave up; c, left alone, is read by its own GET.
  expect(s.said()[1]).toBe("GET groups/org/c");
  s.asked[1].answer(record("org/c"));
  await later;
  await first;

  // The List's call: the earliest deadline of the reads it answers.
  const t = scripted({ clock });
  const a = t.read("org/a", 60_000);
  await t.requests(1);
  const reads = [t.read("org/b", 50_000), t.read("org/c", 20_000), t.read("org/d", 40_000)];
  const started = clock.now();
  t.asked[0].answer(record("org/a"));
  await t.requests(2);
  expect(t.asked[1].deadline).toBe(started + 20_000);
  t.asked[1].answer(list("org/b", "org/c", "org/d"));
  await Promise.all([a, ...reads]);
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
