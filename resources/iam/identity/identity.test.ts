/**
 * Identity through the REAL dynamic-provider host, with the `__provider` text the SDK writes
 * when a program constructs the resource from the installed package, against the emulator.
 */
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { HostError } from "../../../tools/host/host";
import { UNKNOWN } from "../../../core/common/values";

let h: Harness;
let provider: string;
let urn: string;

beforeAll(async () => {
  h = await startHarness();
  provider = h.providers.Identity;
  urn = h.urn("Identity", "ci");
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });
const GITHUB = "https://token.actions.githubusercontent.com";

test("the serialized provider is a bare require of the installed package: small, no token, URL or path", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/identity\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(provider.length).toBeLessThan(1024);
  for (const secret of [h.emu.token, h.emu.url, "127.0.0.1", h.staged.dir, "/work/", "node_modules/"]) {
    expect(provider).not.toContain(secret);
  }
  expect(h.mocked["mock-identity"].type).toBe("pulumi-nodejs:dynamic/iam:Identity");
});

test("lifecycle: one request per create/read/update/delete, none for check and diff, masks name exactly the changes", async () => {
  const root = h.emu.rootUid;
  const claimMatch = { issuer: GITHUB, subject: "repo:acme/app:ref:refs/heads/main" };
  const news = props({ parentUid: root, name: "ci", claimMatch });

  const checked = await h.host.check(urn, {}, news);
  expect(checked).toEqual({ inputs: news, failures: [] });
  expect(h.calls()).toEqual([]);

  const created = await h.host.create(urn, checked.inputs);
  expect(h.calls()).toEqual([`POST /iam/v2beta1/identities/${root}`]);
  expect(created.id).toMatch(new RegExp(`^${root}/[^/]+$`));
  expect(created.props).toMatchObject({
    uid: created.id,
    parentUid: root,
    name: "ci",
    description: "",
    claimMatch,
    __provider: provider,
  });
  for (const time of ["createTime", "updateTime", "lastSeenTime"])
    expect(created.props[time]).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET /iam/v2beta1/identities/${created.id}`]);
  expect(read.props).toEqual(created.props);
  // The empty description is left out, as the program left it out.
  expect(read.inputs).toEqual(news);
  h.emu.clearRequests();

  expect(
    await h.host.diff(created.id, urn, created.props, {
      ...news,
      __provider: `${provider}// written by a newer release\n`,
    }),
  ).toMatchObject({ changes: "none" });
  // Key order inside claimMatch does not matter.
  expect(
    await h.host.diff(
      created.id,
      urn,
      created.props,
      props({ parentUid: root, name: "ci", claimMatch: { subject: claimMatch.subject, issuer: GITHUB } }),
    ),
  ).toMatchObject({ changes: "none" });
  const narrowed = { issuer: GITHUB, subjectPattern: "^repo:acme/app:.*$", audience: "platform" };
  expect(
    await h.host.diff(created.id, urn, created.props, props({ parentUid: root, name: "ci", claimMatch: narrowed })),
  ).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  expect(
    await h.host.diff(created.id, urn, created.props, props({ parentUid: `${root}/other`, name: "ci", claimMatch })),
  ).toMatchObject({ changes: "some", replaces: ["parentUid"] });
  expect(h.calls()).toEqual([]);

  const updated = await h.host.update(
    created.id,
    urn,
    created.props,
    props({ parentUid: root, name: "ci", description: "deploys", claimMatch: narrowed }),
  );
  const log = h.emu.requests();
  expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /iam/v2beta1/identities/${created.id}`]);
  // Nested members by name; the body carries name, description and the whole claimMatch.
  expect(log[0].query).toEqual({
    updateMask: "description,claimMatch.audience,claimMatch.subject,claimMatch.subjectPattern",
  });
  expect(updated).toMatchObject({ uid: created.id, description: "deploys", claimMatch: narrowed });
  expect(updated.claimMatch.subject).toBeUndefined();
  expect((await h.api("GET", `/iam/v2beta1/identities/${created.id}`)).body.claimMatch).toEqual(narrowed);

  // Drift: a subject changed outside Pulumi shows up in read's inputs.
  const edited = { issuer: GITHUB, subject: "repo:acme/other:ref:refs/heads/main" };
  await h.api("PATCH", `/iam/v2beta1/identities/${created.id}?updateMask=claimMatch`, {
    name: "ci",
    claimMatch: edited,
  });
  h.emu.clearRequests();
  const drifted = await h.host.read(created.id, urn, updated);
  expect(h.calls()).toHaveLength(1);
  expect(drifted.inputs).toEqual(props({ parentUid: root, name: "ci", description: "deploys", claimMatch: edited }));
  h.emu.clearRequests();

  await h.host.delete(created.id, urn, drifted.props);
  expect(h.calls()).toEqual([`DELETE /iam/v2beta1/identities/${created.id}`]);
  h.emu.clearRequests();
  expect((await h.host.read(created.id, urn, drifted.props)).id).toBe("");
  await h.host.delete(created.id, urn, drifted.props);
  expect(h.calls()).toEqual([
    `GET /iam/v2beta1/identities/${created.id}`,
    `DELETE /iam/v2beta1/identities/${created.id}`,
  ]);

  for (const output of [created.props, read.props, updated, drifted.props, drifted.inputs]) {
    expect(JSON.stringify(output)).not.toContain(h.emu.token);
  }
});

test("a subject-only change is one PATCH masking claimMatch.subject; the other members stay", async () => {
  const root = h.emu.rootUid;
  const claimMatch = { issuer: GITHUB, subject: "repo:acme/app:ref:refs/heads/main", claims: { ref: "main" } };
  const created = await h.host.create(urn, props({ parentUid: root, name: "ci-subject", claimMatch }));
  h.emu.clearRequests();
  const moved = { ...claimMatch, subject: "repo:acme/app:ref:refs/heads/release" };
  const updated = await h.host.update(
    created.id,
    urn,
    created.props,
    props({ parentUid: root, name: "ci-subject", claimMatch: moved }),
  );
  const log = h.emu.requests();
  expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /iam/v2beta1/identities/${created.id}`]);
  expect(log[0].query).toEqual({ updateMask: "claimMatch.subject" });
  expect(updated).toMatchObject({ name: "ci-subject", claimMatch: moved });
  expect((await h.api("GET", `/iam/v2beta1/identities/${created.id}`)).body).toMatchObject({
    name: "ci-subject",
    claimMatch: moved,
  });
  await h.host.delete(created.id, urn, updated);
});

test("check names the failing property of claimMatch and sends nothing", async () => {
  const failures = async (claimMatch: unknown, extra: Record<string, unknown> = {}) =>
    (
      await h.host.check(
        urn,
        {},
        props({ parentUid: h.emu.rootUid, name: "ci", ...(claimMatch === undefined ? {} : { claimMatch }), ...extra }),
      )
    ).failures;
  expect(await failures({ issuer: "http://issuer.example", subject: "s" })).toEqual([
    { property: "claimMatch.issuer", reason: "must be an https URL (plain http only for localhost)" },
  ]);
  expect(await failures({ issuer: "not a url", subject: "s" })).toEqual([
    { property: "claimMatch.issuer", reason: "must be an https URL (plain http only for localhost)" },
  ]);
  expect(await failures({ issuer: GITHUB, subject: "s", subjectPattern: "^s$" })).toEqual([
    { property: "claimMatch.subject", reason: "set either subject or subjectPattern, not both" },
  ]);
  expect(await failures({ issuer: GITHUB })).toEqual([
    { property: "claimMatch.subject", reason: "is required (or subjectPattern)" },
  ]);
  expect(await failures({ issuerPattern: "(", subject: "s" })).toEqual([
    { property: "claimMatch.issuerPattern", reason: "must be an RE2 regular expression: missing closing ): `(`" },
  ]);
  expect(await failures({ issuer: GITHUB, subject: "s", audience: "a", audiencePattern: "b" })).toEqual([
    { property: "claimMatch.audience", reason: "set either audience or audiencePattern, not both" },
  ]);
  expect(await failures({ issuer: GITHUB, subject: "s", claims: { team: 7 } })).toEqual([
    { property: "claimMatch.claims.team", reason: "must be a string" },
  ]);
  expect(await failures({ issuer: GITHUB, subject: "s", sub: "x" })).toEqual([
    {
      property: "claimMatch.sub",
      reason:
        "unknown property; claimMatch takes issuer, issuerPattern, subject, subjectPattern, audience, audiencePattern, claims, claimPatterns",
    },
  ]);
  expect(await failures(undefined)).toEqual([
    {
      property: "claimMatch",
      reason:
        "is required (or one of awsIdentity, staticKeys, servicePrincipal): an identity is assumed in exactly one way",
    },
  ]);
  expect(await failures({ issuer: GITHUB, subject: "s" }, { parentUid: "acme/ team" })).toEqual([
    {
      property: "parentUid",
      reason: 'must be a group\'s uid: it contains whitespace; a uid segment holds only letters, digits, "-" and "_"',
    },
  ]);
  expect(await failures({ issuer: GITHUB, subject: "s" }, { name: "" })).toEqual([
    { property: "name", reason: "must not be empty" },
  ]);
  expect(h.calls()).toEqual([]);
});

test("values unknown during preview pass check untouched, whole or inside claimMatch", async () => {
  for (const claimMatch of [UNKNOWN, { issuer: UNKNOWN, subject: "s" }, { issuer: GITHUB, subjectPattern: UNKNOWN }]) {
    const news = props({ parentUid: UNKNOWN, name: "ci", claimMatch });
    expect(await h.host.check(urn, {}, news)).toEqual({ inputs: news, failures: [] });
  }
  // Known problems are still reported next to unknown values.
  expect(
    (await h.host.check(urn, {}, props({ parentUid: h.emu.rootUid, name: "ci", claimMatch: { issuer: UNKNOWN } })))
      .failures,
  ).toEqual([{ property: "claimMatch.subject", reason: "is required (or subjectPattern)" }]);
  const olds = props({
    uid: "acme/ci",
    parentUid: "acme",
    name: "ci",
    description: "",
    claimMatch: { issuer: GITHUB, subject: "s" },
  });
  expect(
    await h.host.diff(
      "acme/ci",
      urn,
      olds,
      props({ parentUid: "acme", name: "ci", claimMatch: { issuer: GITHUB, subject: UNKNOWN } }),
    ),
  ).toMatchObject({ changes: "some", replaces: [] });
  expect(h.calls()).toEqual([]);
});

test("creating an identity whose name is taken in the group says so", async () => {
  const claimMatch = { issuer: GITHUB, subject: "s" };
  await h.api("POST", `/iam/v2beta1/identities/${h.emu.rootUid}`, { name: "taken", claimMatch });
  h.emu.clearRequests();
  const error: HostError = await h.host
    .create(urn, props({ parentUid: h.emu.rootUid, name: "taken", claimMatch }))
    .then(
      () => undefined as never,
      (e) => e,
    );
  expect(error.message).toMatch(/^creating identity "taken" under "[^"]+" failed: it already exists/);
  expect(error.message).toContain("Identity.get");
  expect(h.calls()).toHaveLength(1);
});

test("a create whose answer is lost after the write adopts the record instead of creating a second", async () => {
  h.emu.setFaults([{ path: "^/iam/v2beta1/identities/", methods: ["POST"], dropAfterCommitRate: 1 }]);
  try {
    const created = await h.host.create(
      urn,
      props({ parentUid: h.emu.rootUid, name: "lost", claimMatch: { issuer: GITHUB, subject: "lost" } }),
    );
    expect(h.calls()).toEqual([`POST /iam/v2beta1/identities/${h.emu.rootUid}`, "GET /iam/v2beta1/identities"]);
    const list = await h.api("GET", `/iam/v2beta1/identities?uidp.children_of=${h.emu.rootUid}&name=lost`);
    expect(list.body.identities.map((i: { uid: string }) => i.uid)).toEqual([created.id]);
  } finally {
    h.emu.setFaults([]);
  }
});
