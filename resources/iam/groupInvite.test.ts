/**
 * GroupInvite through the REAL dynamic-provider host against the emulator: the code is answered
 * only by the create and kept from the state afterwards; every change replaces; a lost create
 * cannot recover the code, so the invite it made is deleted and the create sent again.
 */
import { Harness, startHarness } from "../../tests/support/resourceHarness";

let h: Harness;
let provider: string;
let root: string;
let viewer: string;
let editor: string;
const urn = () => h.urn("GroupInvite", "invite");

beforeAll(async () => {
  h = await startHarness();
  provider = h.providers.GroupInvite;
  root = h.emu.rootUid;
  const roles = (await h.api("GET", "/iam/v2beta1/roles")).body.roles as Array<{ uid: string; name: string }>;
  viewer = roles.find((r) => r.name === "viewer")!.uid;
  editor = roles.find((r) => r.name === "editor")!.uid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

test("the serialized provider is a bare require, at most 330 bytes", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/groupInviteProvider\.js"\)/);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
});

test("create answers the code once; read keeps it from the state; every change replaces; delete", async () => {
  const news = props({ groupUid: root, roleUid: viewer, ttl: "86400s", email: "dev@example.com" });
  expect((await h.host.check(urn(), {}, news)).failures).toEqual([]);
  const created = await h.host.create(urn(), news);
  expect(h.calls()).toEqual([`POST /iam/v2beta1/groupInvites/${root}`]);
  const code = created.props.code as string;
  expect(code).toMatch(/^[A-Za-z0-9_-]{10,}$/);
  expect(created.props).toMatchObject({ uid: created.id, groupUid: root, roleUid: viewer, ttl: "86400s" });
  h.emu.clearRequests();

  const direct = (await h.api("GET", `/iam/v2beta1/groupInvites/${created.id}`)).body;
  expect(direct).not.toHaveProperty("code");
  const read = await h.host.read(created.id, urn(), created.props);
  expect(read.props.code).toBe(code);
  expect(read.inputs).not.toHaveProperty("code");

  for (const [field, value] of [
    ["roleUid", editor],
    ["ttl", "3600s"],
    ["email", "other@example.com"],
    ["singleUse", true],
  ] as const) {
    const diff = await h.host.diff(created.id, urn(), read.props, { ...news, [field]: value });
    expect(diff).toMatchObject({ changes: "some", replaces: [field] });
  }
  expect(await h.host.diff(created.id, urn(), read.props, news)).toMatchObject({ changes: "none" });

  h.emu.clearRequests();
  await h.host.delete(created.id, urn(), read.props);
  await h.host.delete(created.id, urn(), read.props);
  expect(h.calls()).toEqual([
    `DELETE /iam/v2beta1/groupInvites/${created.id}`,
    `DELETE /iam/v2beta1/groupInvites/${created.id}`,
  ]);
  expect((await h.host.read(created.id, urn(), read.props)).id).toBe("");
});

test("answers lost every time: each invite made is deleted again, nothing is left, the error says why", async () => {
  h.emu.setFaults([{ path: "^/iam/v2beta1/groupInvites/", methods: ["POST"], dropAfterCommitRate: 1 }]);
  try {
    await expect(h.host.create(urn(), props({ groupUid: root, roleUid: viewer, ttl: "600s" }))).rejects.toThrow(
      /the answer was lost 6 times .* each group invite it made was deleted again \(its code is only answered to the create\)/,
    );
    const calls = h.calls();
    expect(calls.filter((c) => c.startsWith("POST"))).toHaveLength(6);
    expect(calls.filter((c) => c.startsWith("DELETE"))).toHaveLength(6);
  } finally {
    h.emu.setFaults([]);
  }
  const listed = (await h.api("GET", `/iam/v2beta1/groupInvites?uidp.children_of=${root}`)).body.groupInvites;
  expect(listed).toEqual([]);
});

test("check names the failing property, the code never appears in a message, nothing is sent", async () => {
  const failures = async (values: Record<string, unknown>) => (await h.host.check(urn(), {}, props(values))).failures;
  expect(await failures({ groupUid: root, roleUid: viewer, ttl: "1 day" })).toEqual([
    { property: "ttl", reason: 'must be a duration in seconds, e.g. "86400s"' },
  ]);
  expect(await failures({ groupUid: root, roleUid: viewer, ttl: "60s", email: "not-an-address" })).toEqual([
    { property: "email", reason: "must be an email address" },
  ]);
  expect(await failures({ groupUid: root, roleUid: `a/b`, ttl: "60s" })).toEqual([
    { property: "roleUid", reason: 'must be a role\'s uid: it must be one segment, without "/"' },
  ]);
  expect(await failures({ groupUid: root, roleUid: viewer, ttl: "60s", code: "x" })).toEqual([
    { property: "code", reason: "unknown property; GroupInvite takes groupUid, roleUid, ttl, email, singleUse, adopt" },
  ]);
  expect(h.calls()).toEqual([]);
});
