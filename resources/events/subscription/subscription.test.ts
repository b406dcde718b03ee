/**
 * Subscription through the REAL dynamic-provider host against the emulator. The API has no
 * update for subscriptions, so every change is a replacement.
 */
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { registerResource } from "../../../tests/support/registeredResource";
import { fetchClient } from "../../../tests/support/lookupClient";
import { getSubscription, getSubscriptions } from "./lookups";
import { withClient } from "../../../core/program/lookup";

let h: Harness;
let provider: string;
let urn: string;
const SUBSCRIPTIONS = "/events/v2beta1/subscriptions";

beforeAll(async () => {
  h = await startHarness();
  const registered = await registerResource(
    h,
    "mock-subscription",
    (platform) =>
      new platform.events.Subscription("mock-subscription", { parentUid: "acme", sink: "https://hooks.example.com" }),
  );
  await registerResource(h, "mock-subscription-get", (platform) =>
    platform.events.Subscription.get("mock-subscription-get", "acme/s1"),
  );
  provider = registered.provider;
  urn = registered.urn;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

test("the serialized provider is a bare require of the installed package, at most 330 bytes", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/events\/subscription\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
  for (const secret of [h.emu.token, h.emu.url, h.staged.dir]) expect(provider).not.toContain(secret);
  expect(h.mocked["mock-subscription"].type).toBe("pulumi-nodejs:dynamic/events:Subscription");
  expect(h.mocked["mock-subscription-get"]).toMatchObject({ id: "acme/s1", inputs: { __provider: provider } });
  expect(h.platform.events.Subscription.isInstance(h.instances["mock-group"])).toBe(false);
});

test("lifecycle: create, no-op rerun, every input replaces, drift, delete twice, look-ups", async () => {
  const root = h.emu.rootUid;
  const declared = { parentUid: root, sink: "https://hooks.example.com/platform" };
  expect(await h.host.check(urn, {}, props(declared))).toEqual({ inputs: props(declared), failures: [] });
  const created = await h.host.create(urn, props(declared));
  // A subscription tells no time: what the group holds is listed first, so a lost answer can be settled.
  expect(h.calls()).toEqual([`GET ${SUBSCRIPTIONS}`, `POST ${SUBSCRIPTIONS}/${root}`]);
  expect(created.props).toEqual(props({ ...declared, uid: created.id }));
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET ${SUBSCRIPTIONS}/${created.id}`]);
  expect(read.inputs).toEqual(props(declared));
  expect(await h.host.diff(created.id, urn, read.props, props(declared))).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(
    await h.host.diff(created.id, urn, read.props, props({ ...declared, sink: "https://other.example.com" })),
  ).toMatchObject({ changes: "some", replaces: ["sink"] });
  expect(await h.host.diff(created.id, urn, read.props, props({ ...declared, parentUid: `${root}/team` }))).toEqual({
    changes: "some",
    replaces: ["parentUid"],
    deleteBeforeReplace: false,
  });

  const client = fetchClient(h.emu);
  await expect(getSubscription({ uid: created.id }, withClient(client))).resolves.toEqual({
    uid: created.id,
    sink: declared.sink,
  });
  expect((await getSubscriptions({ childrenOf: root }, withClient(client))).subscriptions.map((s) => s.uid)).toContain(
    created.id,
  );
  await expect(getSubscriptions({ name: "x" } as never, withClient(client))).rejects.toThrow(
    'getSubscriptions: invalid arguments: unknown field "name"',
  );
  h.emu.clearRequests();

  // Drift: deleted by hand, it leaves the state; deleting it again is success.
  await h.api("DELETE", `${SUBSCRIPTIONS}/${created.id}`);
  h.emu.clearRequests();
  expect((await h.host.read(created.id, urn, read.props)).id).toBe("");
  await h.host.delete(created.id, urn, read.props);
  expect(h.calls()).toEqual([`GET ${SUBSCRIPTIONS}/${created.id}`, `DELETE ${SUBSCRIPTIONS}/${created.id}`]);

  const again = await h.host.create(urn, props(declared));
  h.emu.clearRequests();
  await h.host.delete(again.id, urn, again.props);
  expect(h.calls()).toEqual([`DELETE ${SUBSCRIPTIONS}/${again.id}`]);
  expect((await h.api("GET", `${SUBSCRIPTIONS}/${again.id}`)).status).toBe(404);
});

test("check names the failing property and sends nothing", async () => {
  const failures = async (values: Record<string, unknown>) =>
    (await h.host.check(urn, {}, props({ parentUid: h.emu.rootUid, ...values }))).failures;
  expect(await failures({})).toEqual([{ property: "sink", reason: "is required" }]);
  expect(await failures({ sink: "http://hooks.example.com" })).toEqual([
    { property: "sink", reason: "must be an https URL" },
  ]);
  expect(await failures({ sink: "https://user:pw@hooks.example.com" })).toEqual([
    { property: "sink", reason: "must not carry credentials (user:password@)" },
  ]);
  expect(await failures({ sink: "https://x", name: "n" })).toEqual([
    { property: "name", reason: "unknown property; Subscription takes parentUid, sink, adopt, adoptUid" },
  ]);
  expect(h.calls()).toEqual([]);
});

test("adoption looks before it creates (the service takes duplicates): one existing subscription is taken over, none sent", async () => {
  const root = h.emu.rootUid;
  const declared = { parentUid: root, sink: "https://hooks.example.com/adopted" };
  const existing = (await h.api("POST", `${SUBSCRIPTIONS}/${root}`, { sink: declared.sink })).body;
  h.emu.clearRequests();
  const adopted = await h.host.create(urn, props({ ...declared, adopt: true }));
  expect(adopted.id).toBe(existing.uid);
  expect(adopted.props).toMatchObject({ adopted: true, sink: declared.sink });
  expect(h.calls().filter((call) => call.startsWith("POST"))).toEqual([]);
  // Without adopt, a create is a create: a second subscription to the same sink.
  h.emu.clearRequests();
  const second = await h.host.create(urn, props(declared));
  expect(second.id).not.toBe(existing.uid);
  expect(h.calls()).toEqual([`GET ${SUBSCRIPTIONS}`, `POST ${SUBSCRIPTIONS}/${root}`]);
  // Both held by resources of this program (core/runtime/claims.ts): adoption makes a record of its own.
  h.emu.clearRequests();
  const third = await h.host.create(urn, props({ ...declared, adopt: true }));
  expect([existing.uid, second.id]).not.toContain(third.id);
  expect(third.props.adopted).toBeUndefined();
  expect(h.calls()).toEqual([`GET ${SUBSCRIPTIONS}`, `POST ${SUBSCRIPTIONS}/${root}`]);
  // Two equal ones no resource holds: adoption refuses to guess which one.
  const theirs: Array<{ uid: string }> = [];
  for (const _ of [1, 2]) theirs.push((await h.api("POST", `${SUBSCRIPTIONS}/${root}`, { sink: declared.sink })).body);
  const refused = await h.host.create(urn, props({ ...declared, adopt: true })).catch((error: Error) => error);
  expect((refused as Error).message).toContain(
    "adopting it found 2 subscriptions with the same parentUid, sink that no other resource of this program holds",
  );
  for (const record of theirs) expect((refused as Error).message).toContain(record.uid);
  for (const made of [second, third]) await h.host.delete(made.id, urn, made.props);
  await h.host.delete(existing.uid, urn, adopted.props);
  for (const record of theirs) await h.api("DELETE", `${SUBSCRIPTIONS}/${record.uid}`);
});
