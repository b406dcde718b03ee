/**
 * Every search for a record walks every page of its List, for every kind that has one: adoption
 * (`adopt: true`) and the search after a lost create, through the REAL dynamic-provider host.
 * Each kind gets 201 siblings under one parent, shared by its tests (made by the first that runs);
 * a proxy in front of the emulator plays a service that filters loosely (only by place) and orders
 * by creation, so the record looked for is the newest of more than 200 and always on the second page
 * of 200; and one that answers fewer per page than asked (7, 50).
 */
import { ManagedKind, managedKinds } from "../bench/kinds";
import { FaultProxy, faultProxy } from "../tests/support/faultProxy";
import { KIND_CASES as CASES, Place, freshGroup, made, many } from "../tests/support/kindCases";
import { Harness, startHarness } from "../tools/host/resourceHarness";

jest.setTimeout(120_000);

let h: Harness;
let proxy: FaultProxy;
let kinds: Record<string, ManagedKind>;
/** The first POST of a test is answered by the service, then its answer is cut. */
let loseNextPost = false;
/** Pages the service answers when asked for 200 (a service with a smaller maximum); 200 when unset. */
let servedPageSize: number | undefined;
/** One more than a page of 200, so the newest record is always on the second page. */
const SIBLINGS = 201;
/** The filters a loose service ignores: all but the place (a parent, an identity provider). */
const KEY_FILTERS = ["name", "identity", "role", "overlay"];

beforeAll(async () => {
  h = await startHarness();
  kinds = Object.fromEntries((await managedKinds(h)).map((kind) => [kind.typeName, kind]));
  proxy = await faultProxy(h.emu.url, {
    decide: (req) => {
      if (req.method !== "POST" || !loseNextPost) return "pass";
      loseNextPost = false;
      return "dropAfter";
    },
    rewrite: ({ method, path, query }) => {
      const listed = new URLSearchParams(query);
      if (method !== "GET" || path.split("/").length !== 4) return listed;
      for (const filter of KEY_FILTERS) listed.delete(filter);
      listed.set("order_by", "created_at");
      if (servedPageSize !== undefined) listed.set("page_size", String(servedPageSize));
      return listed;
    },
  });
  await h.host.configure({ "platform:apiUrl": proxy.url, "platform:token": h.emu.token });
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

const crowds = new Map<string, Promise<Place>>();
/**
 * A group with `SIBLINGS` records of the kind under its place, made in creation order, once per
 * kind: each test adds its own record past them (SIBLINGS, + 1, + 2), the newest when it is made.
 */
function crowded(type: string): Promise<Place> {
  let crowd = crowds.get(type);
  if (!crowd) {
    crowd = (async () => {
      const place = await CASES[type].place(h, await freshGroup(h, `crowd-${type}`), SIBLINGS + 3);
      await many(SIBLINGS, (i) => made(h, `${CASES[type].collection}/${place.parent}`, place.body(i)));
      return place;
    })();
    crowds.set(type, crowd);
  }
  return crowd;
}

/** The List requests the emulator saw for the kind's collection, by page: the second carries a page token. */
const listed = (type: string) =>
  h.emu.requests().filter((r) => r.method === "GET" && r.path === CASES[type].collection);

const create = (type: string, inputs: Record<string, unknown>) =>
  h.host.create(kinds[type].urn(`paged-${type}`), { ...inputs, __provider: kinds[type].providerText });

test("every kind with a search has a case here", () => {
  expect(Object.keys(CASES).sort()).toEqual(
    Object.keys(kinds)
      .filter((type) => type !== "ScimToken")
      .sort(),
  );
});

/**
 * The kinds whose record has siblings to search among. One keyed by its parent (an account
 * association: its uid is its group's, one per group) is asked for by that uid and has none.
 */
const SEARCHED = Object.keys(CASES).filter((type) => type !== "AccountAssociation");

test("a kind keyed by its parent is the only one left out of the paging cases, and says so", () => {
  expect(Object.keys(kinds).filter((type) => kinds[type].keyedByParent)).toEqual(["AccountAssociation"]);
});

test.each(SEARCHED)("%s: adoption finds the record past the first page of 200", async (type) => {
  const place = await crowded(type);
  const target = await made(h, `${CASES[type].collection}/${place.parent}`, place.body(SIBLINGS));
  h.emu.clearRequests();
  const adopted = await create(type, { ...place.inputs(SIBLINGS), adopt: true });
  expect(adopted).toMatchObject({ id: target.uid, props: { adopted: true } });
  const pages = listed(type);
  expect(pages.length).toBeGreaterThanOrEqual(2);
  expect(pages[1].query.page_token).toEqual(expect.any(String));
  // Nothing was created: no POST succeeded.
  expect(h.emu.requests().filter((r) => r.method === "POST" && r.status === 200)).toEqual([]);
});

test.each(SEARCHED)("%s: the search after a lost create finds it past the first page", async (type) => {
  const place = await crowded(type);
  h.emu.clearRequests();
  loseNextPost = true;
  const created = await create(type, place.inputs(SIBLINGS + 1));
  expect(proxy.lost.at(-1)).toMatchObject({ method: "POST", status: 200 });
  const lostUid = proxy.lost.at(-1)!.body.uid as string;
  const kept = h.emu
    .requests()
    .filter((r) => r.method === "GET" && r.path === CASES[type].collection && r.query.page_token !== undefined);
  expect(kept.length).toBeGreaterThanOrEqual(1);
  if (type === "GroupInvite") {
    // Its code is answered only to the create: the invite the lost create made is deleted, one more is made.
    expect(created.id).not.toBe(lostUid);
    expect(created.props.code).toEqual(expect.any(String));
    expect((await h.api("GET", `${CASES[type].collection}/${lostUid}`)).status).toBe(404);
  } else {
    expect(created.id).toBe(lostUid);
  }
  const posts = h.emu.requests().filter((r) => r.method === "POST");
  expect(posts).toHaveLength(type === "GroupInvite" ? 2 : 1);
});

test.each([
  ["Group", 7],
  ["RoleBinding", 50],
  ["GroupInvite", 7],
  ["Subscription", 50],
])("%s: adoption walks every page of a service that answers %i per page", async (type, size) => {
  const place = await crowded(type);
  const target = await made(h, `${CASES[type].collection}/${place.parent}`, place.body(SIBLINGS + 2));
  h.emu.clearRequests();
  servedPageSize = size;
  try {
    const adopted = await create(type, { ...place.inputs(SIBLINGS + 2), adopt: true });
    expect(adopted).toMatchObject({ id: target.uid, props: { adopted: true } });
  } finally {
    servedPageSize = undefined;
  }
  expect(listed(type).length).toBeGreaterThanOrEqual(Math.ceil((SIBLINGS + 1) / size));
});
