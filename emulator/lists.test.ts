import { startEmulator, RunningEmulator } from "./index";
import { call, detail, G } from "../tests/support/emulatorClient";

let emu: RunningEmulator;
/** 60 groups under team "lists" (names shuffled), plus a nested subtree. */
let team: any;
let nested: any;
let deep: any;
const N = 60;

async function create(parent: string, name: string) {
  const reply = await call(emu, "POST", `${G}/${parent}`, { body: { name } });
  expect(reply.status).toBe(200);
  return reply.body;
}

async function collect(query: Record<string, string | number | string[]>, path = G, key = "groups") {
  const items: any[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const reply = await call(emu, "GET", path, { query: token ? { ...query, page_token: token } : query });
    expect(reply.status).toBe(200);
    items.push(...reply.body[key]);
    token = reply.body.nextPageToken;
    pages++;
  } while (token);
  return { items, pages };
}

beforeAll(async () => {
  emu = await startEmulator({ seed: false, quiet: true });
  team = await create(emu.rootUid, "lists");
  const names = Array.from({ length: N }, (_, i) => `g${String((i * 37) % N).padStart(3, "0")}`);
  for (const name of names) {
    await create(team.uid, name);
    emu.advanceClock(10); // distinct create times
  }
  nested = await create(team.uid, "nested");
  deep = await create(nested.uid, "deep");
});
afterAll(() => emu.close());

describe("envelope and page size", () => {
  test("plural key, totalCount as a decimal string, skipped 0, nextPageToken while results remain", async () => {
    const reply = await call(emu, "GET", G, { query: { "uidp.children_of": team.uid } });
    expect(reply.body.groups).toHaveLength(50);
    expect(reply.body.totalCount).toBe(String(N + 1));
    expect(reply.body.skipped).toBe(0);
    expect(typeof reply.body.nextPageToken).toBe("string");
  });

  test("nextPageToken is absent on the last page", async () => {
    const reply = await call(emu, "GET", G, { query: { "uidp.children_of": team.uid, page_size: 100 } });
    expect(reply.body.groups).toHaveLength(N + 1);
    expect("nextPageToken" in reply.body).toBe(false);
  });

  test("page_size=0 means the default of 50", async () => {
    const reply = await call(emu, "GET", G, { query: { "uidp.children_of": team.uid, page_size: 0 } });
    expect(reply.body.groups).toHaveLength(50);
  });

  test("uidp.in_root=true keeps only root-level records (organizations), by either spelling", async () => {
    for (const key of ["uidp.in_root", "uidp.inRoot"]) {
      const reply = await call(emu, "GET", G, { query: { [key]: "true", page_size: 200 } });
      expect(reply.body.groups.map((g: any) => g.uid)).toEqual([emu.rootUid]);
    }
    const roles = await call(emu, "GET", "/iam/v2/roles", { query: { "uidp.inRoot": "true" } });
    expect(roles.body.roles.map((r: any) => r.name).sort()).toEqual(["editor", "owner", "viewer"]);
  });

  test("page_size above 200 is clamped to 200", async () => {
    const fresh = await startEmulator({ seed: false, quiet: true, bulk: { groups: 450 } });
    try {
      const reply = await call(fresh, "GET", G, { query: { page_size: 1000 } });
      expect(reply.status).toBe(200);
      expect(reply.body.groups).toHaveLength(200);
      expect(reply.body.totalCount).toBe("451");
      const exact = await call(fresh, "GET", G, { query: { page_size: 200 } });
      expect(exact.body.groups).toHaveLength(200);
    } finally {
      await fresh.close();
    }
  });

  test.each([["-1"], ["abc"], ["1.5"]])("page_size=%s is INVALID_ARGUMENT naming page_size", async (value) => {
    const reply = await call(emu, "GET", G, { query: { page_size: value } });
    expect(reply.status).toBe(400);
    expect(detail(reply.body, "BadRequest")?.fieldViolations[0].field).toBe("page_size");
  });

  test("skip that is not a non-negative integer is INVALID_ARGUMENT naming skip", async () => {
    const reply = await call(emu, "GET", G, { query: { skip: "-3" } });
    expect(detail(reply.body, "BadRequest")?.fieldViolations[0].field).toBe("skip");
  });

  test("a malformed page_token is INVALID_ARGUMENT naming page_token", async () => {
    const reply = await call(emu, "GET", G, { query: { page_token: "garbage" } });
    expect(reply.status).toBe(400);
    expect(detail(reply.body, "BadRequest")?.fieldViolations[0].field).toBe("page_token");
  });
});

describe("ordering across cursor pages", () => {
  const base = () => ({ "uidp.children_of": team.uid, page_size: 7 });

  test("default order is uid ascending", async () => {
    const { items, pages } = await collect(base());
    expect(pages).toBe(Math.ceil((N + 1) / 7));
    const uids = items.map((g) => g.uid);
    expect(uids).toEqual([...uids].sort());
    expect(new Set(uids).size).toBe(N + 1);
  });

  test("order_by=name", async () => {
    const { items } = await collect({ ...base(), order_by: "name" });
    const names = items.map((g) => g.name);
    expect(names).toEqual([...names].sort());
    expect(names).toHaveLength(N + 1);
  });

  test("order_by=name desc", async () => {
    const { items } = await collect({ ...base(), order_by: "name desc" });
    const names = items.map((g) => g.name);
    expect(names).toEqual([...names].sort().reverse());
  });

  test("order_by=created_at desc, and the createTime / create_time spellings", async () => {
    for (const order of ["created_at desc", "createTime desc", "create_time desc"]) {
      const { items } = await collect({ ...base(), order_by: order });
      const times = items.map((g) => Date.parse(g.createTime));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(items[0].name).toBe("nested");
    }
  });

  test("order_by=update_time follows updates", async () => {
    const { items: before } = await collect({ ...base(), order_by: "update_time" });
    const target = before[0];
    emu.advanceClock(1000);
    await call(emu, "PATCH", `${G}/${target.uid}`, { body: { name: target.name, description: "touched" } });
    const { items: after } = await collect({ ...base(), order_by: "updateTime" });
    expect(after[after.length - 1].uid).toBe(target.uid);
  });

  test("camelCase orderBy and pageSize work like snake_case", async () => {
    const reply = await call(emu, "GET", G, {
      query: { "uidp.childrenOf": team.uid, orderBy: "name desc", pageSize: 3 },
    });
    expect(reply.body.groups).toHaveLength(3);
    expect(reply.body.groups[0].name).toBe("nested");
  });

  test("an unknown order_by field is INVALID_ARGUMENT naming order_by", async () => {
    const reply = await call(emu, "GET", G, { query: { order_by: "colour" } });
    expect(reply.status).toBe(400);
    expect(detail(reply.body, "BadRequest")?.fieldViolations[0].field).toBe("order_by");
  });

  test("records inserted between pages do not break the order or repeat items", async () => {
    const first = await call(emu, "GET", G, { query: { ...base(), order_by: "name" } });
    const seen = first.body.groups.map((g: any) => g.name);
    const late = await create(team.uid, "g000a-late");
    try {
      const rest = await collect({ ...base(), order_by: "name", page_token: first.body.nextPageToken });
      const all = [...seen, ...rest.items.map((g) => g.name)];
      expect(all).toEqual([...all].sort());
      expect(new Set(all).size).toBe(all.length);
    } finally {
      await call(emu, "DELETE", `${G}/${late.uid}`);
    }
  });

  test("the page token carries the query: the next page keeps the original order and filter", async () => {
    const first = await call(emu, "GET", G, { query: { ...base(), order_by: "name desc" } });
    const second = await call(emu, "GET", G, { query: { page_size: 7, page_token: first.body.nextPageToken } });
    const names = [...first.body.groups, ...second.body.groups].map((g: any) => g.name);
    expect(names).toEqual([...names].sort().reverse());
    expect(second.body.groups.every((g: any) => g.uid.startsWith(`${team.uid}/`))).toBe(true);
  });

  test("an expired page token (3 days) restarts from the beginning without an error", async () => {
    const first = await call(emu, "GET", G, { query: base() });
    emu.advanceClock(3 * 24 * 3600 * 1000 + 1);
    const again = await call(emu, "GET", G, { query: { ...base(), page_token: first.body.nextPageToken } });
    expect(again.status).toBe(200);
    expect(again.body.groups).toEqual(first.body.groups);
  });

  test("a token younger than 3 days still resumes", async () => {
    const first = await call(emu, "GET", G, { query: base() });
    emu.advanceClock(3 * 24 * 3600 * 1000 - 60_000);
    const next = await call(emu, "GET", G, { query: { ...base(), page_token: first.body.nextPageToken } });
    expect(next.body.groups[0].uid > first.body.groups[6].uid).toBe(true);
  });
});

describe("skip", () => {
  test("skip=N drops the first N of the ordered set and reports skipped=N", async () => {
    const all = await collect({ "uidp.children_of": team.uid, order_by: "name", page_size: 200 });
    const reply = await call(emu, "GET", G, {
      query: { "uidp.children_of": team.uid, order_by: "name", skip: 10, page_size: 5 },
    });
    expect(reply.body.skipped).toBe(10);
    expect(reply.body.groups.map((g: any) => g.uid)).toEqual(all.items.slice(10, 15).map((g) => g.uid));
    expect(reply.body.totalCount).toBe(String(N + 1));
  });

  test("skip composes with cursors: following pages continue after the skipped window", async () => {
    const all = await collect({ "uidp.children_of": team.uid, page_size: 200 });
    const skipped = await collect({ "uidp.children_of": team.uid, skip: 20, page_size: 9 });
    expect(skipped.items.map((g) => g.uid)).toEqual(all.items.slice(20).map((g) => g.uid));
  });

  test("skip in desc order and with a residual filter", async () => {
    const all = await collect({ "uidp.descendants_of": team.uid, order_by: "name desc", page_size: 200 });
    const reply = await call(emu, "GET", G, {
      query: { "uidp.descendants_of": team.uid, order_by: "name desc", skip: 3, page_size: 2 },
    });
    expect(reply.body.groups.map((g: any) => g.name)).toEqual(all.items.slice(3, 5).map((g) => g.name));
  });
});

describe("filters", () => {
  test("uidp.descendants_of returns everything below the group, not the group itself", async () => {
    const { items } = await collect({ "uidp.descendants_of": team.uid, page_size: 200 });
    expect(items).toHaveLength(N + 2);
    expect(items.map((g) => g.uid)).toContain(deep.uid);
    expect(items.map((g) => g.uid)).not.toContain(team.uid);
  });

  test("uidp.children_of returns direct children only", async () => {
    const { items } = await collect({ "uidp.children_of": team.uid, page_size: 200 });
    expect(items.map((g) => g.uid)).not.toContain(deep.uid);
    expect(items.every((g) => g.uid.split("/").length === team.uid.split("/").length + 1)).toBe(true);
  });

  test("camelCase uidp.descendantsOf and uidp.childrenOf", async () => {
    const d = await call(emu, "GET", G, { query: { "uidp.descendantsOf": nested.uid } });
    expect(d.body.groups.map((g: any) => g.uid)).toEqual([deep.uid]);
    const c = await call(emu, "GET", G, { query: { "uidp.childrenOf": nested.uid } });
    expect(c.body.groups.map((g: any) => g.uid)).toEqual([deep.uid]);
  });

  test("name is an exact match, combined with uidp.descendants_of", async () => {
    const other = await create(emu.rootUid, "elsewhere");
    await create(other.uid, "deep");
    const everywhere = await call(emu, "GET", G, { query: { name: "deep" } });
    expect(everywhere.body.groups).toHaveLength(2);
    const scoped = await call(emu, "GET", G, { query: { name: "deep", "uidp.descendants_of": team.uid } });
    expect(scoped.body.groups.map((g: any) => g.uid)).toEqual([deep.uid]);
    expect(scoped.body.totalCount).toBe("1");
    const partial = await call(emu, "GET", G, { query: { name: "dee" } });
    expect(partial.body.groups).toEqual([]);
    expect(partial.body.totalCount).toBe("0");
  });

  test("uidp.ids as repeated keys or a comma list", async () => {
    const repeated = await call(emu, "GET", G, { query: { "uidp.ids": [deep.uid, nested.uid] } });
    expect(repeated.body.groups.map((g: any) => g.uid).sort()).toEqual([deep.uid, nested.uid].sort());
    const comma = await call(emu, "GET", G, { query: { "uidp.ids": `${deep.uid},${nested.uid}` } });
    expect(comma.body.groups).toEqual(repeated.body.groups);
  });

  test("uidp.ancestors_of returns the groups above", async () => {
    const reply = await call(emu, "GET", G, { query: { "uidp.ancestors_of": deep.uid } });
    expect(reply.body.groups.map((g: any) => g.uid)).toEqual([emu.rootUid, team.uid, nested.uid]);
  });
});

describe("other collections", () => {
  test("roles are listed with the built-in viewer", async () => {
    const reply = await call(emu, "GET", "/iam/v2beta1/roles");
    expect(reply.body.roles.map((r: any) => r.name).sort()).toEqual(["editor", "owner", "viewer"]);
    const viewer = reply.body.roles.find((r: any) => r.name === "viewer");
    expect(viewer.uid).toMatch(/^[0-9a-f]{40}$/);
    expect(viewer.description).toBe("Viewer Role (built-in)");
    expect((await call(emu, "GET", `/iam/v2beta1/roles/${viewer.uid}`)).body).toEqual(viewer);
  });

  test("roles below a group are the custom roles defined in its subtree, not the built-ins", async () => {
    const team = (await call(emu, "POST", `/iam/v2beta1/groups/${emu.rootUid}`, { body: { name: "roles-team" } })).body;
    const custom = (await call(emu, "POST", `/iam/v2beta1/roles/${team.uid}`, { body: { name: "deployer" } })).body;
    expect(custom.uid).toMatch(/^[^/]+$/);
    const below = await call(emu, "GET", "/iam/v2beta1/roles", { query: { "uidp.descendants_of": emu.rootUid } });
    expect(below.body.roles.map((r: any) => r.uid)).toEqual([custom.uid]);
    const elsewhere = await call(emu, "GET", "/iam/v2beta1/roles", {
      query: { "uidp.descendants_of": `${emu.rootUid}/nope` },
    });
    expect(elsewhere.body.roles ?? []).toEqual([]);
  });
});
