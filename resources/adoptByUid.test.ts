/**
 * `adoptUid` through the REAL dynamic-provider host against the emulator: a create takes over
 * exactly the record the program names (read by uid, never a POST), refuses one under another
 * parent or differing in a field that cannot change in place, and brings the rest to the
 * declared values with one PATCH. It is how a program tells apart records no key does (two
 * identical invites or subscriptions), where `adopt: true` refuses and names them.
 */
import { ManagedKind, managedKinds } from "../bench/kinds";
import { BUILTIN_ROLES } from "../emulator";
import { Harness, startHarness } from "../tools/host/resourceHarness";
import { failureOf } from "../tests/support/registeredResource";

let h: Harness;
let kinds: Record<string, ManagedKind>;
let team: string;
let other: string;
const viewer = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const INVITES = "/iam/v2beta1/groupInvites";
const SUBSCRIPTIONS = "/events/v2beta1/subscriptions";

beforeAll(async () => {
  h = await startHarness();
  kinds = Object.fromEntries((await managedKinds(h)).map((kind) => [kind.typeName, kind]));
  team = (await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "adopt-by-uid" })).body.uid;
  other = (await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "adopt-by-uid-other" })).body.uid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

/** A host create of `type` with these inputs, under a fresh URN. */
function create(type: string, inputs: Record<string, unknown>) {
  const kind = kinds[type];
  return h.host.create(kind.urn(`adopt-${Math.random().toString(36).slice(2, 8)}`), {
    ...inputs,
    __provider: kind.providerText,
  });
}

test("two identical invites: adopt: true refuses and names both; adoptUid takes the one named with one GET", async () => {
  const values = { roleUid: viewer, ttl: "3600s", email: "dana@example.com" };
  const first = (await h.api("POST", `${INVITES}/${team}`, values)).body;
  const second = (await h.api("POST", `${INVITES}/${team}`, values)).body;
  h.emu.clearRequests();
  const refused = await failureOf(create("GroupInvite", { groupUid: team, ...values, adopt: true }));
  expect(refused.message).toMatch(/found 2 groupInvites with the same groupUid, roleUid, ttl, email, singleUse/);
  expect(refused.message).toContain(first.uid);
  expect(refused.message).toContain(second.uid);
  expect(refused.message).toMatch(/set `adoptUid` on this resource/);
  expect(h.calls().filter((call) => !call.startsWith("GET"))).toEqual([]);

  h.emu.clearRequests();
  const adopted = await create("GroupInvite", { groupUid: team, ...values, adoptUid: second.uid });
  expect(h.calls()).toEqual([`GET ${INVITES}/${second.uid}`]);
  expect(adopted).toMatchObject({ id: second.uid, props: { adopted: true, keyId: second.keyId, ...values } });
  expect(adopted.props).not.toHaveProperty("code");
  expect(adopted.props).not.toHaveProperty("adoptUid");
});

test("two identical subscriptions: each resource takes its own by uid; one under another group is refused", async () => {
  const sink = "https://hooks.example.com/twice";
  const first = (await h.api("POST", `${SUBSCRIPTIONS}/${team}`, { sink })).body;
  const second = (await h.api("POST", `${SUBSCRIPTIONS}/${team}`, { sink })).body;
  const elsewhere = (await h.api("POST", `${SUBSCRIPTIONS}/${other}`, { sink })).body;
  h.emu.clearRequests();
  const a = await create("Subscription", { parentUid: team, sink, adoptUid: first.uid });
  const b = await create("Subscription", { parentUid: team, sink, adoptUid: second.uid });
  expect([a.id, b.id]).toEqual([first.uid, second.uid]);
  expect(h.calls()).toEqual([`GET ${SUBSCRIPTIONS}/${first.uid}`, `GET ${SUBSCRIPTIONS}/${second.uid}`]);

  h.emu.clearRequests();
  const misplaced = await failureOf(create("Subscription", { parentUid: team, sink, adoptUid: elsewhere.uid }));
  expect(misplaced.message).toBe(
    `adopting subscription to "${sink}" under "${team}" (adoptUid "${elsewhere.uid}") failed: it sits under ` +
      `"${other}", not under the declared parentUid "${team}"; declare its own parentUid, or check the uid`,
  );
  expect(h.calls()).toEqual([`GET ${SUBSCRIPTIONS}/${elsewhere.uid}`]);
});

test("a group named by uid is brought to the declared values with one PATCH of what differs, name included", async () => {
  const existing = (await h.api("POST", `/iam/v2beta1/groups/${team}`, { name: "console-made", description: "old" }))
    .body;
  h.emu.clearRequests();
  const adopted = await create("Group", {
    parentUid: team,
    name: "declared-name",
    description: "declared",
    adoptUid: existing.uid,
  });
  expect(h.calls()).toEqual([`GET /iam/v2beta1/groups/${existing.uid}`, `PATCH /iam/v2beta1/groups/${existing.uid}`]);
  expect(h.emu.requests()[1].query).toEqual({ updateMask: "name,description" });
  expect(adopted).toMatchObject({
    id: existing.uid,
    props: { name: "declared-name", description: "declared", adopted: true },
  });

  h.emu.clearRequests();
  const missing = await failureOf(create("Group", { parentUid: team, name: "x", adoptUid: `${team}/nosuchgroup` }));
  expect(missing.message).toMatch(
    new RegExp(
      `^adopting group "x" under "${team}" \\(adoptUid "${team}/nosuchgroup"\\) failed: no such group exists \\(.*\\); ` +
        "check the uid, or remove adoptUid to create the group$",
    ),
  );
  expect(h.calls()).toEqual([`GET /iam/v2beta1/groups/${team}/nosuchgroup`]);
});

test("a role's uid does not tell its group: it is looked for among the declared group's roles", async () => {
  const role = (await h.api("POST", `/iam/v2beta1/roles/${team}`, { name: "auditor", capabilities: ["CAP_REPO_LIST"] }))
    .body;
  h.emu.clearRequests();
  const adopted = await create("Role", {
    parentUid: team,
    name: "auditor",
    capabilities: ["CAP_REPO_LIST", "CAP_IAM_GROUPS_LIST"],
    adoptUid: role.uid,
  });
  expect(h.calls()).toEqual([
    `GET /iam/v2beta1/roles/${role.uid}`,
    "GET /iam/v2beta1/roles",
    `PATCH /iam/v2beta1/roles/${role.uid}`,
  ]);
  expect(h.emu.requests()[1].query).toMatchObject({ "uidp.children_of": team, name: "auditor" });
  expect(adopted).toMatchObject({ id: role.uid, props: { parentUid: team, adopted: true } });

  h.emu.clearRequests();
  const refused = await failureOf(create("Role", { parentUid: other, name: "auditor", adoptUid: role.uid }));
  expect(refused.message).toMatch(/failed: it is not one of the roles of parentUid "[^"]+"$/);
  expect(h.calls()).toEqual([`GET /iam/v2beta1/roles/${role.uid}`, "GET /iam/v2beta1/roles"]);
});

test("a tag whose digest differs is refused before any write: a digest cannot change in place", async () => {
  const repo = (await h.api("POST", `/registry/v2beta1/repos/${team}`, { name: "adopt-by-uid-repo" })).body;
  const tag = (
    await h.api("POST", `/registry/v2beta1/tags/${repo.uid}`, { name: "latest", digest: `sha256:${"a".repeat(64)}` })
  ).body;
  h.emu.clearRequests();
  const refused = await failureOf(
    create("Tag", { repoUid: repo.uid, name: "latest", digest: `sha256:${"b".repeat(64)}`, adoptUid: tag.uid }),
  );
  expect(refused.message).toMatch(/failed: it differs in digest, which cannot change in place/);
  expect(h.calls()).toEqual([`GET /registry/v2beta1/tags/${tag.uid}`]);
  await h.api("DELETE", `/registry/v2beta1/repos/${repo.uid}`);
});

test("adoptUid is checked before any request: a uid's shape, and no `adopt: false` beside it", async () => {
  const kind = kinds.Group;
  const check = (inputs: Record<string, unknown>) =>
    h.host.check(
      kind.urn("checked"),
      {},
      { parentUid: team, name: "checked", ...inputs, __provider: kind.providerText },
    );
  expect((await check({ adoptUid: `${team}/../x` })).failures).toEqual([
    { property: "adoptUid", reason: expect.stringMatching(/^must be a record's uid: it /) },
  ]);
  expect((await check({ adoptUid: `${team}/x`, adopt: false })).failures).toEqual([
    { property: "adoptUid", reason: "takes over the record it names, so `adopt` must not be false" },
  ]);
  expect((await check({ adoptUid: `${team}/x`, adopt: true })).failures).toEqual([]);
  expect(h.calls()).toEqual([]);
});
