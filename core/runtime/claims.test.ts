/**
 * One record, one resource (core/runtime/claims.ts), through the REAL dynamic-provider host (one
 * process serving every resource, as under the engine) on the emulator, behind a proxy that loses
 * chosen answers: a record a resource created, adopted, claimed after a lost answer or took over
 * is never another resource's, whatever order the creates run or answer in; a failed create and a
 * delete free what they held; the records of resources in the state (diffed, updated or
 * refreshed) are held too. Where a lost answer leaves records a twin may have made, the create
 * fails naming them, deleting nothing.
 */
import { ManagedKind, managedKinds } from "../../bench/kinds";
import { BUILTIN_ROLES } from "../../emulator";
import { FaultProxy, ProxiedRequest, ProxyAction, faultProxy } from "../../tests/support/faultProxy";
import { KIND_CASES, freshGroup, made } from "../../tests/support/kindCases";
import { Harness, startHarness } from "../../tools/host/resourceHarness";
import { ProviderHost, startHost } from "../../tools/host/host";

jest.setTimeout(120_000);

let h: Harness;
let host: ProviderHost;
let proxy: FaultProxy;
let kinds: Record<string, ManagedKind>;
/** What the proxy does with each request; everything passes unless a test says otherwise. */
let decide: (req: ProxiedRequest) => ProxyAction = () => "pass";
/** The query a request goes on with; unchanged unless a test says otherwise. */
let rewrite: (req: ProxiedRequest) => URLSearchParams = (req) => req.query;

beforeAll(async () => {
  h = await startHarness();
  kinds = Object.fromEntries((await managedKinds(h)).map((kind) => [kind.typeName, kind]));
  proxy = await faultProxy(h.emu.url, { decide: (req) => decide(req), rewrite: (req) => rewrite(req) });
  // A host of its own: what it holds is this file's alone.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
  host = await startHost({ cwd: h.staged.dir, env });
  await host.configure({ "platform:apiUrl": proxy.url, "platform:token": h.emu.token });
});
afterEach(() => {
  decide = () => "pass";
  rewrite = (req) => req.query;
});
afterAll(async () => {
  await host?.close();
  await proxy?.close();
  await h?.close();
});

let resources = 0;
const props = (type: string, inputs: Record<string, unknown>) => ({ ...inputs, __provider: kinds[type].providerText });
const create = (type: string, inputs: Record<string, unknown>) =>
  host.create(kinds[type].urn(`${type}-${resources++}`), props(type, inputs));
const settled = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value, error: undefined }),
    (error: Error) => ({ value: undefined, error }),
  );
const collection = (type: string) => KIND_CASES[type].collection;
const listed = async (type: string, parent: string) =>
  (
    (await h.api("GET", `${collection(type)}?uidp.children_of=${parent}`)).body as Record<
      string,
      Array<{ uid: string }>
    >
  )[collection(type).split("/").pop()!]
    .map((r) => r.uid)
    .sort();
const writes = () => h.emu.requests().filter((r) => r.method !== "GET");
const invite = (group: string) => ({
  groupUid: group,
  roleUid: BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid,
  ttl: "3600s",
});

/** The proxy's action for the `rank`th POST to the collection from now on; every other request passes. */
function losePost(type: string, rank: number, action: ProxyAction) {
  let seen = 0;
  decide = (req) => {
    if (req.method !== "POST" || !req.path.startsWith(`${collection(type)}/`)) return "pass";
    return ++seen === rank ? action : "pass";
  };
}

test("three twin subscriptions sent at once, the first POST's answer cut after the service applied it: three records, one each", async () => {
  const group = await freshGroup(h, "twins-at-once");
  losePost("Subscription", 1, "dropAfter");
  const twin = { parentUid: group, sink: "https://hooks.example.com/at-once" };
  const created = await Promise.all([1, 2, 3].map(() => create("Subscription", twin)));
  const ids = created.map((c) => c.id).sort();
  expect(new Set(ids).size).toBe(3);
  expect(await listed("Subscription", group)).toEqual(ids);
  expect(proxy.lost).toHaveLength(1);
  expect(ids).toContain(proxy.lost[0].body.uid);
  expect(created.every((c) => c.props.adopted === undefined)).toBe(true);
});

test("twin invites, the second's answer lost after the first's arrived: the first's record is never the second's, nor deleted", async () => {
  const group = await freshGroup(h, "invite-twins");
  const first = await create("GroupInvite", invite(group));
  for (const action of ["drop", "dropAfter"] as const) {
    losePost("GroupInvite", 1, action);
    h.emu.clearRequests();
    const second = await create("GroupInvite", invite(group));
    expect(second.id).not.toBe(first.id);
    expect(second.props.code).toEqual(expect.any(String));
    // Only the second's own record (proven: made after its send, no twin's) may be deleted and made again.
    expect(
      writes()
        .filter((r) => r.method === "DELETE")
        .map((r) => r.path),
    ).toEqual(action === "dropAfter" ? [`${collection("GroupInvite")}/${proxy.lost.at(-1)!.body.uid}`] : []);
  }
  expect((await h.api("GET", `${collection("GroupInvite")}/${first.id}`)).status).toBe(200);
  expect(await listed("GroupInvite", group)).toHaveLength(3);
});

test("a twin's lost answer it could not settle, then another lost answer: the create fails naming both records, deleting nothing", async () => {
  const group = await freshGroup(h, "unsettled-twins");
  const lostBefore = proxy.lost.length;
  // The first twin's POST is applied and its answer cut, and its search for the record fails
  // (the service refuses the List): it ends without knowing its record, and holds none.
  let searchesRefused = 0;
  decide = (req) =>
    req.method === "POST" && req.path.startsWith(`${collection("GroupInvite")}/`) ? "dropAfter" : "pass";
  rewrite = (req) => {
    if (req.method !== "GET" || req.path !== collection("GroupInvite") || searchesRefused > 0) return req.query;
    searchesRefused++;
    return new URLSearchParams({ order_by: "no such field" });
  };
  const first = await settled(create("GroupInvite", invite(group)));
  expect(first.error?.message).toMatch(/the answer to the create was lost and looking for the record failed/);
  h.emu.clearRequests();
  // The second twin's answer is lost too: its record and the first's match, and nothing proves which is whose.
  const second = await settled(create("GroupInvite", invite(group)));
  const twins = proxy.lost.slice(lostBefore).map((lost) => String(lost.body.uid));
  expect(twins).toHaveLength(2);
  expect(second.error?.message).toContain("the answer to the create was lost");
  for (const uid of twins) expect(second.error?.message).toContain(uid);
  expect(second.error?.message).toContain("nothing was taken over or deleted");
  expect(second.error?.message).toContain("set `adoptUid` to its uid");
  expect(writes().filter((r) => r.method !== "POST")).toEqual([]);
  expect(await listed("GroupInvite", group)).toEqual([...twins].sort());
});

test("with adoption on, three twins sent at once beside one matching record: one takes it, two make their own", async () => {
  const group = await freshGroup(h, "adopting-twins");
  const twin = { parentUid: group, sink: "https://hooks.example.com/adopting", adopt: true };
  const existing = await made(h, `${collection("Subscription")}/${group}`, { sink: twin.sink });
  const created = await Promise.all([1, 2, 3].map(() => create("Subscription", twin)));
  expect(created.filter((c) => c.props.adopted === true).map((c) => c.id)).toEqual([existing.uid]);
  const ids = created.map((c) => c.id).sort();
  expect(new Set(ids).size).toBe(3);
  expect(await listed("Subscription", group)).toEqual(ids);
});

test("two groups of one name with adoption on: one creates it, the other is refused as its twin's, no PATCH", async () => {
  const group = await freshGroup(h, "same-name");
  h.emu.clearRequests();
  const outcomes = await Promise.all(
    [1, 2].map(() => settled(create("Group", { parentUid: group, name: "twin", adopt: true }))),
  );
  const [ok] = outcomes.filter((o) => o.value).map((o) => o.value!);
  const [refused] = outcomes.filter((o) => o.error).map((o) => o.error!);
  expect(ok.props.adopted).toBeUndefined();
  expect(refused.message).toContain(`group ${ok.id} is already held by another resource of this program`);
  expect(refused.message).toContain("Two resources of this program declare the same parentUid, name");
  expect(writes().filter((r) => r.method === "PATCH" || r.method === "DELETE")).toEqual([]);
  expect(await listed("Group", group)).toEqual([ok.id]);
});

test("adoptUid of a record another resource holds is refused; a create that fails after taking one frees it", async () => {
  const group = await freshGroup(h, "adopt-uid");
  const sink = "https://hooks.example.com/named";
  const record = await made(h, `${collection("Subscription")}/${group}`, { sink });
  // Taken, then the create fails (a field that cannot change in place differs): freed again.
  const differs = await settled(
    create("Subscription", { parentUid: group, sink: `${sink}/other`, adoptUid: record.uid }),
  );
  expect(differs.error?.message).toMatch(/differs in sink, which cannot change in place/);
  const first = await create("Subscription", { parentUid: group, sink, adoptUid: record.uid });
  expect(first).toMatchObject({ id: record.uid, props: { adopted: true } });
  h.emu.clearRequests();
  const second = await settled(create("Subscription", { parentUid: group, sink, adoptUid: record.uid }));
  expect(second.error?.message).toContain(
    `adopting subscription to "${sink}" under "${group}" (adoptUid "${record.uid}") failed: subscription ${record.uid} is already held by another resource of this program`,
  );
  expect(writes()).toEqual([]);
});

test("the records of resources in the state are held: diffed, updated or refreshed, none is adopted by another", async () => {
  const group = await freshGroup(h, "in-state");
  for (const [i, visit] of ["diff", "update", "read"].entries()) {
    const name = `kept-${i}`;
    const record = await made(h, `${collection("Group")}/${group}`, { name });
    const state = props("Group", { parentUid: group, name, uid: record.uid, description: "" });
    const urn = kinds.Group.urn(name);
    if (visit === "diff") await host.diff(record.uid, urn, state, props("Group", { parentUid: group, name }));
    if (visit === "update")
      await host.update(record.uid, urn, state, props("Group", { parentUid: group, name, description: "kept" }));
    if (visit === "read") await host.read(record.uid, urn, state);
    const taken = await settled(create("Group", { parentUid: group, name, adopt: true }));
    expect(taken.error?.message).toContain(`group ${record.uid} is already held by another resource of this program`);
  }
  // A look-first kind: the held record is not adopted; the create makes a record of its own.
  const sink = "https://hooks.example.com/in-state";
  const held = await made(h, `${collection("Subscription")}/${group}`, { sink });
  const urn = kinds.Subscription.urn("held");
  await host.diff(
    held.uid,
    urn,
    props("Subscription", { parentUid: group, sink, uid: held.uid }),
    props("Subscription", { parentUid: group, sink }),
  );
  const own = await create("Subscription", { parentUid: group, sink, adopt: true });
  expect(own.id).not.toBe(held.uid);
  expect(own.props.adopted).toBeUndefined();
});

test("records refreshed together (reads that overlap, answered by one List of their uids) are each held", async () => {
  const group = await freshGroup(h, "batched");
  const names = ["batched-0", "batched-1", "batched-2", "batched-3"];
  const records = await Promise.all(names.map((name) => made(h, `${collection("Group")}/${group}`, { name })));
  const before = h.emu.requests().length;
  const reads = await Promise.all(
    records.map((record, i) =>
      host.read(
        record.uid,
        kinds.Group.urn(names[i]),
        props("Group", { parentUid: group, name: names[i], uid: record.uid, description: "" }),
      ),
    ),
  );
  expect(reads.map((r) => r.id)).toEqual(records.map((r) => r.uid));
  const lists = h.emu
    .requests()
    .slice(before)
    .filter((r) => r.query["uidp.ids"] !== undefined);
  expect(lists.length).toBeGreaterThan(0);
  for (const [i, record] of records.entries()) {
    const taken = await settled(create("Group", { parentUid: group, name: names[i], adopt: true }));
    expect(taken.error?.message).toContain(`group ${record.uid} is already held by another resource of this program`);
  }
});

test("a delete frees its record: an account association (its uid is its group's) deleted and made again", async () => {
  const group = await freshGroup(h, "reused-uid");
  const inputs = { groupUid: group, name: "accounts", amazon: { account: "123456789012" } };
  const first = await create("AccountAssociation", inputs);
  expect(first.id).toBe(group);
  await host.delete(first.id, kinds.AccountAssociation.urn("accounts"), first.props);
  const again = await create("AccountAssociation", inputs);
  expect(again.id).toBe(group);
});
