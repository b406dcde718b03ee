/**
 * GroupInvite through the REAL dynamic-provider host against the emulator. The API has no
 * update for invites, so every change is a replacement; the code is answered only to the
 * create, kept from the state afterwards, registered as a secret output and never shown.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { BUILTIN_ROLES } from "../../../emulator";
import { exportOrganization } from "../../../exporter";
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { failureOf, recordSecretOutputs, registerResource } from "../../../tests/support/registeredResource";
import { fetchClient } from "../../../tests/support/lookupClient";
import { getGroupInvite, getGroupInviteOutput, getGroupInvites, getGroupInvitesOutput } from "./lookups";
import { withClient } from "../../../core/program/lookup";

let h: Harness;
let provider: string;
let urn: string;
let team: string;
let mockInvite: unknown;
/** The additionalSecretOutputs each registration asked for, by resource name. */
let secretOutputs: Record<string, string[]>;
const INVITES = "/iam/v2beta1/groupInvites";
const viewer = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const editor = BUILTIN_ROLES.find((r) => r.name === "editor")!.uid;

beforeAll(async () => {
  h = await startHarness();
  secretOutputs = recordSecretOutputs();
  const registered = await registerResource(
    h,
    "mock-invite",
    (platform) =>
      new platform.iam.GroupInvite(
        "mock-invite",
        { groupUid: "acme/team", roleUid: "viewer", ttl: "86400s" },
        { additionalSecretOutputs: ["keyId"] },
      ) as pulumi.CustomResource,
  );
  await registerResource(h, "mock-invite-get", (platform) =>
    platform.iam.GroupInvite.get("mock-invite-get", "acme/team/i1"),
  );
  provider = registered.provider;
  urn = registered.urn;
  mockInvite = registered.instance;
  team = (await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "invited" })).body.uid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

/** An Output's value (the harness runs under setMocks, not a preview). */
const resolve = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

test("the serialized provider is a bare require of the installed package, at most 330 bytes; code is a secret output", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/groupInvite\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
  for (const secret of [h.emu.token, h.emu.url, h.staged.dir]) expect(provider).not.toContain(secret);
  expect(h.mocked["mock-invite"].type).toBe("pulumi-nodejs:dynamic/iam:GroupInvite");
  expect(h.mocked["mock-invite-get"]).toMatchObject({ id: "acme/team/i1", inputs: { __provider: provider } });
  // The engine is asked to keep the code secret, the user's own secret outputs kept too.
  expect(secretOutputs["mock-invite"]).toEqual(["keyId", "code"]);
  expect(secretOutputs["mock-invite-get"]).toEqual(["code"]);
  expect(h.platform.iam.GroupInvite.isInstance(h.instances["mock-group"])).toBe(false);
  expect(h.platform.iam.GroupInvite.isInstance(mockInvite)).toBe(true);
});

test("lifecycle: create answers the code once, read keeps it, every input replaces, drift, delete twice, look-ups", async () => {
  const declared = { groupUid: team, roleUid: viewer, ttl: "86400s", email: "alice@example.com", singleUse: true };
  expect(await h.host.check(urn, {}, props(declared))).toEqual({ inputs: props(declared), failures: [] });
  const created = await h.host.create(urn, props(declared));
  expect(h.calls()).toEqual([`POST ${INVITES}/${team}`]);
  expect(created.id).toMatch(new RegExp(`^${team}/[0-9a-f]+$`));
  const { code, keyId, expirationTime, createTime } = created.props;
  expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  expect(keyId).toMatch(/^[0-9a-f]{16}$/);
  expect(Date.parse(expirationTime) - Date.parse(createTime)).toBe(86_400_000);
  expect(created.props).toMatchObject(props({ ...declared, uid: created.id, role: { uid: viewer, name: "viewer" } }));
  h.emu.clearRequests();

  // The service never answers the code again: read keeps it from the state.
  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET ${INVITES}/${created.id}`]);
  expect(read.props).toEqual(created.props);
  expect(read.inputs).toEqual(props(declared));
  expect(await h.host.diff(created.id, urn, read.props, props(declared))).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  const changes: Record<string, unknown> = {
    groupUid: h.emu.rootUid,
    roleUid: editor,
    ttl: "3600s",
    email: "bob@example.com",
    singleUse: false,
  };
  for (const [field, value] of Object.entries(changes))
    expect(await h.host.diff(created.id, urn, read.props, props({ ...declared, [field]: value }))).toEqual({
      changes: "some",
      replaces: [field],
      deleteBeforeReplace: false,
    });
  // Only `adopt` changed: nothing is sent, the code stays.
  h.emu.clearRequests();
  const updated = await h.host.update(created.id, urn, read.props, props({ ...declared, adopt: false }));
  expect(updated).toMatchObject({ code, keyId });
  expect(h.calls()).toEqual([]);

  const client = fetchClient(h.emu);
  const found = await getGroupInvite({ uid: created.id }, withClient(client));
  expect(found).toMatchObject({ uid: created.id, roleUid: viewer, keyId, ttl: "86400s" });
  expect(found).not.toHaveProperty("code");
  expect(
    (await getGroupInvites({ childrenOf: team, keyId }, withClient(client))).groupInvites.map((i) => i.uid),
  ).toEqual([created.id]);
  expect((await getGroupInvites({ childrenOf: team, keyId: "0000" }, withClient(client))).groupInvites).toEqual([]);
  // The Output forms take Inputs.
  await expect(
    resolve(getGroupInviteOutput({ uid: pulumi.output(created.id) }, withClient(client))),
  ).resolves.toMatchObject({
    keyId,
  });
  const byKey = await resolve(
    getGroupInvitesOutput({ childrenOf: team, keyId: pulumi.output(String(keyId)) }, withClient(client)),
  );
  expect(byKey.groupInvites.map((i) => i.uid)).toEqual([created.id]);
  await expect(getGroupInvites({ name: "x" } as never, withClient(client))).rejects.toThrow(
    'getGroupInvites: invalid arguments: unknown field "name"',
  );
  h.emu.clearRequests();

  // Drift: deleted in the console, it leaves the state; deleting it again is success.
  await h.api("DELETE", `${INVITES}/${created.id}`);
  h.emu.clearRequests();
  expect((await h.host.read(created.id, urn, read.props)).id).toBe("");
  await h.host.delete(created.id, urn, read.props);
  expect(h.calls()).toEqual([`GET ${INVITES}/${created.id}`, `DELETE ${INVITES}/${created.id}`]);

  // Without the optional inputs: the service's "" and false are what the program means.
  const minimal = { groupUid: team, roleUid: viewer, ttl: "60s" };
  const again = await h.host.create(urn, props(minimal));
  expect(again.props).toMatchObject({ email: "", singleUse: false, ttl: "60s" });
  const reread = await h.host.read(again.id, urn, again.props);
  expect(reread.inputs).toEqual(props(minimal));
  expect(await h.host.diff(again.id, urn, reread.props, props(minimal))).toMatchObject({ changes: "none" });
  h.emu.clearRequests();
  await h.host.delete(again.id, urn, again.props);
  expect(h.calls()).toEqual([`DELETE ${INVITES}/${again.id}`]);
  expect((await h.api("GET", `${INVITES}/${again.id}`)).status).toBe(404);
});

test("check names the failing property and sends nothing", async () => {
  const failures = async (values: Record<string, unknown>) =>
    (await h.host.check(urn, {}, props({ groupUid: team, roleUid: viewer, ttl: "86400s", ...values }))).failures;
  expect((await h.host.check(urn, {}, props({ groupUid: team, roleUid: viewer }))).failures).toEqual([
    { property: "ttl", reason: "is required" },
  ]);
  for (const ttl of ["1d", "86400", "-5s", "1.s", "24h", "1234567890s"])
    expect(await failures({ ttl })).toEqual([
      {
        property: "ttl",
        reason: `must be a duration in seconds such as "86400s" (digits, an optional fraction, then "s"); "${ttl}" is not one`,
      },
    ]);
  expect(await failures({ ttl: 86400 })).toEqual([
    { property: "ttl", reason: 'must be a duration string such as "86400s"' },
  ]);
  expect(await failures({ ttl: "0s" })).toEqual([{ property: "ttl", reason: "must be longer than zero seconds" }]);
  expect(await failures({ ttl: "0.000s" })).toEqual([{ property: "ttl", reason: "must be longer than zero seconds" }]);
  expect(await failures({ ttl: "0.5s" })).toEqual([]);
  expect(await failures({ email: "alice" })).toEqual([
    { property: "email", reason: "must be an email address (name@domain)" },
  ]);
  expect(await failures({ singleUse: "yes" })).toEqual([{ property: "singleUse", reason: "must be true or false" }]);
  expect(await failures({ roleUid: "a/b" })).toMatchObject([{ property: "roleUid" }]);
  expect(await failures({ groupUid: `${team}/../x` })).toMatchObject([{ property: "groupUid" }]);
  expect(await failures({ code: "mine" })).toEqual([
    {
      property: "code",
      reason: "unknown property; GroupInvite takes groupUid, roleUid, ttl, email, singleUse, adopt, adoptUid",
    },
  ]);
  expect(h.calls()).toEqual([]);
});

test("the code never appears in a message, the host's log or an error of create, read, update or delete", async () => {
  const declared = { groupUid: team, roleUid: viewer, ttl: "86400s" };
  const invites = async () =>
    (await h.api<{ groupInvites: unknown[] }>("GET", `${INVITES}?uidp.childrenOf=${team}`)).body.groupInvites.length;
  const before = await invites();
  const created = await h.host.create(urn, props(declared));
  const code = String(created.props.code);
  const messages: string[] = [];
  // Create: refused by the service (a role not usable on the group).
  messages.push((await failureOf(h.host.create(urn, props({ ...declared, roleUid: "nosuchrole" })))).message);
  // Update: the API has none; a host asked anyway gets the service's refusal.
  messages.push(
    (await failureOf(h.host.update(created.id, urn, created.props, props({ ...declared, ttl: "60s" })))).message,
  );
  // Read and delete of a uid that is not well formed fail before any request.
  messages.push((await failureOf(h.host.read(`${team}/..`, urn, created.props))).message);
  messages.push((await failureOf(h.host.delete(`${team}/..`, urn, created.props))).message);
  // Creates whose answers are lost: each invite made is deleted again, then the create gives up.
  // (Another ttl than the invite above: a look-alike made just before would leave them unproven.)
  h.emu.setFaults([{ path: "groupInvites", methods: ["POST"], dropAfterCommitRate: 1 }]);
  try {
    messages.push((await failureOf(h.host.create(urn, props({ ...declared, ttl: "86401s" })))).message);
  } finally {
    h.emu.setFaults([]);
  }
  expect(messages).toEqual([
    expect.stringMatching(/^creating group invite for role "nosuchrole" on group ".*" failed: .*nosuchrole/),
    expect.stringMatching(new RegExp(`^updating group invite ${created.id} for role "${viewer}" failed: `)),
    expect.stringMatching(/not well formed|"\.\."/),
    expect.stringMatching(/not well formed|"\.\."/),
    expect.stringMatching(
      /^creating group invite .* failed: the answer was lost 6 times .* each group invite it made was deleted again \(its code is only answered to the create\)/,
    ),
  ]);
  for (const message of messages) expect(message).not.toContain(code);
  expect(h.host.stderr()).not.toContain(code);
  expect(await invites()).toBe(before + 1);
  await h.host.delete(created.id, urn, created.props);
});

test("adoption looks before it creates (the service takes duplicates): the invite taken over has no code", async () => {
  const declared = { groupUid: team, roleUid: viewer, ttl: "7200s", email: "carol@example.com" };
  const existing = (await h.api("POST", `${INVITES}/${team}`, { roleUid: viewer, ttl: "7200s", email: declared.email }))
    .body;
  h.emu.clearRequests();
  const adopted = await h.host.create(urn, props({ ...declared, adopt: true }));
  expect(adopted.id).toBe(existing.uid);
  expect(h.calls()).toEqual([`GET ${INVITES}`]);
  expect(adopted.props).toMatchObject({ adopted: true, keyId: existing.keyId, email: declared.email });
  // The service answers the code only to its create: an adopted invite has none (absent, never undefined).
  expect(adopted.props).not.toHaveProperty("code");
  const read = await h.host.read(adopted.id, urn, adopted.props);
  expect(read.props).not.toHaveProperty("code");
  expect(read.props.adopted).toBe(true);
  // A different invite (another ttl) is not the same one: created, with its code.
  h.emu.clearRequests();
  const other = await h.host.create(urn, props({ ...declared, ttl: "3600s", adopt: true }));
  expect(other.id).not.toBe(existing.uid);
  expect(h.calls()).toEqual([`GET ${INVITES}`, `POST ${INVITES}/${team}`]);
  expect(other.props.code).toEqual(expect.any(String));
  // Two equal ones that no resource holds: adoption refuses to guess which (the one `adopted`
  // holds is no candidate: core/runtime/claims.ts).
  const equal: Array<{ uid: string }> = [];
  for (const _ of [1, 2])
    equal.push(
      (await h.api("POST", `${INVITES}/${team}`, { roleUid: viewer, ttl: "7200s", email: declared.email })).body,
    );
  const refused = await h.host.create(urn, props({ ...declared, adopt: true })).catch((error: Error) => error);
  expect((refused as Error).message).toMatch(
    /adopting it found 2 groupInvites with the same groupUid, roleUid, ttl, email, singleUse that no other resource of this program holds/,
  );
  for (const invite of equal) expect((refused as Error).message).toContain(invite.uid);
  expect((refused as Error).message).not.toContain(existing.uid);
  for (const invite of (await h.api("GET", `${INVITES}?uidp.childrenOf=${team}`)).body.groupInvites)
    await h.api("DELETE", `${INVITES}/${invite.uid}`);
});

test("an export declares the invite for adoption and never writes its code", async () => {
  const group = (await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "exported" })).body.uid;
  const declared = { groupUid: group, roleUid: viewer, ttl: "86400s", email: "dave@example.com", singleUse: true };
  const created = await h.host.create(urn, props(declared));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "platform-invite-export-"));
  try {
    const result = await exportOrganization({ under: group, out, client: fetchClient(h.emu) });
    expect(result.counts).toEqual({ "iam.GroupInvite": 1 });
    expect(result.secretKeys).toEqual([]);
    const program = fs.readFileSync(path.join(out, "index.ts"), "utf8");
    expect(program).toMatch(/new platform\.iam\.GroupInvite\(/);
    expect(program).toMatch(
      /groupUid: underUid,\s+roleUid: viewerRoleUid,\s+ttl: "86400s",\s+email: "dave@example.com",\s+singleUse: true,\s+adoptUid: "[^"]+",/,
    );
    // Invites are told apart by uid alone: the program names the very one it adopts.
    expect(program).toContain(`adoptUid: "${created.id}",`);
    expect(program).not.toContain(String(created.props.code));
    expect(program).not.toMatch(/\bcode\b|keyId/);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    await h.host.delete(created.id, urn, created.props);
  }
});
