/**
 * ScimToken through the REAL dynamic-provider host against the emulator: the token is answered
 * only by generate and regenerate, kept from the state by read, registered as a secret output
 * and never shown; provisioning switched in the console shows as drift and is repaired.
 */
import * as pulumi from "@pulumi/pulumi";
import { BUILTIN_ROLES } from "../../../emulator";
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { failureOf, recordSecretOutputs, registerResource } from "../../../tests/support/registeredResource";

let h: Harness;
let provider: string;
let urn: string;
let mockToken: unknown;
/** The additionalSecretOutputs each registration asked for, by resource name. */
let secretOutputs: Record<string, string[]>;
const IDPS = "/iam/v2beta1/identityProviders";
const viewer = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const LIVE = "CREDENTIAL_STATE_LIVE";

beforeAll(async () => {
  h = await startHarness();
  secretOutputs = recordSecretOutputs();
  const registered = await registerResource(
    h,
    "mock-scim",
    (platform) =>
      new platform.iam.ScimToken(
        "mock-scim",
        { identityProviderUid: "acme/idp1" },
        { additionalSecretOutputs: ["endpointUrl"] },
      ) as pulumi.CustomResource,
  );
  await registerResource(
    h,
    "mock-scim-plain",
    (platform) => new platform.iam.ScimToken("mock-scim-plain", { identityProviderUid: "acme/idp1", enabled: false }),
  );
  provider = registered.provider;
  urn = registered.urn;
  mockToken = registered.instance;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

let made = 0;
/** An identity provider made directly through the API (not counted: the requests are cleared). */
async function identityProvider(): Promise<string> {
  const answer = await h.api("POST", `${IDPS}/${h.emu.rootUid}`, { name: `scim-${++made}`, defaultRole: viewer });
  expect(answer.status).toBe(200);
  h.emu.clearRequests();
  return answer.body.uid;
}
const scimOf = async (uid: string) => (await h.api("GET", `${IDPS}/${uid}`)).body.scim;

test("the serialized provider is a bare require of the installed package, at most 330 bytes; token is a secret output", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/scimToken\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
  for (const secret of [h.emu.token, h.emu.url, h.staged.dir]) expect(provider).not.toContain(secret);
  expect(h.mocked["mock-scim"].type).toBe("pulumi-nodejs:dynamic/iam:ScimToken");
  // The engine is asked to keep the token secret, the user's own secret outputs kept too.
  expect(secretOutputs["mock-scim"]).toEqual(["endpointUrl", "token"]);
  expect(secretOutputs["mock-scim-plain"]).toEqual(["token"]);
  expect(h.platform.iam.ScimToken.isInstance(mockToken)).toBe(true);
  expect(h.platform.iam.ScimToken.isInstance(h.instances["mock-group"])).toBe(false);
});

test("lifecycle: create (generate, enable), read keeps the token, console drift repaired, expiry change regenerates, delete revokes", async () => {
  const idp = await identityProvider();
  const declared = { identityProviderUid: idp, expireTime: "2099-01-01T00:00:00Z" };
  expect(await h.host.check(urn, {}, props(declared))).toEqual({ inputs: props(declared), failures: [] });
  const created = await h.host.create(urn, props(declared));
  expect(h.calls()).toEqual([`POST ${IDPS}/${idp}:generateScimToken`, `POST ${IDPS}/${idp}:setScimEnabled`]);
  expect(created.id).toBe(idp);
  const token = String(created.props.token);
  expect(token).toMatch(/^scim_[A-Za-z0-9_-]{20,}$/);
  expect(created.props).toEqual(
    props({
      ...declared,
      token,
      enabled: true,
      endpointUrl: `${h.emu.url}/scim/v2/${idp}`,
      tokenExpireTime: "2099-01-01T00:00:00.000Z",
      credentialState: LIVE,
      // The SCIM state's version after the last request (the switch), to notice a regeneration elsewhere.
      etag: (await scimOf(idp)).etag,
    }),
  );
  // The expiry reached the service (every body is checked against its documented message by the emulator).
  expect(await scimOf(idp)).toMatchObject({
    enabled: true,
    credentialState: LIVE,
    tokenExpireTime: "2099-01-01T00:00:00.000Z",
  });
  h.emu.clearRequests();

  // The service never answers the token again: read keeps it; nothing drifted.
  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET ${IDPS}/${idp}`]);
  expect(read.props).toEqual(created.props);
  expect(read.inputs).toEqual(props({ ...declared, enabled: true }));
  expect(await h.host.diff(idp, urn, read.props, props(declared))).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });

  // Provisioning switched off in the console: drift, repaired with one setScimEnabled (its etag from a GET).
  await h.api("POST", `${IDPS}/${idp}:setScimEnabled`, { enabled: false, etag: (await scimOf(idp)).etag });
  h.emu.clearRequests();
  const drifted = await h.host.read(idp, urn, read.props);
  expect(drifted.props.enabled).toBe(false);
  // The switch explains the new etag: the token is still the live one.
  expect(drifted.props.token).toBe(token);
  expect(drifted.props).not.toHaveProperty("tokenSuperseded");
  expect(drifted.props.etag).toBe((await scimOf(idp)).etag);
  expect(await h.host.diff(idp, urn, drifted.props, props(declared))).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
  h.emu.clearRequests();
  const repaired = await h.host.update(idp, urn, drifted.props, props(declared));
  expect(h.calls()).toEqual([`GET ${IDPS}/${idp}`, `POST ${IDPS}/${idp}:setScimEnabled`]);
  expect(repaired).toEqual({ ...created.props, etag: (await scimOf(idp)).etag });
  expect(await scimOf(idp)).toMatchObject({ enabled: true, credentialState: LIVE });

  // A new expiry regenerates the token: a new secret output, the old token no longer live.
  const later = { ...declared, expireTime: "2100-06-01T12:00:00+02:00" };
  expect(await h.host.diff(idp, urn, repaired, props(later))).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
  h.emu.clearRequests();
  const regenerated = await h.host.update(idp, urn, repaired, props(later));
  expect(h.calls()).toEqual([`GET ${IDPS}/${idp}`, `POST ${IDPS}/${idp}:regenerateScimToken`]);
  expect(await scimOf(idp)).toMatchObject({ tokenExpireTime: "2100-06-01T10:00:00.000Z", enabled: true });
  expect(regenerated.token).toMatch(/^scim_/);
  expect(regenerated.token).not.toBe(token);
  expect(regenerated).toMatchObject({ enabled: true, tokenExpireTime: "2100-06-01T10:00:00.000Z", ...later });
  // Never expiring: the expiry output goes.
  const forever = { identityProviderUid: idp, neverExpires: true };
  const unending = await h.host.update(idp, urn, regenerated, props(forever));
  expect(unending).not.toHaveProperty("tokenExpireTime");
  expect(unending).not.toHaveProperty("expireTime");
  expect(unending).toMatchObject({ neverExpires: true, enabled: true });
  expect(unending.token).not.toBe(regenerated.token);
  // Switched off by the program: one setScimEnabled, the token kept.
  h.emu.clearRequests();
  const off = await h.host.update(idp, urn, unending, props({ ...forever, enabled: false }));
  expect(h.calls()).toEqual([`GET ${IDPS}/${idp}`, `POST ${IDPS}/${idp}:setScimEnabled`]);
  expect(off).toMatchObject({ enabled: false, token: unending.token });

  // Another identity provider replaces the token, the old one revoked first.
  expect(await h.host.diff(idp, urn, off, props({ identityProviderUid: `${idp}x`, enabled: false }))).toEqual({
    changes: "some",
    replaces: ["identityProviderUid"],
    deleteBeforeReplace: true,
  });

  h.emu.clearRequests();
  await h.host.delete(idp, urn, off);
  expect(h.calls()).toEqual([`POST ${IDPS}/${idp}:revokeScimToken`]);
  expect(await scimOf(idp)).toMatchObject({ enabled: false, credentialState: "CREDENTIAL_STATE_REVOKED" });
  // Revoked: the resource is gone.
  expect((await h.host.read(idp, urn, off)).id).toBe("");
});

/** A regeneration (or switching) done in the console: straight to the API with the current etag. */
async function inConsole(idp: string, verb: string, body: Record<string, unknown> = {}): Promise<{ token?: string }> {
  const answer = await h.api("POST", `${IDPS}/${idp}:${verb}`, { ...body, etag: (await scimOf(idp)).etag });
  expect(answer.status).toBe(200);
  h.emu.clearRequests();
  return answer.body;
}

/** What happens outside the program, the program's expiry inputs, and what was done (a token answered, if any). */
type Elsewhere = [string, Record<string, unknown>, (idp: string) => Promise<{ token?: string }>];

describe("a token regenerated outside the program: read finds it superseded, diff shows it, update regenerates", () => {
  test.each<Elsewhere>([
    [
      "the console's default expiry (a year from now)",
      {},
      async (idp: string) => inConsole(idp, "regenerateScimToken"),
    ],
    [
      "the same expiry as the program's: only the etag moved",
      { neverExpires: true },
      async (idp: string) => inConsole(idp, "regenerateScimToken", { neverExpires: true }),
    ],
    [
      "with an overlap: the previous token still works a while (ROTATING)",
      { neverExpires: true },
      async (idp: string) => inConsole(idp, "regenerateScimToken", { neverExpires: true, overlap: "3600s" }),
    ],
    [
      "provisioning switched off and on again between two reads (cannot be told from a regeneration)",
      { expireTime: "2099-01-01T00:00:00Z" },
      async (idp: string) => {
        await inConsole(idp, "setScimEnabled", { enabled: false });
        return inConsole(idp, "setScimEnabled", { enabled: true });
      },
    ],
  ])("%s", async (_label, expiry, elsewhere) => {
    const idp = await identityProvider();
    const declared = { identityProviderUid: idp, ...expiry };
    const created = await h.host.create(urn, props(declared));
    const token = String(created.props.token);
    const theirs = (await elsewhere(idp)).token;

    const read = await h.host.read(idp, urn, created.props);
    expect(h.calls()).toEqual([`GET ${IDPS}/${idp}`]);
    expect(read.props).toMatchObject({ tokenSuperseded: true, enabled: true, etag: (await scimOf(idp)).etag });
    // The dead token is not kept; the program sees the drift among its inputs.
    expect(read.props).not.toHaveProperty("token");
    expect(read.inputs).toEqual(props({ ...declared, enabled: true, tokenSuperseded: true }));
    expect(await h.host.diff(idp, urn, read.props, props(declared))).toEqual({
      changes: "some",
      replaces: [],
      deleteBeforeReplace: false,
    });
    // A second read still says so (the etag it records now is the current one).
    const again = await h.host.read(idp, urn, read.props);
    expect(again.props).toEqual(read.props);

    h.emu.clearRequests();
    const repaired = await h.host.update(idp, urn, again.props, props(declared));
    expect(h.calls()).toEqual([`GET ${IDPS}/${idp}`, `POST ${IDPS}/${idp}:regenerateScimToken`]);
    expect(repaired).not.toHaveProperty("tokenSuperseded");
    expect(repaired.token).toMatch(/^scim_/);
    expect([token, theirs]).not.toContain(repaired.token);
    // Nothing changed since that regeneration: the token it answered is the live one.
    expect(await scimOf(idp)).toMatchObject({ etag: repaired.etag, credentialState: LIVE, enabled: true });
    const settled = await h.host.read(idp, urn, repaired);
    expect(settled.props).toEqual(repaired);
    expect((await h.host.diff(idp, urn, settled.props, props(declared))).changes).toBe("none");
    await h.host.delete(idp, urn, repaired);
  });

  test.each<Elsewhere>([
    [
      "a new expiry",
      { neverExpires: true },
      async (idp) => inConsole(idp, "regenerateScimToken", { expireTime: "2098-01-01T00:00:00Z" }),
    ],
    [
      "an overlap (ROTATING)",
      { neverExpires: true },
      async (idp) => inConsole(idp, "regenerateScimToken", { neverExpires: true, overlap: "60s" }),
    ],
  ])(
    "regenerated with %s and provisioning switched off: both seen, both repaired",
    async (_label, expiry, regenerate) => {
      const idp = await identityProvider();
      const declared = { identityProviderUid: idp, ...expiry };
      const created = await h.host.create(urn, props(declared));
      await inConsole(idp, "setScimEnabled", { enabled: false });
      await regenerate(idp);
      const read = await h.host.read(idp, urn, created.props);
      expect(read.props).toMatchObject({ tokenSuperseded: true, enabled: false });
      expect(read.props).not.toHaveProperty("token");
      h.emu.clearRequests();
      const repaired = await h.host.update(idp, urn, read.props, props(declared));
      expect(h.calls()).toEqual([
        `GET ${IDPS}/${idp}`,
        `POST ${IDPS}/${idp}:regenerateScimToken`,
        `POST ${IDPS}/${idp}:setScimEnabled`,
      ]);
      expect(repaired).toMatchObject({ enabled: true, credentialState: LIVE });
      expect(await scimOf(idp)).toMatchObject({ etag: repaired.etag, enabled: true, credentialState: LIVE });
      expect((await h.host.read(idp, urn, repaired)).props).toEqual(repaired);
      await h.host.delete(idp, urn, repaired);
    },
  );

  test("a state written before the etag was recorded gets the current one at its first read, then notices", async () => {
    const idp = await identityProvider();
    const created = await h.host.create(urn, props({ identityProviderUid: idp }));
    const { etag: _none, ...older } = created.props;
    await inConsole(idp, "setScimEnabled", { enabled: true });
    const first = await h.host.read(idp, urn, older);
    expect(first.props).toMatchObject({ token: created.props.token, etag: (await scimOf(idp)).etag });
    expect(first.props).not.toHaveProperty("tokenSuperseded");
    await inConsole(idp, "regenerateScimToken");
    expect((await h.host.read(idp, urn, first.props)).props).toMatchObject({ tokenSuperseded: true });
    await h.host.delete(idp, urn, first.props);
  });
});

test("without enabled: provisioning on; enabled false still says so; a gone identity provider is gone and deleting is success", async () => {
  const idp = await identityProvider();
  const created = await h.host.create(urn, props({ identityProviderUid: idp, enabled: false }));
  expect(h.calls()).toEqual([`POST ${IDPS}/${idp}:generateScimToken`, `POST ${IDPS}/${idp}:setScimEnabled`]);
  expect(await scimOf(idp)).toMatchObject({ enabled: false, credentialState: LIVE });
  expect(created.props).toMatchObject({ enabled: false, credentialState: LIVE });
  // The service's default expiry: a year.
  expect(created.props.tokenExpireTime).toEqual(expect.any(String));
  await h.host.delete(idp, urn, created.props);

  const again = await h.host.create(urn, props({ identityProviderUid: idp, neverExpires: true }));
  expect(again.props).toMatchObject({ enabled: true, neverExpires: true });
  expect(again.props).not.toHaveProperty("tokenExpireTime");
  await h.api("DELETE", `${IDPS}/${idp}`);
  h.emu.clearRequests();
  expect((await h.host.read(idp, urn, again.props)).id).toBe("");
  await h.host.delete(idp, urn, again.props);
  expect(h.calls()).toEqual([`GET ${IDPS}/${idp}`, `POST ${IDPS}/${idp}:revokeScimToken`]);
});

test("a second ScimToken on the same identity provider fails clearly; the first token still works", async () => {
  const idp = await identityProvider();
  const first = await h.host.create(urn, props({ identityProviderUid: idp }));
  h.emu.clearRequests();
  const error = await failureOf(h.host.create(urn, props({ identityProviderUid: idp })));
  expect(h.calls()).toEqual([`POST ${IDPS}/${idp}:generateScimToken`]);
  expect(error.message).toMatch(
    new RegExp(
      `^creating SCIM token of identity provider "${idp}" failed: the identity provider already has a live SCIM token`,
    ),
  );
  expect(error.message).toMatch(/cannot be taken over \(there is no adoption for SCIM tokens\): revoke it/);
  expect(await scimOf(idp)).toMatchObject({ credentialState: LIVE, enabled: true });
  await h.host.delete(idp, urn, first.props);
});

test("check names the failing property and sends nothing", async () => {
  const idp = "acme/idp1";
  const failures = async (values: Record<string, unknown>) =>
    (await h.host.check(urn, {}, props({ identityProviderUid: idp, ...values }))).failures;
  expect((await h.host.check(urn, {}, props({}))).failures).toEqual([
    { property: "identityProviderUid", reason: "is required" },
  ]);
  expect(await failures({ identityProviderUid: "acme/../x" })).toMatchObject([{ property: "identityProviderUid" }]);
  expect(await failures({ identityProviderUid: 7 })).toEqual([
    { property: "identityProviderUid", reason: "must be an identity provider's uid (a string)" },
  ]);
  // The timestamp rule every kind shares (core/model/timestamp.ts): each refusal says why.
  const notRfc3339 =
    'must be an RFC 3339 time (a date, "T", a time with seconds and an optional fraction, then "Z" or an offset) ' +
    "such as 2030-01-01T00:00:00Z or 2030-01-01T02:00:00+02:00";
  const refusals: Record<string, string> = {
    "2027-01-01": notRfc3339,
    tomorrow: notRfc3339,
    "2027-01-01T00:00:00": notRfc3339,
    "2027-13-45T00:00:00Z": "must name a month from 01 to 12 (13 is none)",
    "2027-02-30T00:00:00Z": "must name a day of the month (2027-02 has no day 30)",
    "2027-01-01t00:00:00z":
      'must write "T" and "Z" in capitals (the service reads no other): such as 2030-01-01T00:00:00Z or 2030-01-01T02:00:00+02:00',
  };
  for (const [expireTime, reason] of Object.entries(refusals))
    expect(await failures({ expireTime })).toEqual([{ property: "expireTime", reason }]);
  expect(await failures({ expireTime: 20270101 })).toEqual([
    { property: "expireTime", reason: "must be an RFC 3339 time (a string)" },
  ]);
  expect(await failures({ expireTime: "2027-01-01T00:00:00.5-05:00" })).toEqual([]);
  expect(await failures({ neverExpires: "yes" })).toEqual([
    { property: "neverExpires", reason: "must be true or false" },
  ]);
  expect(await failures({ enabled: 1 })).toEqual([{ property: "enabled", reason: "must be true or false" }]);
  expect(await failures({ neverExpires: true, expireTime: "2027-01-01T00:00:00Z" })).toEqual([
    {
      property: "neverExpires",
      reason: "must not be true when expireTime is set: a token either expires at expireTime or never",
    },
  ]);
  expect(await failures({ neverExpires: false, expireTime: "2027-01-01T00:00:00Z" })).toEqual([]);
  expect(await failures({ token: "mine" })).toEqual([
    {
      property: "token",
      reason: "unknown property; ScimToken takes identityProviderUid, expireTime, neverExpires, enabled",
    },
  ]);
  expect(h.calls()).toEqual([]);
});

test("the token never appears in a message or the host's log", async () => {
  const idp = await identityProvider();
  const created = await h.host.create(urn, props({ identityProviderUid: idp }));
  const token = String(created.props.token);
  const messages: string[] = [];
  // A second generate: refused by the service.
  messages.push((await failureOf(h.host.create(urn, props({ identityProviderUid: idp })))).message);
  // A regenerate the service refuses (an expiry in the past).
  messages.push(
    (
      await failureOf(
        h.host.update(idp, urn, created.props, props({ identityProviderUid: idp, expireTime: "2001-01-01T00:00:00Z" })),
      )
    ).message,
  );
  // Read and delete of a uid that is not well formed fail before any request.
  messages.push((await failureOf(h.host.read(`${idp}/..`, urn, created.props))).message);
  messages.push((await failureOf(h.host.delete(`${idp}/..`, urn, created.props))).message);
  // A generate whose answer is lost: said plainly (a token nobody holds may exist), never sent again.
  const other = await identityProvider();
  h.emu.setFaults([{ path: "identityProviders", methods: ["POST"], dropAfterCommitRate: 1 }]);
  try {
    messages.push((await failureOf(h.host.create(urn, props({ identityProviderUid: other })))).message);
  } finally {
    h.emu.setFaults([]);
  }
  expect(messages).toEqual([
    expect.stringMatching(/already has a live SCIM token/),
    expect.stringMatching(new RegExp(`^regenerating SCIM token of identity provider "${idp}" failed: .*expireTime`)),
    expect.stringMatching(/not a well-formed uid/),
    expect.stringMatching(/not a well-formed uid/),
    expect.stringMatching(/the answer was lost .*a token may have been issued that nobody holds.*revoke it/),
  ]);
  for (const message of messages) expect(message).not.toContain(token);
  expect(h.host.stderr()).not.toContain(token);
  // The refused regenerate changed nothing: the token in the state still works.
  expect(await scimOf(idp)).toMatchObject({ credentialState: LIVE });
  await h.host.delete(idp, urn, created.props);
});
