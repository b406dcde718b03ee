import { startEmulator, RunningEmulator } from "./index";
import { call, detail, G } from "../tests/support/emulatorClient";
import { builtinRole } from "./capabilities";

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = "/iam/v2beta1/identities";
const RB = "/iam/v2beta1/roleBindings";
const REPOS = "/registry/v2beta1/repos";
const TAGS = "/registry/v2beta1/tags";
const ADV = "/vulnerabilities/v2beta1/advisories";
const DIGEST = `sha256:${"a".repeat(64)}`;

let emu: RunningEmulator;
let team: any;

async function ok(method: string, path: string, body?: unknown, query?: Record<string, string>) {
  const reply = await call(emu, method, path, { body, query });
  expect([path, reply.status, reply.body?.message]).toEqual([path, 200, undefined]);
  return reply.body;
}

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  team = await ok("POST", `${G}/${emu.rootUid}`, { name: "res" });
});
afterAll(() => emu.close());

describe("identities", () => {
  test("create answers uid under the group, claimMatch, lastSeenTime set at creation", async () => {
    const identity = await ok("POST", `${ID}/${team.uid}`, {
      name: "bot",
      description: "d",
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:a/b:ref:refs/heads/main" },
    });
    expect(identity.uid.startsWith(`${team.uid}/`)).toBe(true);
    expect(identity).toMatchObject({
      name: "bot",
      description: "d",
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:a/b:ref:refs/heads/main" },
    });
    for (const field of ["lastSeenTime", "createTime", "updateTime"]) expect(identity[field]).toMatch(ISO_MS);
    expect(identity.lastSeenTime).toBe(identity.createTime);
    expect(await ok("GET", `${ID}/${identity.uid}`)).toEqual(identity);
  });

  test.each([
    [{ subject: "s" }, "claimMatch.issuer"],
    [{ issuer: "https://i" }, "claimMatch.subject"],
    [{ issuer: "https://i", issuerPattern: ".*", subject: "s" }, "claimMatch.issuer"],
    [{ issuer: "https://i", subject: "s", subjectPattern: "s.*" }, "claimMatch.subject"],
    [{ issuer: "https://i", subjectPattern: "(" }, "claimMatch.subjectPattern"],
    [{ issuer: "https://i", subject: "s", audience: "a", audiencePattern: "a" }, "claimMatch.audience"],
  ])("claimMatch %j is INVALID_ARGUMENT naming %s", async (claimMatch, field) => {
    const reply = await call(emu, "POST", `${ID}/${team.uid}`, { body: { name: "bad", claimMatch } });
    expect(reply.status).toBe(400);
    expect(detail(reply.body, "BadRequest")?.fieldViolations.map((v: any) => v.field)).toEqual([field]);
  });

  test("patterns and audience are accepted and kept", async () => {
    const identity = await ok("POST", `${ID}/${team.uid}`, {
      name: "patterned",
      claimMatch: { issuerPattern: "https://.*", subjectPattern: "repo:.*", audience: "x" },
    });
    expect(identity.claimMatch).toEqual({ issuerPattern: "https://.*", subjectPattern: "repo:.*", audience: "x" });
  });

  test("PATCH changes claimMatch and description; name uniqueness within the group", async () => {
    const identity = await ok("POST", `${ID}/${team.uid}`, {
      name: "patchable",
      claimMatch: { issuer: "https://i", subject: "a" },
    });
    const patched = await ok("PATCH", `${ID}/${identity.uid}`, {
      name: "patchable",
      claimMatch: { issuer: "https://i", subject: "b" },
    });
    expect(patched.claimMatch.subject).toBe("b");
    const dupe = await call(emu, "POST", `${ID}/${team.uid}`, {
      body: { name: "patchable", claimMatch: { issuer: "https://i", subject: "c" } },
    });
    expect(dupe.status).toBe(409);
  });

  test("delete answers an empty body and removes its role bindings", async () => {
    const identity = await ok("POST", `${ID}/${team.uid}`, {
      name: "doomed",
      claimMatch: { issuer: "https://i", subject: "d" },
    });
    const binding = await ok("POST", `${RB}/${team.uid}`, {
      identityUid: identity.uid,
      roleUid: builtinRole("viewer").uid,
    });
    const reply = await call(emu, "DELETE", `${ID}/${identity.uid}`);
    expect([reply.status, reply.text]).toEqual([200, "{}"]);
    expect((await call(emu, "GET", `${RB}/${binding.uid}`)).status).toBe(404);
  });

  test("list by name within a group", async () => {
    const reply = await ok("GET", ID, undefined, { name: "bot", "uidp.descendants_of": team.uid });
    expect(reply.identities.map((i: any) => i.name)).toEqual(["bot"]);
  });
});

describe("role bindings", () => {
  let identity: any;
  beforeAll(async () => {
    identity = await ok("POST", `${ID}/${team.uid}`, {
      name: "bound",
      description: "who",
      claimMatch: { issuer: "https://iss", subject: "sub" },
    });
  });

  test("create answers hydrated identity, group and role", async () => {
    const viewer = builtinRole("viewer");
    const binding = await ok("POST", `${RB}/${team.uid}`, { identityUid: identity.uid, roleUid: viewer.uid });
    expect(binding.uid.startsWith(`${team.uid}/`)).toBe(true);
    expect(binding.identity).toEqual({
      uid: identity.uid,
      name: "bound",
      description: "who",
      subject: "sub",
      issuer: "https://iss",
    });
    expect(binding.group).toEqual({ uid: team.uid, name: "res", description: "" });
    expect(binding.role).toEqual({ uid: viewer.uid, name: "viewer", description: "Viewer Role (built-in)" });
    expect(binding.createTime).toMatch(ISO_MS);
    expect(binding.updateTime).toBeUndefined();
    expect(await ok("GET", `${RB}/${binding.uid}`)).toEqual(binding);
    const listed = await ok("GET", RB, undefined, { group: team.uid, role: viewer.uid, identity: identity.uid });
    expect(listed.roleBindings.map((b: any) => b.uid)).toEqual([binding.uid]);
  });

  test("PATCH roleUid re-hydrates the role", async () => {
    const binding = await ok("POST", `${RB}/${team.uid}`, {
      identityUid: identity.uid,
      roleUid: builtinRole("editor").uid,
    });
    const patched = await ok(
      "PATCH",
      `${RB}/${binding.uid}`,
      { roleUid: builtinRole("owner").uid },
      { updateMask: "roleUid" },
    );
    expect(patched.role.name).toBe("owner");
    expect(patched.roleUid).toBe(builtinRole("owner").uid);
  });

  test("a missing identity or role is INVALID_ARGUMENT naming the field", async () => {
    const noIdentity = await call(emu, "POST", `${RB}/${team.uid}`, {
      body: { identityUid: `${team.uid}/0000000000000000`, roleUid: builtinRole("viewer").uid },
    });
    expect(noIdentity.status).toBe(400);
    expect(detail(noIdentity.body, "BadRequest")?.fieldViolations[0].field).toBe("identityUid");
    const noRole = await call(emu, "POST", `${RB}/${team.uid}`, {
      body: { identityUid: identity.uid, roleUid: "f".repeat(40) },
    });
    expect(detail(noRole.body, "BadRequest")?.fieldViolations[0].field).toBe("roleUid");
    const empty = await call(emu, "POST", `${RB}/${team.uid}`, { body: {} });
    expect(
      detail(empty.body, "BadRequest")
        ?.fieldViolations.map((v: any) => v.field)
        .sort(),
    ).toEqual(["identityUid", "roleUid"]);
  });

  test("the same identity, role and group twice is ALREADY_EXISTS", async () => {
    const other = await ok("POST", `${G}/${team.uid}`, { name: "twice" });
    const body = { identityUid: identity.uid, roleUid: builtinRole("viewer").uid };
    await ok("POST", `${RB}/${other.uid}`, body);
    expect((await call(emu, "POST", `${RB}/${other.uid}`, { body })).status).toBe(409);
  });
});

describe("roles", () => {
  test("custom roles have 40-hex uids, validate capabilities, and built-ins cannot change", async () => {
    const role = await ok("POST", `/iam/v2beta1/roles/${team.uid}`, {
      name: "lister",
      capabilities: ["CAP_IAM_GROUPS_LIST"],
    });
    expect(role.uid).toMatch(/^[0-9a-f]{40}$/);
    const bad = await call(emu, "POST", `/iam/v2beta1/roles/${team.uid}`, {
      body: { name: "bad", capabilities: ["CAP_FLY"] },
    });
    expect(detail(bad.body, "BadRequest")?.fieldViolations[0].field).toBe("capabilities[0]");
    const builtin = await call(emu, "PATCH", `/iam/v2beta1/roles/${builtinRole("viewer").uid}`, {
      body: { description: "x" },
    });
    expect(builtin.status).toBe(403);
    expect((await call(emu, "DELETE", `/iam/v2beta1/roles/${role.uid}`)).status).toBe(200);
  });
});

describe("repos, tags and advisories", () => {
  test("repo create/get/patch/list", async () => {
    const repo = await ok("POST", `${REPOS}/${team.uid}`, { name: "app", bundles: ["base"] });
    expect(repo).toMatchObject({
      name: "app",
      bundles: ["base"],
      aliases: [],
      activeTags: [],
      catalogTier: "CATALOG_TIER_UNSPECIFIED",
    });
    expect(repo.uid.startsWith(`${team.uid}/`)).toBe(true);
    const patched = await ok("PATCH", `${REPOS}/${repo.uid}`, { name: repo.name, aliases: ["application"] });
    expect(patched).toMatchObject({ bundles: ["base"], aliases: ["application"] });
    const listed = await ok("GET", REPOS, undefined, { "uidp.children_of": team.uid });
    expect(listed.repos.map((r: any) => r.uid)).toEqual([repo.uid]);
  });

  test("tags live under their repo: fields name, digest, deprecated, bundles, updateTime and no createTime", async () => {
    const repo = await ok("POST", `${REPOS}/${team.uid}`, { name: "tagged" });
    const tag = await ok("POST", `${TAGS}/${repo.uid}`, { name: "latest", digest: DIGEST });
    expect(tag.uid.startsWith(`${repo.uid}/`)).toBe(true);
    expect(Object.keys(tag).sort()).toEqual(["bundles", "deprecated", "digest", "name", "uid", "updateTime"]);
    const bad = await call(emu, "POST", `${TAGS}/${repo.uid}`, { body: { name: "v1", digest: "md5:abc" } });
    expect(detail(bad.body, "BadRequest")?.fieldViolations[0].field).toBe("digest");
    expect((await call(emu, "PATCH", `${TAGS}/${tag.uid}`, { body: { deprecated: true } })).status).toBe(501);
    emu.advanceClock(60_000);
    // Between the first tag's time and the next one's (60 s later by the emulator clock), whatever
    // the wall clock did meanwhile.
    const since = new Date(Date.parse(tag.updateTime) + 30_000).toISOString();
    const newer = await ok("POST", `${TAGS}/${repo.uid}`, { name: "v2", digest: `sha256:${"b".repeat(64)}` });
    const byRepo = await ok("GET", TAGS, undefined, { "uidp.children_of": repo.uid });
    expect(byRepo.tags.map((t: any) => t.name).sort()).toEqual(["latest", "v2"]);
    expect(
      (await ok("GET", TAGS, undefined, { "uidp.children_of": repo.uid, digest: DIGEST })).tags.map((t: any) => t.uid),
    ).toEqual([tag.uid]);
    expect(
      (await ok("GET", TAGS, undefined, { "uidp.children_of": repo.uid, updated_since: since })).tags.map(
        (t: any) => t.uid,
      ),
    ).toEqual([newer.uid]);
    expect(
      (await ok("GET", TAGS, undefined, { "uidp.children_of": repo.uid, updatedSince: since })).tags.map(
        (t: any) => t.uid,
      ),
    ).toEqual([newer.uid]);
    const badSince = await call(emu, "GET", TAGS, { query: { updated_since: "yesterday" } });
    expect(detail(badSince.body, "BadRequest")?.fieldViolations[0].field).toBe("updated_since");
    expect((await call(emu, "DELETE", `${TAGS}/${tag.uid}`)).status).toBe(200);
  });

  test("seeded advisories list and filter; repeated params as keys or comma lists; Get by uid; no create", async () => {
    const all = await ok("GET", ADV, undefined, { page_size: "200" });
    expect(all.advisories.length).toBeGreaterThanOrEqual(3);
    const first = all.advisories[0];
    expect(first).toMatchObject({
      uid: expect.any(String),
      advisoryId: expect.stringMatching(/^CGA-/),
      aliases: expect.any(Array),
      events: expect.any(Array),
    });
    expect(await ok("GET", `${ADV}/${first.uid}`)).toEqual(first);
    const openssl = await ok("GET", ADV, undefined, { component_names: "openssl" });
    expect(openssl.advisories.length).toBeGreaterThan(0);
    expect(openssl.advisories.every((a: any) => a.componentName === "openssl")).toBe(true);
    const two = all.advisories.slice(0, 2).map((a: any) => a.advisoryId);
    const comma = await call(emu, "GET", ADV, { query: { advisory_ids: two.join(",") } });
    const repeated = await call(emu, "GET", ADV, { query: { advisoryIds: two } });
    expect(comma.body.advisories.map((a: any) => a.advisoryId).sort()).toEqual([...two].sort());
    expect(repeated.body.advisories).toEqual(comma.body.advisories);
    const alias = first.aliases[0];
    expect((await ok("GET", ADV, undefined, { aliases: alias })).advisories.map((a: any) => a.uid)).toEqual([
      first.uid,
    ]);
    expect((await ok("GET", ADV, undefined, { query: alias.toLowerCase() })).advisories.map((a: any) => a.uid)).toEqual(
      [first.uid],
    );
    const byArtifact = await ok("GET", ADV, undefined, { artifact_names: first.artifactName });
    expect(byArtifact.advisories.every((a: any) => a.artifactName === first.artifactName)).toBe(true);
    const fixed = await ok("GET", ADV, undefined, { latest_event_type: "fixed" });
    expect(fixed.advisories.every((a: any) => a.events.at(-1).fixed !== undefined)).toBe(true);
    expect((await call(emu, "POST", `${ADV}/${team.uid}`, { body: {} })).status).toBe(501);
  });
});
