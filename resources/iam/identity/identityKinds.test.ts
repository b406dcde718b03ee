/**
 * Identity's other kinds (awsIdentity, staticKeys, servicePrincipal) through the REAL
 * dynamic-provider host against the emulator: exactly one kind, in-place updates with nested
 * masks, replacement when the kind or the static keys change, drift, delete.
 */
import { Harness, startHarness } from "../../../tools/host/resourceHarness";

let h: Harness;
let root: string;
beforeAll(async () => {
  h = await startHarness();
  root = h.emu.rootUid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const urn = (name: string) => h.urn("Identity", name);
const props = (values: Record<string, unknown>) => ({ ...values, __provider: h.providers.Identity });
const GITHUB = "https://token.actions.githubusercontent.com";
const JWKS = JSON.stringify({
  keys: [
    {
      kty: "EC",
      crv: "P-256",
      x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
      y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    },
  ],
});

test("awsIdentity: create, nested-mask update, drift, delete", async () => {
  const aws = { awsAccount: "123456789012", arn: "arn:aws:iam::123456789012:role/deployer" };
  const news = props({ parentUid: root, name: "aws-deployer", awsIdentity: aws });
  expect((await h.host.check(urn("aws"), {}, news)).failures).toEqual([]);
  const created = await h.host.create(urn("aws"), news);
  expect(h.calls()).toEqual([`POST /iam/v2beta1/identities/${root}`]);
  expect(created.props).toMatchObject({ uid: created.id, awsIdentity: aws });
  expect(created.props).not.toHaveProperty("claimMatch");
  h.emu.clearRequests();

  const narrowed = { awsAccount: "123456789012", arnPattern: "^arn:aws:iam::123456789012:role/deploy-.*$" };
  const next = props({ parentUid: root, name: "aws-deployer", awsIdentity: narrowed });
  expect(await h.host.diff(created.id, urn("aws"), created.props, next)).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
  const updated = await h.host.update(created.id, urn("aws"), created.props, next);
  expect(h.emu.requests().map((r) => r.query)).toEqual([{ updateMask: "awsIdentity.arn,awsIdentity.arnPattern" }]);
  expect(updated.awsIdentity).toEqual(narrowed);

  await h.api("PATCH", `/iam/v2beta1/identities/${created.id}?updateMask=awsIdentity`, {
    name: "aws-deployer",
    awsIdentity: { awsAccount: "210987654321" },
  });
  const drifted = await h.host.read(created.id, urn("aws"), updated);
  expect(drifted.inputs).toEqual(
    props({ parentUid: root, name: "aws-deployer", awsIdentity: { awsAccount: "210987654321" } }),
  );
  h.emu.clearRequests();
  await h.host.delete(created.id, urn("aws"), drifted.props);
  await h.host.delete(created.id, urn("aws"), drifted.props);
  expect(h.calls()).toEqual([
    `DELETE /iam/v2beta1/identities/${created.id}`,
    `DELETE /iam/v2beta1/identities/${created.id}`,
  ]);
});

test("servicePrincipal: create and rename in place", async () => {
  const news = props({ parentUid: root, name: "ingester", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
  const created = await h.host.create(urn("sp"), news);
  expect(created.props).toMatchObject({ servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
  h.emu.clearRequests();
  const renamed = props({ parentUid: root, name: "ingester-2", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
  expect(await h.host.diff(created.id, urn("sp"), created.props, renamed)).toMatchObject({ replaces: [] });
  const updated = await h.host.update(created.id, urn("sp"), created.props, renamed);
  expect(h.emu.requests().map((r) => r.query)).toEqual([{ updateMask: "name" }]);
  expect(updated).toMatchObject({ name: "ingester-2", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
  await h.host.delete(created.id, urn("sp"), updated);
});

test("staticKeys: created once; changing the keys, or switching kind, replaces", async () => {
  // An expiry with an offset, as the documents' date-time allows: checked, sent and kept as written.
  const keys = {
    issuer: "https://issuer.example.com",
    subject: "robot",
    issuerKeys: JWKS,
    audiences: ["platform"],
    expirationTime: "2030-01-01T02:00:00+02:00",
  };
  const created = await h.host.create(urn("static"), props({ parentUid: root, name: "robot", staticKeys: keys }));
  expect(created.props.staticKeys).toMatchObject(keys);
  h.emu.clearRequests();
  const rotated = props({ parentUid: root, name: "robot", staticKeys: { ...keys, subject: "robot-2" } });
  expect(await h.host.diff(created.id, urn("static"), created.props, rotated)).toMatchObject({
    changes: "some",
    replaces: ["staticKeys"],
  });
  const switched = props({ parentUid: root, name: "robot", claimMatch: { issuer: GITHUB, subject: "robot" } });
  const diff = await h.host.diff(created.id, urn("static"), created.props, switched);
  expect(diff.changes).toBe("some");
  expect([...diff.replaces].sort()).toEqual(["claimMatch", "staticKeys"]);
  // Renaming alone stays in place.
  expect(
    await h.host.diff(
      created.id,
      urn("static"),
      created.props,
      props({ parentUid: root, name: "robot-x", staticKeys: keys }),
    ),
  ).toMatchObject({ changes: "some", replaces: [] });
  expect(h.calls()).toEqual([]);
  await h.host.delete(created.id, urn("static"), created.props);
});

test("switching from claimMatch to awsIdentity replaces", async () => {
  const olds = { uid: `${root}/x`, parentUid: root, name: "ci", claimMatch: { issuer: GITHUB, subject: "s" } };
  const diff = await h.host.diff(
    `${root}/x`,
    urn("switch"),
    olds,
    props({ parentUid: root, name: "ci", awsIdentity: { awsAccount: "123456789012" } }),
  );
  expect([...diff.replaces].sort()).toEqual(["awsIdentity", "claimMatch"]);
});

test("check: exactly one kind, each kind's fields named, nothing sent", async () => {
  const failures = async (values: Record<string, unknown>) =>
    (await h.host.check(urn("bad"), {}, props({ parentUid: root, name: "x", ...values }))).failures;
  expect(await failures({})).toEqual([
    {
      property: "claimMatch",
      reason:
        "is required (or one of awsIdentity, staticKeys, servicePrincipal): an identity is assumed in exactly one way",
    },
  ]);
  expect(
    await failures({ claimMatch: { issuer: GITHUB, subject: "s" }, servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" }),
  ).toEqual([
    {
      property: "servicePrincipal",
      reason:
        "set only one of claimMatch, awsIdentity, staticKeys, servicePrincipal (got claimMatch, servicePrincipal)",
    },
  ]);
  expect(await failures({ awsIdentity: { awsAccount: "12345" } })).toEqual([
    { property: "awsIdentity.awsAccount", reason: "must be a 12-digit AWS account id" },
  ]);
  expect(await failures({ awsIdentity: { awsAccount: "123456789012", arn: "a", arnPattern: "b" } })).toEqual([
    { property: "awsIdentity.arn", reason: "set either arn or arnPattern, not both" },
  ]);
  expect(await failures({ awsIdentity: { awsAccount: "123456789012", userIdPattern: "(?=x)" } })).toEqual([
    {
      property: "awsIdentity.userIdPattern",
      reason: expect.stringMatching(/^must be an RE2 regular expression: lookarounds/),
    },
  ]);
  expect(await failures({ staticKeys: { issuer: "https://i.example", subject: "s", issuerKeys: "{}" } })).toEqual([
    {
      property: "staticKeys.issuerKeys",
      reason: 'must be a JSON Web Key Set: {"keys": [ ... ]} with at least one key',
    },
  ]);
  expect(
    await failures({
      staticKeys: { issuer: "https://i.example", subject: "s", issuerKeys: JWKS, expirationTime: "tomorrow" },
    }),
  ).toEqual([{ property: "staticKeys.expirationTime", reason: expect.stringMatching(/^must be an RFC 3339 time/) }]);
  // The documents' date-time: an offset is a time too, as for every kind's timestamps.
  expect(
    await failures({
      staticKeys: {
        issuer: "https://i.example",
        subject: "s",
        issuerKeys: JWKS,
        expirationTime: "2030-01-01T02:00:00+02:00",
      },
    }),
  ).toEqual([]);
  expect(await failures({ staticKeys: { issuer: "https://i.example", issuerKeys: JWKS } })).toEqual([
    { property: "staticKeys.subject", reason: "is required" },
  ]);
  // A list input like every kind's (the toolkit's f.list): its shape and its limit.
  const keysWith = (audiences: unknown) => ({
    staticKeys: { issuer: "https://i.example", subject: "s", issuerKeys: JWKS, audiences },
  });
  expect(await failures(keysWith("platform"))).toEqual([
    { property: "staticKeys.audiences", reason: "must be a list" },
  ]);
  expect(await failures(keysWith(Array.from({ length: 257 }, (_, i) => `aud-${i}`)))).toEqual([
    { property: "staticKeys.audiences", reason: "must have at most 256 entries" },
  ]);
  expect(await failures(keysWith(Array.from({ length: 256 }, (_, i) => `aud-${i}`)))).toEqual([]);
  expect((await failures({ servicePrincipal: "SERVICE_PRINCIPAL_BARISTA" }))[0]).toMatchObject({
    property: "servicePrincipal",
    reason: expect.stringMatching(/^must be one of SERVICE_PRINCIPAL_COSIGNED, /),
  });
  expect(h.calls()).toEqual([]);
});
