/**
 * Reading a tree for an export past the first page of every List (200 records a page): the
 * records below the group, and the placement of custom roles, found by listing each candidate
 * group's roles (a role's uid does not tell where it is defined).
 */
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { createClient } from "../core/transport/client";
import { call } from "../tools/orgApi";
import { exportedKinds } from "./kinds";
import { readSubtree } from "./read";

jest.setTimeout(120_000);

let emu: RunningEmulator;
let client: ReturnType<typeof createClient>;
beforeAll(async () => {
  emu = await startEmulator({ quiet: true, seed: false });
  client = createClient({ apiUrl: emu.url, authUrl: emu.url, apiVersion: "v2beta1", token: emu.token });
});
afterAll(async () => {
  await client?.close();
  await emu?.close();
});

test("201 groups, 205 custom roles on one of them and 2 on another: every record read, every role placed", async () => {
  const api = { url: emu.url, token: emu.token };
  const post = (path: string, body: unknown) => call<{ uid: string }>(api, "POST", `/iam/v2beta1/${path}`, body);
  const wide = await post(`groups/${emu.rootUid}`, { name: "wide" });
  const groups: string[] = [];
  for (let i = 0; i < 201; i++) groups.push((await post(`groups/${wide.uid}`, { name: `g${i}` })).uid);
  const home = groups[150];
  const busy: string[] = [];
  for (let i = 0; i < 205; i++) busy.push((await post(`roles/${home}`, { name: `role-${i}` })).uid);
  const quiet = [
    (await post(`roles/${wide.uid}`, { name: "top-a" })).uid,
    (await post(`roles/${groups[200]}`, { name: "last" })).uid,
  ];

  emu.clearRequests();
  const tree = await readSubtree(client, wide.uid, exportedKinds());
  const records = (collection: string) => tree.kinds.find((k) => k.exported.kind.collection === collection)!.records;
  expect(
    records("groups")
      .map((g) => g.uid)
      .sort(),
  ).toEqual([...groups].sort());
  const parentOf = new Map(records("roles").map((role) => [role.uid, role.parentUid]));
  expect(parentOf.size).toBe(207);
  for (const uid of busy) expect(parentOf.get(uid)).toBe(home);
  expect([parentOf.get(quiet[0]), parentOf.get(quiet[1])]).toEqual([wide.uid, groups[200]]);
  // Both Lists went past their first page.
  const paged = emu.requests().filter((r) => r.method === "GET" && r.query.page_token !== undefined);
  expect(paged.map((r) => [r.path, r.query["uidp.descendants_of"] ?? r.query["uidp.children_of"]])).toEqual(
    expect.arrayContaining([
      ["/iam/v2beta1/groups", wide.uid],
      ["/iam/v2beta1/roles", home],
    ]),
  );
});
