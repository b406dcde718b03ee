/** events.Subscription through the REAL dynamic-provider host against the emulator. */
import { Harness, startHarness } from "../../tests/support/resourceHarness";

let h: Harness;
let root: string;
const urn = () => h.urn("Subscription", "audit");
beforeAll(async () => {
  h = await startHarness();
  root = h.emu.rootUid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: h.providers.Subscription });
const SINK = "https://hooks.example.com/platform";

test("the serialized provider is a bare require of the events domain's module, at most 330 bytes", () => {
  expect(h.providers.Subscription).toMatch(
    /require\("platform-pulumi\/dist\/resources\/events\/subscriptionProvider\.js"\)/,
  );
  expect(Buffer.byteLength(h.providers.Subscription)).toBeLessThanOrEqual(330);
  expect(h.mocked["mock-subscription"].type).toBe("pulumi-nodejs:dynamic/events:Subscription");
});

test("create, no-op rerun, replace on a new sink, adopt by sink, delete twice", async () => {
  const news = props({ parentUid: root, sink: SINK });
  expect((await h.host.check(urn(), {}, news)).failures).toEqual([]);
  const created = await h.host.create(urn(), news);
  expect(h.calls()).toEqual([`POST /events/v2beta1/subscriptions/${root}`]);
  expect(created.props).toMatchObject({ uid: created.id, parentUid: root, sink: SINK });
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn(), created.props);
  expect(read.inputs).toEqual(news);
  expect(await h.host.diff(created.id, urn(), read.props, news)).toMatchObject({ changes: "none" });
  expect(
    await h.host.diff(created.id, urn(), read.props, props({ parentUid: root, sink: `${SINK}/v2` })),
  ).toMatchObject({ changes: "some", replaces: ["sink"] });

  // A second stack taking it over finds it by its sink under the group.
  h.emu.clearRequests();
  const adopted = await h.host.create(urn(), props({ parentUid: root, sink: SINK, adopt: true }));
  expect(adopted.id).not.toBe(created.id);
  // Subscriptions do not collide on the service: adoption only applies to ALREADY_EXISTS, so this one is new.
  await h.host.delete(adopted.id, urn(), adopted.props);

  h.emu.clearRequests();
  await h.host.delete(created.id, urn(), read.props);
  await h.host.delete(created.id, urn(), read.props);
  expect(h.calls()).toEqual([
    `DELETE /events/v2beta1/subscriptions/${created.id}`,
    `DELETE /events/v2beta1/subscriptions/${created.id}`,
  ]);
});

test("check: an https sink and a well-formed parent, nothing sent", async () => {
  const failures = async (values: Record<string, unknown>) => (await h.host.check(urn(), {}, props(values))).failures;
  expect(await failures({ parentUid: root, sink: "ftp://x.example" })).toEqual([
    { property: "sink", reason: "must be an https URL (plain http only for localhost)" },
  ]);
  expect(await failures({ parentUid: `${root}/..`, sink: SINK })).toEqual([
    { property: "parentUid", reason: 'must be a group\'s uid: it has a ".." segment' },
  ]);
  expect(await failures({ parentUid: root })).toEqual([{ property: "sink", reason: "is required" }]);
  expect(h.calls()).toEqual([]);
});
