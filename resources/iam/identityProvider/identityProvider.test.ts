/**
 * IdentityProvider through the REAL dynamic-provider host, with the `__provider` text the SDK
 * writes when a program constructs the resource from the installed package, against the
 * emulator (which refuses any body that is not the documented message, and keeps the OIDC
 * client secret without ever answering it). What the emulator stored is read from its journal.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { registerResource } from "../../../tests/support/registeredResource";

let h: Harness;
let provider: string;
let urn: string;
let viewer: string;
let editor: string;
let stateFile: string;
const IDPS = "/iam/v2beta1/identityProviders";
const SECRET = "client-secret-0123456789abcdef";
const ROTATED = "client-secret-rotated-fedcba9876543210";

beforeAll(async () => {
  stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "idp-test-")), "state.json");
  h = await startHarness({ statePath: stateFile });
  const idp = await registerResource(
    h,
    "mock-idp",
    (platform) =>
      new platform.iam.IdentityProvider("mock-idp", {
        parentUid: "acme",
        name: "sso",
        defaultRole: "viewer",
        oidc: { issuer: "https://login.example.com", clientId: "c", clientSecret: SECRET },
      }),
  );
  await registerResource(h, "mock-idp-get", (platform) =>
    platform.iam.IdentityProvider.get("mock-idp-get", "acme/idp1"),
  );
  provider = idp.provider;
  urn = idp.urn;
  const roles = (await h.api("GET", "/iam/v2beta1/roles")).body.roles as Array<{ uid: string; name: string }>;
  viewer = roles.find((r) => r.name === "viewer")!.uid;
  editor = roles.find((r) => r.name === "editor")!.uid;
});
afterAll(async () => {
  await h?.close();
  fs.rmSync(path.dirname(stateFile), { recursive: true, force: true });
});
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });
const masks = () =>
  h.emu
    .requests()
    .filter((r) => r.method === "PATCH")
    .map((r) => r.query.updateMask);

/** The client secret the emulator keeps for `uid` (never answered by the API): its snapshot, then its journal. */
function storedSecret(uid: string): unknown {
  let found: any;
  if (fs.existsSync(stateFile)) {
    const snapshot = JSON.parse(fs.readFileSync(stateFile, "utf8"));
    found = (snapshot.records?.identityProviders ?? []).find((r: any) => r.uid === uid);
  }
  const journal = `${stateFile}.journal`;
  const lines = fs.existsSync(journal) ? fs.readFileSync(journal, "utf8").split("\n").filter(Boolean) : [];
  for (const line of lines) {
    const entry = JSON.parse(line);
    if (entry.kind !== "identityProviders") continue;
    if (entry.op === "put" && entry.rec.uid === uid) found = entry.rec;
    if (entry.op === "del" && entry.uid === uid) found = undefined;
  }
  return found?.data?.oidc?.clientSecret;
}

const declaredFor = (name: string) => ({
  parentUid: h.emu.rootUid,
  name,
  description: "single sign-on",
  defaultRole: viewer,
  oidc: {
    issuer: "https://login.example.com",
    clientId: "platform",
    clientSecret: SECRET,
    additionalScopes: ["groups"],
    groupsClaim: "groups",
    correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID",
    pkceEnabled: true,
  },
});

test("the serialized provider is a bare require of the installed package, at most 330 bytes, nothing captured", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/identityProvider\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
  for (const secret of [h.emu.token, h.emu.url, "127.0.0.1", h.staged.dir, "/work/", "node_modules/", SECRET]) {
    expect(provider).not.toContain(secret);
  }
  expect(h.mocked["mock-idp"].type).toBe("pulumi-nodejs:dynamic/iam:IdentityProvider");
  const { IdentityProvider } = h.platform.iam;
  expect(IdentityProvider.isInstance(h.instances["mock-group"])).toBe(false);
  expect(h.mocked["mock-idp-get"]).toMatchObject({
    type: "pulumi-nodejs:dynamic/iam:IdentityProvider",
    id: "acme/idp1",
  });
  expect(h.mocked["mock-idp-get"].inputs.__provider).toBe(provider);
});

test("lifecycle: create, no-op rerun, each in-place update with its exact mask, replace, drift, delete", async () => {
  const root = h.emu.rootUid;
  const declared = declaredFor("sso");
  const news = props(declared);

  const checked = await h.host.check(urn, {}, news);
  expect(checked).toEqual({ inputs: news, failures: [] });
  expect(h.calls()).toEqual([]);

  const created = await h.host.create(urn, checked.inputs);
  expect(h.calls()).toEqual([`POST ${IDPS}/${root}`]);
  expect(created.id).toMatch(new RegExp(`^${root}/[^/]+$`));
  // The service keeps the secret and never answers it; the state keeps what the program set.
  expect(storedSecret(created.id)).toBe(SECRET);
  const answered = (await h.api("GET", `${IDPS}/${created.id}`)).body;
  expect(answered.oidc).not.toHaveProperty("clientSecret");
  expect(answered.scim).toMatchObject({ enabled: false, credentialState: "CREDENTIAL_STATE_NOT_ISSUED" });
  expect(created.props).toMatchObject({ ...declared, uid: created.id, __provider: provider });
  expect(created.props.scim).toEqual(answered.scim);
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET ${IDPS}/${created.id}`]);
  expect(read.props).toEqual(created.props);
  expect(read.inputs).toEqual(news);
  const unchanged = await h.host.diff(created.id, urn, read.props, { ...news, __provider: `${provider}// newer\n` });
  expect(unchanged).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  h.emu.clearRequests();

  const oidc = (change: Record<string, unknown>) => ({ oidc: { ...declared.oidc, ...change } });
  const steps: Array<[string, Record<string, unknown>, string]> = [
    ["name", { name: "sso2" }, "name"],
    ["description", { description: "sign-on" }, "description"],
    ["defaultRole", { defaultRole: editor }, "defaultRole"],
    ["oidc.clientSecret", oidc({ clientSecret: ROTATED }), "oidc.clientSecret"],
    ["oidc.issuer", oidc({ issuer: "https://id.example.com", clientSecret: ROTATED }), "oidc.issuer"],
    [
      "oidc.additionalScopes",
      oidc({ issuer: "https://id.example.com", clientSecret: ROTATED, additionalScopes: ["groups", "email"] }),
      "oidc.additionalScopes",
    ],
    [
      "oidc.correlationRule",
      oidc({
        issuer: "https://id.example.com",
        clientSecret: ROTATED,
        additionalScopes: ["groups", "email"],
        correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
      }),
      "oidc.correlationRule",
    ],
    [
      "oidc.groupsClaim, oidc.pkceEnabled",
      oidc({
        issuer: "https://id.example.com",
        clientSecret: ROTATED,
        additionalScopes: ["groups", "email"],
        correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
        groupsClaim: "roles",
        pkceEnabled: false,
      }),
      "oidc.groupsClaim,oidc.pkceEnabled",
    ],
  ];
  let state = read.props;
  let program: Record<string, unknown> = declared;
  for (const [field, change, mask] of steps) {
    program = { ...program, ...change };
    const diff = await h.host.diff(created.id, urn, state, props(program));
    expect([field, diff]).toEqual([field, { changes: "some", replaces: [], deleteBeforeReplace: false }]);
    state = await h.host.update(created.id, urn, state, props(program));
    expect([field, h.calls(), masks()]).toEqual([field, [`PATCH ${IDPS}/${created.id}`], [mask]]);
    expect(state).toMatchObject({ ...change, uid: created.id });
    h.emu.clearRequests();
  }
  expect(storedSecret(created.id)).toBe(ROTATED);
  expect((await h.api("GET", `${IDPS}/${created.id}`)).body).toMatchObject({
    name: "sso2",
    description: "sign-on",
    defaultRole: editor,
    oidc: { issuer: "https://id.example.com", groupsClaim: "roles", additionalScopes: ["groups", "email"] },
  });
  h.emu.clearRequests();

  // Drift: a console edit comes back from read as an input; the client secret is no drift.
  await h.api("PATCH", `${IDPS}/${created.id}?updateMask=description`, {
    name: "sso2",
    defaultRole: editor,
    description: "console",
  });
  h.emu.clearRequests();
  const drifted = await h.host.read(created.id, urn, state);
  expect(h.calls()).toEqual([`GET ${IDPS}/${created.id}`]);
  expect(drifted.inputs).toEqual(props({ ...program, description: "console" }));
  expect(drifted.props.oidc.clientSecret).toBe(ROTATED);
  const repair = await h.host.diff(created.id, urn, drifted.props, props(program));
  expect(repair).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const repaired = await h.host.update(created.id, urn, drifted.props, props(program));
  expect(masks()).toEqual(["description"]);
  h.emu.clearRequests();

  // Another group is another identity provider: a replacement.
  const moved = props({ ...program, parentUid: `${root}/elsewhere` });
  expect(await h.host.diff(created.id, urn, repaired, moved)).toEqual({
    changes: "some",
    replaces: ["parentUid"],
    deleteBeforeReplace: false,
  });
  expect(h.calls()).toEqual([]);

  await h.host.delete(created.id, urn, repaired);
  expect(h.calls()).toEqual([`DELETE ${IDPS}/${created.id}`]);
  h.emu.clearRequests();
  expect((await h.host.read(created.id, urn, repaired)).id).toBe("");
  await h.host.delete(created.id, urn, repaired);
  expect(h.calls()).toEqual([`GET ${IDPS}/${created.id}`, `DELETE ${IDPS}/${created.id}`]);
});

test("dropping the client secret from the program names it in the mask; the read behind get needs only the uid", async () => {
  const declared = declaredFor("sso-get");
  const created = await h.host.create(urn, props(declared));
  h.emu.clearRequests();
  const { clientSecret: _secret, ...withoutSecret } = declared.oidc;
  const news = props({ ...declared, oidc: withoutSecret });
  expect(await h.host.diff(created.id, urn, created.props, news)).toMatchObject({ changes: "some", replaces: [] });
  const updated = await h.host.update(created.id, urn, created.props, news);
  expect(masks()).toEqual(["oidc.clientSecret"]);
  expect(updated.oidc).not.toHaveProperty("clientSecret");
  expect(storedSecret(created.id)).toBeUndefined();
  h.emu.clearRequests();

  const got = await h.host.read(created.id, urn, {}, { __provider: provider });
  expect(h.calls()).toEqual([`GET ${IDPS}/${created.id}`]);
  expect(got.inputs).toEqual(news);
  await h.host.delete(created.id, urn, updated);
});

test("check names the failing property and sends nothing", async () => {
  const failures = async (values: Record<string, unknown>) =>
    (await h.host.check(urn, {}, props({ parentUid: h.emu.rootUid, name: "sso", defaultRole: viewer, ...values })))
      .failures;
  const oidc = (values: Record<string, unknown>) => ({
    oidc: { issuer: "https://a.example", clientId: "c", ...values },
  });
  expect(await failures(oidc({ issuer: "http://login.example.com" }))).toEqual([
    { property: "oidc.issuer", reason: "must be an https URL (plain http only for localhost)" },
  ]);
  expect(await failures(oidc({ clientSecret: "" }))).toEqual([
    { property: "oidc.clientSecret", reason: "must not be empty" },
  ]);
  expect(await failures(oidc({ correlationRule: "CORRELATION_RULE_UNSPECIFIED" }))).toEqual([
    {
      property: "oidc.correlationRule",
      reason:
        "must be one of CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID, CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID (leave it out for none)",
    },
  ]);
  expect(await failures(oidc({ pkceEnabled: "yes", additionalScopes: "email" }))).toEqual([
    { property: "oidc.additionalScopes", reason: "must be a list" },
    { property: "oidc.pkceEnabled", reason: "must be true or false" },
  ]);
  expect(await failures({ oidc: { issuer: "https://a.example", secret: SECRET } })).toEqual([
    { property: "oidc.clientId", reason: "is required" },
    {
      property: "oidc.secret",
      reason: expect.stringMatching(/^unknown property; oidc takes issuer, clientId, clientSecret/),
    },
  ]);
  expect(await failures({ defaultRole: "a/b" })).toEqual([
    { property: "defaultRole", reason: expect.stringMatching(/^must be a role's uid: /) },
  ]);
  expect((await h.host.check(urn, {}, props({ parentUid: "a/../b", name: "x" }))).failures).toEqual([
    { property: "parentUid", reason: expect.stringMatching(/^must be a group's uid: /) },
    { property: "defaultRole", reason: "is required" },
  ]);
  expect(h.calls()).toEqual([]);
});

test("adoption writes the declared client secret in its one PATCH: the service cannot tell it", async () => {
  const declared = declaredFor("sso-adopt");
  const { clientSecret: _secret, ...oidcWithoutSecret } = declared.oidc;
  const { parentUid, ...body } = declared;
  const existing = (await h.api("POST", `${IDPS}/${parentUid}`, { ...body, oidc: oidcWithoutSecret })).body;
  expect(storedSecret(existing.uid)).toBeUndefined();
  h.emu.clearRequests();

  const created = await h.host.create(urn, props({ ...declared, adopt: true }));
  expect(h.calls()).toEqual([`POST ${IDPS}/${parentUid}`, `GET ${IDPS}`, `PATCH ${IDPS}/${existing.uid}`]);
  expect(masks()).toEqual(["oidc.clientSecret"]);
  expect(created).toMatchObject({ id: existing.uid, props: { adopted: true, oidc: { clientSecret: SECRET } } });
  expect(storedSecret(existing.uid)).toBe(SECRET);
  await h.host.delete(created.id, urn, created.props);
});
