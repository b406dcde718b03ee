import { startEmulator, RunningEmulator } from "./index";
import { call, G } from "../tests/support/emulatorClient";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ quiet: true, seed: false });
});
afterAll(() => emu.close());

describe("concurrent writes", () => {
  test("100 parallel creates make 100 distinct groups, none lost", async () => {
    const team = (await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "parallel" } })).body;
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(emu, "POST", `${G}/${team.uid}`, { body: { name: `p${i}` } })),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(new Set(replies.map((r) => r.body.uid)).size).toBe(100);
    const list = await call(emu, "GET", G, { query: { "uidp.children_of": team.uid, page_size: 200 } });
    expect(list.body.groups).toHaveLength(100);
    expect(list.body.totalCount).toBe("100");
  });

  test("parallel creates of the same name: exactly one wins, the rest are ALREADY_EXISTS", async () => {
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "contested" } })),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(29);
    expect((await call(emu, "GET", G, { query: { name: "contested" } })).body.groups).toHaveLength(1);
  });

  test("parallel patches of different fields with masks all land", async () => {
    const group = (await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "patched" } })).body;
    await Promise.all([
      call(emu, "PATCH", `${G}/${group.uid}`, {
        query: { updateMask: "description" },
        body: { name: "patched", description: "d" },
      }),
      call(emu, "PATCH", `${G}/${group.uid}`, {
        query: { updateMask: "verified" },
        body: { name: "patched", verified: true },
      }),
      call(emu, "PATCH", `${G}/${group.uid}`, { query: { updateMask: "name" }, body: { name: "patched2" } }),
    ]);
    expect((await call(emu, "GET", `${G}/${group.uid}`)).body).toMatchObject({
      name: "patched2",
      description: "d",
      verified: true,
    });
  });

  test("parallel deletes of the same group: one succeeds, the rest are NOT_FOUND", async () => {
    const group = (await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "deleted" } })).body;
    const replies = await Promise.all(Array.from({ length: 10 }, () => call(emu, "DELETE", `${G}/${group.uid}`)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(404)]);
  });

  test("parallel creates and deletes keep the list and its count consistent", async () => {
    const team = (await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "churn" } })).body;
    const made = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(emu, "POST", `${G}/${team.uid}`, { body: { name: `c${i}` } })),
    );
    await Promise.all([
      ...made.slice(0, 20).map((r) => call(emu, "DELETE", `${G}/${r.body.uid}`)),
      ...Array.from({ length: 20 }, (_, i) => call(emu, "POST", `${G}/${team.uid}`, { body: { name: `d${i}` } })),
    ]);
    const list = await call(emu, "GET", G, {
      query: { "uidp.children_of": team.uid, page_size: 200, order_by: "name" },
    });
    expect(list.body.totalCount).toBe("40");
    expect(list.body.groups.map((g: any) => g.name)).toEqual(
      [...Array.from({ length: 20 }, (_, i) => `c${i + 20}`), ...Array.from({ length: 20 }, (_, i) => `d${i}`)].sort(),
    );
  });
});
