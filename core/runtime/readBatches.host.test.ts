/**
 * Reads answered together (core/runtime/readBatches.ts) through the REAL dynamic-provider host, with
 * the `__provider` texts a program writes, against the emulator behind a proxy
 * (tests/support/readsProxy.ts).
 *
 * Overlap is made by the test, not by timing: the proxy holds the first GET of a kind; the test
 * then sends the other reads, and last a read of another kind (a role) whose GET the proxy lets
 * through. The host takes calls in the order they come on its one connection and queues each
 * read before it looks at anything that comes later, so once that GET reaches the proxy every
 * read sent before it is waiting in the provider. Only then is the held GET let go.
 */
import { BUILTIN_ROLES } from "../../emulator";
import { Harness, ResourceType, startHarness } from "../../tools/host/resourceHarness";
import {
  firstGetOf,
  ReadsProxy,
  readsProxy,
  ReadsProxyOptions,
  said,
  SeenRequest,
} from "../../tests/support/readsProxy";
import { ReadResult, startHost } from "../../tools/host/host";

jest.setTimeout(120_000);

const VIEWER = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const PARENT_FIELD: Record<ResourceType, string> = {
  Group: "parentUid",
  Identity: "parentUid",
  RoleBinding: "groupUid",
  Role: "parentUid",
};

let h: Harness;
let proxy: ReadsProxy;
const behaviour: ReadsProxyOptions = { upstream: "" };
/** Groups under three parents, identities under the first, a binding of each identity on it. */
const made: Record<"parents" | "groups" | "identities" | "bindings", Array<{ uid: string; parent: string }>> = {
  parents: [],
  groups: [],
  identities: [],
  bindings: [],
};

async function post(collection: string, parent: string, body: Record<string, unknown>) {
  const answer = await h.api("POST", `/iam/v2beta1/${collection}/${parent}`, body);
  if (answer.status !== 200)
    throw new Error(`POST ${collection}/${parent}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { uid: answer.body.uid as string, parent };
}

beforeAll(async () => {
  h = await startHarness();
  behaviour.upstream = h.emu.url;
  proxy = await readsProxy(behaviour);
  await h.host.configure({ "platform:apiUrl": proxy.url, "platform:token": h.emu.token });
  for (const p of [0, 1, 2]) made.parents.push(await post("groups", h.emu.rootUid, { name: `parent-${p}` }));
  for (const parent of made.parents)
    for (const g of [0, 1, 2]) made.groups.push(await post("groups", parent.uid, { name: `group-${g}` }));
  const home = made.parents[0].uid;
  for (const i of [0, 1, 2, 3]) {
    const identity = await post("identities", home, {
      name: `ci-${i}`,
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: `repo:acme/app-${i}:ref:refs/heads/main`,
      },
    });
    made.identities.push(identity);
    made.bindings.push(await post("roleBindings", home, { identityUid: identity.uid, roleUid: VIEWER }));
  }
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

/**
 * The proxy in front of the emulator, set up for one test: the host reads through it (a host
 * takes its settings once, when it first loads a provider, so the proxy stays and its behaviour
 * changes from test to test).
 */
function through(options: Omit<ReadsProxyOptions, "upstream">): ReadsProxy {
  behaviour.hold = options.hold;
  behaviour.forward = options.forward;
  behaviour.answer = options.answer;
  proxy.reset();
  return proxy;
}

const read = (type: ResourceType, record: { uid: string; parent?: string }): Promise<ReadResult> =>
  h.host.read(record.uid, h.urn(type, record.uid), {
    ...(record.parent === undefined ? {} : { [PARENT_FIELD[type]]: record.parent }),
    __provider: h.providers[type],
  });
/** The read that comes last: a role's, whose GET the proxy lets through. */
const marker = () => read("Role", { uid: VIEWER });
const isMarker = (r: SeenRequest) => said(r) === `GET roles/${VIEWER}`;

/** What each read answers alone: one after the other, each one GET. */
async function alone(reads: Array<() => Promise<ReadResult>>): Promise<ReadResult[]> {
  through({});
  const results: ReadResult[] = [];
  for (const r of reads) results.push(await r());
  expect(proxy.seen.map(said).every((s) => s.startsWith("GET"))).toBe(true);
  return results;
}

/**
 * Runs `reads` overlapping as the header says: the first held at the proxy, the rest sent, the
 * marker's GET seen, then the held GETs let go. Answers their results (the marker's left out).
 */
async function overlapping(heldCount: number, reads: Array<() => Promise<ReadResult>>) {
  const [first, ...rest] = reads;
  const results = [first()];
  await proxy.waitFor(() => true, 1);
  results.push(...rest.map((r) => r()));
  const last = marker();
  await proxy.waitFor(isMarker);
  expect(proxy.seen.length).toBe(heldCount + 1);
  proxy.release();
  const settled = await Promise.allSettled(results);
  await last;
  return settled;
}

const values = (settled: PromiseSettledResult<ReadResult>[]) =>
  settled.map((s) => (s.status === "fulfilled" ? s.value : { failed: String(s.reason) }));

test("reads of one kind under many parents that overlap: one GET, then one List of all the others' uids; each answered as its own GET answers it", async () => {
  const reads = made.groups.map((g) => () => read("Group", g));
  const expected = await alone(reads);
  through({ hold: firstGetOf("groups") });
  const settled = await overlapping(1, reads);
  expect(values(settled)).toEqual(expected);
  const [first, ...others] = made.groups.map((g) => g.uid);
  expect(proxy.seen.map(said)).toEqual([
    `GET groups/${first}`,
    `GET roles/${VIEWER}`,
    `LIST groups ${others.join(",")}`,
  ]);
  // Under three parents, in one List.
  expect(new Set(made.groups.slice(1).map((g) => g.parent)).size).toBe(3);
});

test("a mix of kinds: one List per kind, each kind's records checked as its own", async () => {
  const reads = [
    ...made.groups.slice(0, 3).map((g) => () => read("Group", g)),
    ...made.identities.map((i) => () => read("Identity", i)),
    ...made.bindings.map((b) => () => read("RoleBinding", b)),
  ];
  const expected = await alone(reads);
  through({ hold: firstGetOf("groups", "identities", "roleBindings") });
  // The first read of each kind goes first: its GET is held.
  const order = [0, 3, 7, 1, 2, 4, 5, 6, 8, 9, 10];
  const [a, b, c, ...rest] = order.map((i) => reads[i]);
  const results = [a(), b(), c()];
  await proxy.waitFor(() => true, 3);
  results.push(...rest.map((r) => r()));
  const last = marker();
  await proxy.waitFor(isMarker);
  proxy.release();
  const settled = await Promise.allSettled(results);
  await last;
  expect(values(settled)).toEqual(order.map((i) => expected[i]));
  const lists = proxy.seen.map(said).filter((s) => s.startsWith("LIST"));
  expect(lists.sort()).toEqual(
    [
      `LIST groups ${made.groups
        .slice(1, 3)
        .map((g) => g.uid)
        .join(",")}`,
      `LIST identities ${made.identities
        .slice(1)
        .map((i) => i.uid)
        .join(",")}`,
      `LIST roleBindings ${made.bindings
        .slice(1)
        .map((b) => b.uid)
        .join(",")}`,
    ].sort(),
  );
  expect(proxy.seen).toHaveLength(3 + 1 + 3);
});

test("a record deleted between the List and its GET is gone (its GET says so); one the List leaves out that still exists is read by its GET", async () => {
  const parent = made.parents[2].uid;
  const fresh = [];
  for (const name of ["keep-a", "deleted", "left-out", "keep-b"]) fresh.push(await post("groups", parent, { name }));
  const [keepA, deleted, leftOut, keepB] = fresh;
  const reads = [keepA, deleted, leftOut, keepB].map((g) => () => read("Group", g));
  const expected = await alone(reads);
  through({
    hold: firstGetOf("groups"),
    async answer(req, upstream) {
      if (!upstream || !said(req).startsWith("LIST groups")) return undefined;
      // The List is answered without two of its records, and one of them is deleted before its GET.
      await h.api("DELETE", `/iam/v2beta1/groups/${deleted.uid}`);
      const body = upstream.body as { groups: Array<{ uid: string }> };
      return {
        status: 200,
        body: { ...body, groups: body.groups.filter((g) => g.uid !== deleted.uid && g.uid !== leftOut.uid) },
      };
    },
  });
  const settled = values(await overlapping(1, reads));
  expect(settled[0]).toEqual(expected[0]);
  expect(settled[1]).toMatchObject({ id: "" });
  expect(settled[2]).toEqual(expected[2]);
  expect(settled[3]).toEqual(expected[3]);
  expect(proxy.seen.map(said).slice(2).sort()).toEqual(
    [
      `LIST groups ${[deleted, leftOut, keepB].map((g) => g.uid).join(",")}`,
      `GET groups/${deleted.uid}`,
      `GET groups/${leftOut.uid}`,
    ].sort(),
  );
});

test("a List that answers a page token: the next pages are asked with the same uids and the token, and every record is answered", async () => {
  const reads = made.groups.map((g) => () => read("Group", g));
  const expected = await alone(reads);
  through({
    hold: firstGetOf("groups"),
    // The service answers pages of two, whatever the size asked.
    forward: (req) => {
      if (!said(req).startsWith("LIST")) return req;
      const query = new URLSearchParams(req.query);
      query.set("page_size", "2");
      return { ...req, query };
    },
  });
  expect(values(await overlapping(1, reads))).toEqual(expected);
  const lists = proxy.seen.filter((r) => said(r).startsWith("LIST"));
  expect(lists).toHaveLength(4);
  const others = made.groups.slice(1).map((g) => g.uid);
  for (const [at, list] of lists.entries()) {
    expect(list.query.getAll("uidp.ids")).toEqual(others);
    expect(list.query.has("page_token")).toBe(at > 0);
  }
  expect(proxy.seen.filter((r) => said(r).startsWith("GET groups"))).toHaveLength(1);
});

test("a List refused while GETs are allowed: each read sends its own GET, and a GET refused fails its own read only", async () => {
  const reads = made.groups.map((g) => () => read("Group", g));
  const expected = await alone(reads);
  const refused = made.groups[4].uid;
  const denied = (what: string) => ({
    status: 403,
    body: { code: 7, message: `Permission denied: ${what}`, details: [] },
  });
  through({
    hold: firstGetOf("groups"),
    answer: (req, upstream) => {
      if (upstream) return undefined;
      if (said(req).startsWith("LIST groups")) return denied("the caller may not list groups");
      if (said(req) === `GET groups/${refused}`) return denied(`the caller lacks CAP_IAM_GROUPS_LIST on "${refused}"`);
      return undefined;
    },
  });
  const settled = values(await overlapping(1, reads));
  for (const [at, result] of settled.entries())
    if (at === 4)
      expect(result).toEqual({
        failed: expect.stringMatching(
          new RegExp(`reading group .*${refused}.*PERMISSION_DENIED: Permission denied: the caller lacks`),
        ),
      });
    else expect(result).toEqual(expected[at]);
  const seen = proxy.seen.map(said);
  expect(seen.filter((s) => s.startsWith("LIST"))).toHaveLength(1);
  expect(seen.filter((s) => s.startsWith("GET groups")).sort()).toEqual(
    made.groups.map((g) => `GET groups/${g.uid}`).sort(),
  );
});

test("platform:batchReads false: one GET per read, however they overlap", async () => {
  // A host of its own: a host takes its settings once.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
  const host = await startHost({ cwd: h.staged.dir, env });
  try {
    await host.configure({
      "platform:apiUrl": proxy.url,
      "platform:token": h.emu.token,
      "platform:batchReads": "false",
    });
    through({ hold: firstGetOf("groups") });
    const results = made.groups.map((g) =>
      host.read(g.uid, h.urn("Group", g.uid), { parentUid: g.parent, __provider: h.providers.Group }),
    );
    await proxy.waitFor((r) => said(r).startsWith("GET groups"), made.groups.length);
    proxy.release();
    await Promise.all(results);
    expect(proxy.seen.map(said).sort()).toEqual(made.groups.map((g) => `GET groups/${g.uid}`).sort());
  } finally {
    await host.close();
  }
});
