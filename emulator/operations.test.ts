import { startEmulator, RunningEmulator } from "./index";
import { call, detail, G } from "../tests/support/emulatorClient";
import { builtinRole } from "./capabilities";

let emu: RunningEmulator;
let team: any;
const viewer = builtinRole("viewer").uid;

async function ok(method: string, path: string, body?: unknown, query?: Record<string, string | string[]>) {
  const reply = await call(emu, method, path, { body, query });
  expect([method, path, reply.status, reply.status === 200 ? "" : reply.text]).toEqual([method, path, 200, ""]);
  return reply.body;
}

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  team = await ok("POST", `${G}/${emu.rootUid}`, { name: "ops" });
});
afterAll(() => emu.close());

test("tags: referrer tags are listed only with includeReferrers=true (either spelling)", async () => {
  const nginx = (await ok("GET", "/registry/v2/repos", undefined, { name: "nginx" })).repos[0];
  const plain = await ok("GET", "/registry/v2/tags", undefined, { "uidp.childrenOf": nginx.uid });
  expect(plain.tags.map((t: any) => t.name).sort()).toEqual(["1.27", "1.27.3", "latest"]);
  for (const key of ["includeReferrers", "include_referrers"]) {
    const all = await ok("GET", "/registry/v2/tags", undefined, { "uidp.childrenOf": nginx.uid, [key]: "true" });
    expect(all.tags.map((t: any) => t.name)).toContainEqual(expect.stringMatching(/^sha256-[0-9a-f]{64}\.sig$/));
    expect(all.totalCount).toBe("4");
  }
});

test("uidp.ids as repeated parameters selects exactly those records", async () => {
  const a = await ok("POST", `${G}/${team.uid}`, { name: "ids-a" });
  const b = await ok("POST", `${G}/${team.uid}`, { name: "ids-b" });
  await ok("POST", `${G}/${team.uid}`, { name: "ids-c" });
  const listed = await ok("GET", "/iam/v2/groups", undefined, { "uidp.ids": [a.uid, b.uid] });
  expect(listed.groups.map((g: any) => g.name).sort()).toEqual(["ids-a", "ids-b"]);
});

test("a create's parent may be a group's uid suffix or its name", async () => {
  const byName = await ok("POST", `/iam/v2/groups/ops`, { name: "by-name" });
  expect(byName.uid.startsWith(`${team.uid}/`)).toBe(true);
  const suffix = team.uid.split("/").at(-1);
  const bySuffix = await ok("POST", `/iam/v2/groups/${suffix}`, { name: "by-suffix" });
  expect(bySuffix.uid.startsWith(`${team.uid}/`)).toBe(true);
  await ok("POST", `${G}/${byName.uid}`, { name: "twin" });
  await ok("POST", `${G}/${bySuffix.uid}`, { name: "twin" });
  const ambiguous = await call(emu, "POST", "/iam/v2/groups/twin", { body: { name: "child" } });
  expect([ambiguous.status, detail(ambiguous.body, "BadRequest")?.fieldViolations[0].field]).toEqual([400, "parent"]);
});

test("lookupIdentity finds the identity a token's issuer and subject would assume, patterns included", async () => {
  const exact = await ok("POST", `/iam/v2/identities/${team.uid}`, {
    name: "exact",
    claimMatch: { issuer: "https://ci.example", subject: "repo:acme/app" },
  });
  const pattern = await ok("POST", `/iam/v2/identities/${team.uid}`, {
    name: "pattern",
    claimMatch: { issuer: "https://ci.example", subjectPattern: "repo:acme/lib:.*" },
  });
  const lookup = (subject: string) =>
    call(emu, "GET", "/iam/v2/identities:lookupIdentity", { query: { issuer: "https://ci.example", subject } });
  expect((await lookup("repo:acme/app")).body).toEqual({ uid: exact.uid });
  expect((await lookup("repo:acme/lib:ref:main")).body).toEqual({ uid: pattern.uid });
  expect((await lookup("repo:other")).status).toBe(404);
});

test("SCIM: generate once, regenerate with the current etag only, enable needs a live token, revoke", async () => {
  const idp = await ok("POST", `/iam/v2/identityProviders/${team.uid}`, { name: "scim-idp", defaultRole: viewer });
  const base = `/iam/v2/identityProviders/${idp.uid}`;
  const enableEarly = await call(emu, "POST", `${base}:setScimEnabled`, { body: { enabled: true, etag: "" } });
  expect(enableEarly.status).toBe(400);
  const generated = await ok("POST", `${base}:generateScimToken`, { neverExpires: true });
  expect(generated).toMatchObject({ identityProviderUid: idp.uid, token: expect.stringMatching(/^scim_/) });
  expect(generated.expireTime).toBeUndefined();
  expect((await call(emu, "POST", `${base}:generateScimToken`, { body: {} })).status).toBe(400);
  const read = await ok("GET", base);
  expect(read.scim).toMatchObject({ credentialState: "CREDENTIAL_STATE_LIVE", etag: generated.etag, enabled: false });
  expect(JSON.stringify(read)).not.toContain(generated.token);
  const stale = await call(emu, "POST", `${base}:regenerateScimToken`, { body: { etag: "stale" } });
  expect([stale.status, detail(stale.body, "PreconditionFailure")?.violations[0].type]).toEqual([400, "ETAG_MISMATCH"]);
  const regenerated = await ok("POST", `${base}:regenerateScimToken`, { etag: generated.etag, overlap: "600s" });
  expect(regenerated.token).not.toBe(generated.token);
  expect((await ok("GET", base)).scim.credentialState).toBe("CREDENTIAL_STATE_ROTATING");
  const enabled = await ok("POST", `${base}:setScimEnabled`, { enabled: true, etag: regenerated.etag });
  expect(enabled.enabled).toBe(true);
  const revoked = await ok("POST", `${base}:revokeScimToken`, {});
  expect(revoked).toMatchObject({ enabled: false, identityProviderUid: idp.uid });
  expect((await ok("GET", base)).scim).toMatchObject({ credentialState: "CREDENTIAL_STATE_REVOKED", enabled: false });
});

test("roleBindings:batchCreate creates all or none", async () => {
  const identity = (name: string) =>
    ok("POST", `/iam/v2/identities/${team.uid}`, { name, claimMatch: { issuer: "https://i.example", subject: name } });
  const [a, b] = [await identity("batch-a"), await identity("batch-b")];
  const failed = await call(emu, "POST", "/iam/v2/roleBindings:batchCreate", {
    body: {
      parent: team.uid,
      roleUid: viewer,
      requests: [
        { parent: team.uid, roleBinding: { identityUid: a.uid } },
        { parent: team.uid, roleBinding: { identityUid: `${team.uid}/ffffffffffffffff` } },
      ],
    },
  });
  expect([failed.status, detail(failed.body, "BadRequest")?.fieldViolations[0].field]).toEqual([
    400,
    "requests[1].roleBinding.identityUid",
  ]);
  const none = await ok("GET", "/iam/v2/roleBindings", undefined, { identity: a.uid });
  expect(none.roleBindings).toEqual([]);
  const created = await ok("POST", "/iam/v2/roleBindings:batchCreate", {
    parent: team.uid,
    roleUid: viewer,
    requests: [a, b].map((i) => ({ parent: team.uid, roleBinding: { identityUid: i.uid } })),
  });
  expect(created.roleBindings.map((r: any) => r.identity.name)).toEqual(["batch-a", "batch-b"]);
});

test("terms: accepting is recorded once per document and listed per group", async () => {
  await ok("POST", `/iam/v2/terms/${team.uid}`, { documentIds: ["tos-2024", "dpa-2024"] });
  await ok("POST", `/iam/v2/terms/${team.uid}`, { documentIds: ["tos-2024"] });
  const listed = await ok("GET", `/iam/v2/terms/${team.uid}`);
  expect(listed.termsAcceptances.map((t: any) => t.docId).sort()).toEqual(["dpa-2024", "tos-2024"]);
  expect(listed.totalCount).toBe("2");
});

test("repo readme and digest architectures/size; an unknown digest is NOT_FOUND", async () => {
  const repo = await ok("POST", `/registry/v2/repos/${team.uid}`, { name: "readme-repo", description: "d" });
  expect((await ok("GET", `/registry/v2/repos/${repo.uid}/readme`)).content).toBe("# readme-repo\n\nd\n");
  await ok("PATCH", `/registry/v2/repos/${repo.uid}/readme`, { content: "# New" });
  expect(await ok("GET", `/registry/v2beta1/repos/${repo.uid}/readme`)).toEqual({ uid: repo.uid, content: "# New" });
  const digest = `sha256:${"d".repeat(64)}`;
  await ok("POST", `/registry/v2/tags/${repo.uid}`, { name: "v1", digest });
  const arch = await ok("GET", `/registry/v2/repos/${repo.uid}/digests/${digest}/architectures`);
  expect(arch.architectures).toEqual(["amd64", "arm64"]);
  const size = await ok("GET", `/registry/v2/repos/${repo.uid}/digests/${digest}/size`, undefined, {
    architecture: "arm64",
  });
  expect(size).toEqual({ architecture: "arm64", size: expect.stringMatching(/^\d+$/) });
  expect(
    await ok("GET", `/registry/v2/repos/${repo.uid}/digests/${digest}/size`, undefined, { architecture: "arm64" }),
  ).toEqual(size);
  const other = await call(emu, "GET", `/registry/v2/repos/${repo.uid}/digests/sha256:${"e".repeat(64)}/size`);
  expect(other.status).toBe(404);
});

test("advisory events filter by documented values and by their short names", async () => {
  const documented = await ok("GET", "/vulnerabilities/v2/advisories", undefined, {
    latestEventType: "EVENT_TYPE_FILTER_FIXED",
  });
  const short = await ok("GET", "/vulnerabilities/v2/advisories", undefined, { latestEventType: "fixed" });
  expect(documented.advisories.length).toBeGreaterThan(0);
  expect(documented.advisories.map((a: any) => a.uid)).toEqual(short.advisories.map((a: any) => a.uid));
  const docs = await ok("GET", "/advisory/v2/documents", undefined, { id: "openssl" });
  expect(docs.documents.map((d: any) => d.id)).toEqual(["openssl"]);
  expect(docs.documents[0].advisories.length).toBe(2);
});

test("advisories: origin names a package and its subpackages (artifactNames then ignored); events filter by review state, author and reviewer; latestEventType is the latest approved event", async () => {
  const all = (await ok("GET", "/vulnerabilities/v2/advisories", undefined, { pageSize: "200" })).advisories as any[];
  const uids = (body: any) => body.advisories.map((a: any) => a.uid).sort();
  const where = (keep: (a: any) => boolean) =>
    all
      .filter(keep)
      .map((a) => a.uid)
      .sort();
  const python = await ok("GET", "/vulnerabilities/v2/advisories", undefined, { origin: "python" });
  expect(uids(python)).toEqual(where((a) => a.artifactName === "python"));
  expect(uids(python).length).toBeGreaterThan(0);
  // "pyth" is no package of the seed: a prefix is not an origin.
  expect(uids(await ok("GET", "/vulnerabilities/v2/advisories", undefined, { origin: "pyth" }))).toEqual([]);
  expect(
    uids(await ok("GET", "/vulnerabilities/v2/advisories", undefined, { origin: "python", artifactNames: "nginx" })),
  ).toEqual(uids(python));

  const pending = await ok("GET", "/vulnerabilities/v2/advisories", undefined, {
    eventReviewStates: "REVIEW_STATE_PENDING",
  });
  expect(uids(pending)).toEqual(where((a) => a.events.some((e: any) => e.reviewState === "REVIEW_STATE_PENDING")));
  expect(uids(pending).length).toBeGreaterThan(0);
  expect(uids(pending).length).toBeLessThan(all.length);
  const byEmulator = await ok("GET", "/vulnerabilities/v2/advisories", undefined, { eventAuthors: "emulator" });
  expect(uids(byEmulator)).toEqual(where(() => true));
  expect(uids(await ok("GET", "/vulnerabilities/v2/advisories", undefined, { eventAuthors: "someone" }))).toEqual([]);
  expect(
    uids(
      await ok("GET", "/vulnerabilities/v2/advisories", undefined, { excludeEventAuthors: ["someone", "emulator"] }),
    ),
  ).toEqual([]);
  expect(
    uids(await ok("GET", "/vulnerabilities/v2/advisories", undefined, { excludeEventAuthors: "someone" })),
  ).toEqual(where(() => true));
  expect(uids(await ok("GET", "/vulnerabilities/v2/advisories", undefined, { eventReviewers: "someone" }))).toEqual([]);

  // An advisory whose last event still awaits review is known by the event approved before it.
  const latest = async (type: string) =>
    uids(await ok("GET", "/vulnerabilities/v2/advisories", undefined, { latestEventType: type }));
  expect(await latest("EVENT_TYPE_FILTER_PENDING_UPSTREAM_FIX")).toEqual([]);
  expect(await latest("EVENT_TYPE_FILTER_DETECTION")).toEqual(uids(pending));
});

test("artifact versions are ordered by any field of the documented ArtifactVersion", async () => {
  const artifact = { uid: "py-numpy" };
  const versions = (orderBy?: string) =>
    ok("GET", `/libraries/v2/artifacts/${artifact.uid}/versions`, undefined, orderBy ? { orderBy } : {}).then(
      (body) => body.artifactVersions as any[],
    );
  const newestFirst = await versions();
  expect(newestFirst.map((v) => v.version)).toEqual(["2.1.3", "1.26.4"]);
  expect((await versions("version asc")).map((v) => v.version)).toEqual(newestFirst.map((v) => v.version).reverse());
  const bySize = (await versions("size_bytes desc")).map((v) => Number(v.sizeBytes));
  expect(bySize).toEqual([...bySize].sort((a, b) => b - a));
  expect((await versions("uid")).map((v) => v.uid)).toEqual(newestFirst.map((v) => v.uid).sort());
  for (const field of ["createTime", "update_time desc", "name"])
    expect(await versions(field)).toHaveLength(newestFirst.length);
  const wrong = await call(emu, "GET", `/libraries/v2/artifacts/${artifact.uid}/versions`, {
    query: { orderBy: "description" },
  });
  expect([wrong.status, wrong.text]).toEqual([400, expect.stringContaining("order_by")]);
});

test("library request groups: items follow the catalog; remove, restore, submit once", async () => {
  const rg = await ok("POST", `/libraries/v2beta1/requestGroups/${team.uid}`, {
    name: "deps",
    content: "requests==2.31.0\nnumpy==9.9.9\n# comment\nleft-pad==1.0\n",
  });
  expect(rg.availabilitySummary).toMatchObject({ built: 1, canBeRequested: 1, notFoundUpstream: 1 });
  const items = (await ok("GET", `/libraries/v2beta1/requestGroups/${rg.uid}/items`)).requestGroupItems;
  expect(items.map((i: any) => [i.packageName, i.availability])).toEqual([
    ["requests", "AVAILABILITY_BUILT"],
    ["numpy", "AVAILABILITY_CAN_BE_REQUESTED"],
    ["left-pad", "AVAILABILITY_NOT_FOUND_UPSTREAM"],
  ]);
  const removed = await ok("POST", `/libraries/v2beta1/requestGroups/${rg.uid}:removeItems`, {
    itemUids: [items[2].uid],
  });
  expect(removed.removedCount).toBe(1);
  expect((await ok("GET", `/libraries/v2beta1/requestGroups/${rg.uid}/items`)).requestGroupItems).toHaveLength(2);
  const restored = await ok("POST", `/libraries/v2beta1/requestGroups/${rg.uid}:restoreItems`, {
    itemUids: [items[2].uid],
  });
  expect(restored.restoredCount).toBe(1);
  const submitted = await ok("POST", `/libraries/v2beta1/requestGroups/${rg.uid}:submit`, {});
  expect(submitted).toMatchObject({ status: "REQUEST_GROUP_STATUS_PROCESSING", submittedBy: expect.any(String) });
  expect((await call(emu, "POST", `/libraries/v2beta1/requestGroups/${rg.uid}:submit`, { body: {} })).status).toBe(400);
  const libraries = await ok("GET", "/libraries/v2beta1/requestedLibraries", undefined, { parent: team.uid });
  expect(libraries.requestedLibraries.map((l: any) => l.name)).toEqual(["left-pad", "numpy", "requests"]);
});

describe("list parameters the documents give, each honoured", () => {
  const names = (body: any, key: string, field = "name") => body[key].map((x: any) => x[field]);

  test('libraries artifacts: by name ascending by default; orderBy "name desc", other fields, and a field it cannot order by', async () => {
    const list = (query: Record<string, string | string[]>) =>
      ok("GET", "/libraries/v2beta1/artifacts", undefined, { ecosystems: "ECOSYSTEM_PYTHON", ...query });
    expect(names(await list({}), "artifacts")).toEqual(["numpy", "requests", "urllib3"]);
    expect(names(await list({ orderBy: "name desc" }), "artifacts")).toEqual(["urllib3", "requests", "numpy"]);
    expect(names(await list({ order_by: "name asc" }), "artifacts")).toEqual(["numpy", "requests", "urllib3"]);
    // Ties keep the default order; versions compare by their numbers.
    expect(names(await list({ orderBy: "versionCount desc" }), "artifacts")).toEqual(["numpy", "requests", "urllib3"]);
    expect(names(await list({ orderBy: "latest_version desc" }), "artifacts")).toEqual([
      "requests",
      "urllib3",
      "numpy",
    ]);
    const paged = await list({ orderBy: "name desc", pageSize: "2" });
    expect(names(paged, "artifacts")).toEqual(["urllib3", "requests"]);
    expect(
      names(await list({ orderBy: "name desc", pageSize: "2", pageToken: paged.nextPageToken }), "artifacts"),
    ).toEqual(["numpy"]);
    const bad = await call(emu, "GET", "/libraries/v2beta1/artifacts", {
      query: { ecosystems: "ECOSYSTEM_PYTHON", orderBy: "popularity desc" },
    });
    expect([bad.status, detail(bad.body, "BadRequest")?.fieldViolations[0].field]).toEqual([400, "order_by"]);
    const versions = await ok("GET", "/libraries/v2beta1/artifacts/py-numpy/versions");
    expect(names(versions, "artifactVersions", "version")).toEqual(["2.1.3", "1.26.4"]);
    const oldest = await ok("GET", "/libraries/v2beta1/artifacts/py-numpy/versions", undefined, {
      orderBy: "version asc",
    });
    expect(names(oldest, "artifactVersions", "version")).toEqual(["1.26.4", "2.1.3"]);
  });

  test('request-group items: in the group\'s order by default; orderBy "packageName desc" and "version desc"', async () => {
    const rg = await ok("POST", `/libraries/v2beta1/requestGroups/${team.uid}`, {
      name: "ordered-items",
      content: "requests==2.31.0\nnumpy==1.26.4\nurllib3==2.2.3\nnumpy==2.1.3\n",
    });
    const items = (query: Record<string, string> = {}) =>
      ok("GET", `/libraries/v2beta1/requestGroups/${rg.uid}/items`, undefined, query).then((body) =>
        body.requestGroupItems.map((i: any) => i.requirement),
      );
    expect(await items()).toEqual(["requests==2.31.0", "numpy==1.26.4", "urllib3==2.2.3", "numpy==2.1.3"]);
    expect(await items({ orderBy: "packageName desc" })).toEqual([
      "urllib3==2.2.3",
      "requests==2.31.0",
      "numpy==1.26.4",
      "numpy==2.1.3",
    ]);
    expect(await items({ orderBy: "version desc" })).toEqual([
      "requests==2.31.0",
      "urllib3==2.2.3",
      "numpy==2.1.3",
      "numpy==1.26.4",
    ]);
    expect(await items({ order_by: "package_name" })).toEqual([
      "numpy==1.26.4",
      "numpy==2.1.3",
      "requests==2.31.0",
      "urllib3==2.2.3",
    ]);
  });

  test('requested libraries: the latest request first by default; orderBy "name desc" and "name"', async () => {
    const parent = await ok("POST", `${G}/${team.uid}`, { name: "requested-order" });
    for (const content of ["numpy==1.26.4\n", "requests==2.31.0\n", "urllib3==2.2.3\n"]) {
      await ok("POST", `/libraries/v2beta1/requestGroups/${parent.uid}`, { name: content.split("=")[0], content });
      emu.advanceClock(1000);
    }
    const libraries = (query: Record<string, string> = {}) =>
      ok("GET", "/libraries/v2beta1/requestedLibraries", undefined, { parent: parent.uid, ...query }).then((body) =>
        names(body, "requestedLibraries"),
      );
    expect(await libraries()).toEqual(["urllib3", "requests", "numpy"]);
    expect(await libraries({ orderBy: "last_request_time asc" })).toEqual(["numpy", "requests", "urllib3"]);
    expect(await libraries({ orderBy: "name desc" })).toEqual(["urllib3", "requests", "numpy"]);
    expect(await libraries({ orderBy: "name" })).toEqual(["numpy", "requests", "urllib3"]);
  });

  test("tags: tags of a build date (*-20yymmdd) and of an epoch (*-r<n>) are listed only with includeDates=true and includeEpochs=true (either spelling)", async () => {
    const repo = await ok("POST", `/registry/v2/repos/${team.uid}`, { name: "dated" });
    const digest = `sha256:${"d".repeat(64)}`;
    for (const name of ["latest", "1.2", "1.2-20240115", "1.2-r1", "2024"])
      await ok("POST", `/registry/v2/tags/${repo.uid}`, { name, digest });
    const tags = (query: Record<string, string> = {}) =>
      ok("GET", "/registry/v2/tags", undefined, { "uidp.childrenOf": repo.uid, ...query }).then((body) => ({
        names: names(body, "tags").sort(),
        total: body.totalCount,
      }));
    const plain = { names: ["1.2", "2024", "latest"], total: "3" };
    expect(await tags()).toEqual(plain);
    expect(await tags({ includeDates: "false", includeEpochs: "false" })).toEqual(plain);
    for (const key of ["includeDates", "include_dates"])
      expect(await tags({ [key]: "true" })).toEqual({ names: ["1.2", "1.2-20240115", "2024", "latest"], total: "4" });
    for (const key of ["includeEpochs", "include_epochs"])
      expect(await tags({ [key]: "true" })).toEqual({ names: ["1.2", "1.2-r1", "2024", "latest"], total: "4" });
    expect(await tags({ includeDates: "true", includeEpochs: "true" })).toEqual({
      names: ["1.2", "1.2-20240115", "1.2-r1", "2024", "latest"],
      total: "5",
    });
    // A dated tag is still read by its uid.
    const dated = (
      await ok("GET", "/registry/v2/tags", undefined, {
        "uidp.childrenOf": repo.uid,
        includeDates: "true",
        name: "1.2-20240115",
      })
    ).tags[0];
    expect((await ok("GET", `/registry/v2/tags/${dated.uid}`)).name).toBe("1.2-20240115");
  });

  test("advisories: legacyAdvisoryIds selects the advisories migrated with those ids (repeated or comma-separated), and only those", async () => {
    const all = (await ok("GET", "/vulnerabilities/v2/advisories", undefined, { pageSize: "200" })).advisories;
    const migrated = all.filter((a: any) => a.legacyAdvisoryId !== undefined);
    expect(migrated.length).toBeGreaterThanOrEqual(2);
    expect(migrated.length).toBeLessThan(all.length);
    const [first, second] = migrated;
    expect(first.legacyAdvisoryId).toMatch(/^CGA-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    const uids = async (query: Record<string, string | string[]>) =>
      (await ok("GET", "/vulnerabilities/v2/advisories", undefined, query)).advisories.map((a: any) => a.uid);
    expect(await uids({ legacyAdvisoryIds: first.legacyAdvisoryId })).toEqual([first.uid]);
    expect(await uids({ legacy_advisory_ids: [first.legacyAdvisoryId, second.legacyAdvisoryId] })).toEqual(
      [first.uid, second.uid].sort(),
    );
    expect(await uids({ legacyAdvisoryIds: `${first.legacyAdvisoryId},${second.legacyAdvisoryId}` })).toEqual(
      [first.uid, second.uid].sort(),
    );
    // The two kinds of id are not mixed up.
    expect(await uids({ advisoryIds: first.legacyAdvisoryId })).toEqual([]);
    expect(await uids({ legacyAdvisoryIds: first.advisoryId })).toEqual([]);
    expect(await uids({ legacyAdvisoryIds: "CGA-none-none-none" })).toEqual([]);
  });
});
