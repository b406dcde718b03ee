import { startEmulator, RunningEmulator } from "./index";
import { call, detail, G } from "../tests/support/emulatorClient";

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
});
afterAll(() => emu.close());

async function createGroup(name: string, parent = emu.rootUid, extra: Record<string, unknown> = {}) {
  const reply = await call(emu, "POST", `${G}/${parent}`, { body: { name, ...extra } });
  expect(reply.status).toBe(200);
  return reply.body;
}

describe("group create", () => {
  test("a child's uid is its parent's uid, '/', and one new segment; the root is one segment", async () => {
    expect(emu.rootUid).not.toContain("/");
    const team = await createGroup("team-uid");
    expect(team.uid).toMatch(new RegExp(`^${emu.rootUid}/[0-9a-f]+$`));
    const sub = await createGroup("sub", team.uid);
    expect(sub.uid.startsWith(`${team.uid}/`)).toBe(true);
    expect(sub.uid.split("/")).toHaveLength(3);
  });

  test("answers the whole group: empty resourceLimits, verified false, ISO timestamps with ms and Z", async () => {
    const group = await createGroup("shape", emu.rootUid, { description: "d" });
    expect(Object.keys(group).sort()).toEqual([
      "createTime",
      "description",
      "name",
      "resourceLimits",
      "uid",
      "updateTime",
      "verified",
    ]);
    expect(group).toMatchObject({ name: "shape", description: "d", resourceLimits: {}, verified: false });
    expect(group.createTime).toMatch(ISO_MS);
    expect(group.updateTime).toBe(group.createTime);
    const fetched = await call(emu, "GET", `${G}/${group.uid}`);
    expect(fetched.body).toEqual(group);
  });

  test("description defaults to an empty string", async () => {
    expect((await createGroup("nodesc")).description).toBe("");
  });

  test.each([["Upper"], ["with/slash"], ["émoji"], [""]])(
    "name %j breaks the pattern: INVALID_ARGUMENT naming name",
    async (name) => {
      const reply = await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name } });
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe(3);
      expect(reply.body.message).toMatch(/^Invalid argument: name/);
      expect(detail(reply.body, "BadRequest")?.fieldViolations).toEqual([
        { field: "name", description: expect.any(String) },
      ]);
      expect(detail(reply.body, "ErrorInfo")).toMatchObject({ reason: "INVALID_ARGUMENT", domain: expect.any(String) });
    },
  );

  test("names with spaces, dots, dashes and underscores are valid", async () => {
    expect((await createGroup("a b.c_d-e 9")).name).toBe("a b.c_d-e 9");
  });

  test("an empty body fails with one violation for name", async () => {
    const reply = await call(emu, "POST", `${G}/${emu.rootUid}`);
    expect(reply.status).toBe(400);
    expect(detail(reply.body, "BadRequest")?.fieldViolations.map((v: any) => v.field)).toEqual(["name"]);
  });

  test("one field violation per failing field", async () => {
    const reply = await call(emu, "POST", `${G}/${emu.rootUid}`, {
      body: { name: "BAD", description: 5, bogus: true },
    });
    expect(reply.status).toBe(400);
    const fields = detail(reply.body, "BadRequest")
      ?.fieldViolations.map((v: any) => v.field)
      .sort();
    expect(fields).toEqual(["bogus", "description", "name"]);
  });

  test("a duplicate name under the same parent is ALREADY_EXISTS (409) naming the existing uid", async () => {
    const first = await createGroup("dupe");
    const reply = await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "dupe" } });
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe(6);
    expect(detail(reply.body, "ResourceInfo")?.resourceName).toBe(first.uid);
    // The same name under another parent is fine.
    const other = await createGroup("dupe-parent");
    expect((await createGroup("dupe", other.uid)).name).toBe("dupe");
  });

  test("creating under a missing parent is NOT_FOUND with ResourceInfo", async () => {
    const reply = await call(emu, "POST", `${G}/${emu.rootUid}/ffffffffffffffff`, { body: { name: "orphan" } });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe(5);
    expect(detail(reply.body, "ResourceInfo")).toMatchObject({ resourceName: `${emu.rootUid}/ffffffffffffffff` });
  });

  test("POST without a parent in the path is INVALID_ARGUMENT naming parent", async () => {
    const reply = await call(emu, "POST", G, { body: { name: "x" } });
    expect(reply.status).toBe(400);
    expect(detail(reply.body, "BadRequest")?.fieldViolations[0].field).toBe("parent");
  });

  test("read-only fields sent on create are ignored", async () => {
    const group = await createGroup("ro-create", emu.rootUid, {
      uid: "hijack",
      createTime: "2000-01-01T00:00:00.000Z",
      resourceLimits: { clusters: 9 },
    });
    expect(group.uid).not.toBe("hijack");
    expect(group.createTime).not.toBe("2000-01-01T00:00:00.000Z");
    expect(group.resourceLimits).toEqual({});
  });
});

describe("group PATCH", () => {
  test("without updateMask only the fields present change", async () => {
    const group = await createGroup("patch-a", emu.rootUid, { description: "keep me" });
    const reply = await call(emu, "PATCH", `${G}/${group.uid}`, { body: { name: "patch-a2" } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ name: "patch-a2", description: "keep me" });
  });

  test("with updateMask only the listed fields change; other body fields are ignored", async () => {
    const group = await createGroup("patch-b", emu.rootUid, { description: "old" });
    const reply = await call(emu, "PATCH", `${G}/${group.uid}`, {
      query: { updateMask: "description" },
      body: { name: "ignored", description: "new" },
    });
    expect(reply.body).toMatchObject({ name: "patch-b", description: "new" });
    expect((await call(emu, "GET", `${G}/${group.uid}`)).body).toMatchObject({ name: "patch-b", description: "new" });
  });

  test("a masked field absent from the body is cleared", async () => {
    const group = await createGroup("patch-clear", emu.rootUid, { description: "old" });
    const reply = await call(emu, "PATCH", `${G}/${group.uid}`, {
      query: { updateMask: "description" },
      body: { name: "patch-clear" },
    });
    expect(reply.body.description).toBe("");
  });

  test("updateMask takes several comma-separated fields, in snake_case too (update_mask)", async () => {
    const group = await createGroup("patch-c");
    const reply = await call(emu, "PATCH", `${G}/${group.uid}`, {
      query: { update_mask: "name,description" },
      body: { name: "patch-c2", description: "x", verified: true },
    });
    expect(reply.body).toMatchObject({ name: "patch-c2", description: "x", verified: false });
  });

  test("an unknown mask field is INVALID_ARGUMENT naming updateMask", async () => {
    const group = await createGroup("patch-d");
    const reply = await call(emu, "PATCH", `${G}/${group.uid}`, {
      query: { updateMask: "name,colour" },
      body: { name: "x" },
    });
    expect(reply.status).toBe(400);
    expect(detail(reply.body, "BadRequest")?.fieldViolations).toEqual([
      { field: "updateMask", description: expect.stringContaining("colour") },
    ]);
    expect((await call(emu, "GET", `${G}/${group.uid}`)).body.name).toBe("patch-d");
  });

  test("a read-only field in the mask is rejected; read-only fields in the body are ignored", async () => {
    const group = await createGroup("patch-e");
    const masked = await call(emu, "PATCH", `${G}/${group.uid}`, {
      query: { updateMask: "createTime" },
      body: { name: "patch-e", createTime: "2000-01-01T00:00:00.000Z" },
    });
    expect(masked.status).toBe(400);
    expect(detail(masked.body, "BadRequest")?.fieldViolations[0].field).toBe("updateMask");
    const body = await call(emu, "PATCH", `${G}/${group.uid}`, {
      body: {
        name: "patch-e",
        uid: "other",
        createTime: "2000-01-01T00:00:00.000Z",
        resourceLimits: { x: 1 },
        description: "changed",
      },
    });
    expect(body.status).toBe(200);
    expect(body.body).toMatchObject({
      uid: group.uid,
      createTime: group.createTime,
      resourceLimits: {},
      description: "changed",
    });
  });

  test("the name pattern applies on PATCH", async () => {
    const group = await createGroup("patch-f");
    const reply = await call(emu, "PATCH", `${G}/${group.uid}`, { body: { name: "NOPE!" } });
    expect(reply.status).toBe(400);
    expect(detail(reply.body, "BadRequest")?.fieldViolations[0].field).toBe("name");
  });

  test("renaming onto a sibling's name is ALREADY_EXISTS", async () => {
    await createGroup("patch-sib1");
    const second = await createGroup("patch-sib2");
    const reply = await call(emu, "PATCH", `${G}/${second.uid}`, { body: { name: "patch-sib1" } });
    expect(reply.status).toBe(409);
  });

  test("a change moves updateTime forward and keeps createTime", async () => {
    const group = await createGroup("patch-g");
    emu.advanceClock(5000);
    const reply = await call(emu, "PATCH", `${G}/${group.uid}`, { body: { name: "patch-g", description: "later" } });
    expect(Date.parse(reply.body.updateTime)).toBeGreaterThanOrEqual(Date.parse(group.updateTime) + 5000);
    expect(reply.body.createTime).toBe(group.createTime);
  });

  test("PATCH of a missing group is NOT_FOUND", async () => {
    const reply = await call(emu, "PATCH", `${G}/${emu.rootUid}/0000000000000000`, { body: { description: "x" } });
    expect(reply.status).toBe(404);
  });
});

describe("group delete", () => {
  test("an empty group is deleted with an empty body; afterwards Get is NOT_FOUND", async () => {
    const group = await createGroup("del-a");
    const reply = await call(emu, "DELETE", `${G}/${group.uid}`);
    expect(reply.status).toBe(200);
    expect(reply.text).toBe("{}");
    expect((await call(emu, "GET", `${G}/${group.uid}`)).status).toBe(404);
    expect((await call(emu, "DELETE", `${G}/${group.uid}`)).status).toBe(404);
  });

  test("a group with child repos fails: FAILED_PRECONDITION, RESOURCE_NOT_EMPTY, 'Precondition failed:'", async () => {
    const group = await createGroup("del-b");
    expect((await call(emu, "POST", `/registry/v2beta1/repos/${group.uid}`, { body: { name: "app" } })).status).toBe(
      200,
    );
    const reply = await call(emu, "DELETE", `${G}/${group.uid}`);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(9);
    expect(reply.body.message).toMatch(/^Precondition failed:/);
    expect(detail(reply.body, "ErrorInfo")?.reason).toBe("FAILED_PRECONDITION");
    expect(detail(reply.body, "PreconditionFailure")?.violations).toEqual([
      expect.objectContaining({ type: "RESOURCE_NOT_EMPTY", description: expect.stringContaining("repos") }),
    ]);
    expect((await call(emu, "GET", `${G}/${group.uid}`)).status).toBe(200);
  });

  test("a group with child groups or identities is RESOURCE_NOT_EMPTY too", async () => {
    const group = await createGroup("del-c");
    await createGroup("child", group.uid);
    const withChild = await call(emu, "DELETE", `${G}/${group.uid}`);
    expect(detail(withChild.body, "PreconditionFailure")?.violations[0]).toMatchObject({
      type: "RESOURCE_NOT_EMPTY",
      description: expect.stringContaining("child groups"),
    });
    const other = await createGroup("del-d");
    await call(emu, "POST", `/iam/v2beta1/identities/${other.uid}`, {
      body: { name: "bot", claimMatch: { issuer: "https://x", subject: "s" } },
    });
    const withIdentity = await call(emu, "DELETE", `${G}/${other.uid}`);
    expect(withIdentity.status).toBe(400);
    expect(detail(withIdentity.body, "PreconditionFailure")?.violations[0].description).toContain("identities");
  });

  test("role bindings on a deleted group go with it", async () => {
    const group = await createGroup("del-e");
    const identities = await call(emu, "GET", "/iam/v2beta1/identities", { query: { name: "dev-owner" } });
    const roles = await call(emu, "GET", "/iam/v2beta1/roles", { query: { name: "viewer" } });
    const binding = await call(emu, "POST", `/iam/v2beta1/roleBindings/${group.uid}`, {
      body: { identityUid: identities.body.identities[0].uid, roleUid: roles.body.roles[0].uid },
    });
    expect(binding.status).toBe(200);
    expect((await call(emu, "DELETE", `${G}/${group.uid}`)).status).toBe(200);
    expect((await call(emu, "GET", `/iam/v2beta1/roleBindings/${binding.body.uid}`)).status).toBe(404);
  });

  test("everything defined on a deleted group goes with it, and what is below or refers to that in turn", async () => {
    const group = await createGroup("del-f");
    const made = async (path: string, body: unknown): Promise<string> => {
      const reply = await call(emu, "POST", `${path}/${group.uid}`, { body });
      expect(reply.status).toBe(200);
      return `${path}/${reply.body.uid}`;
    };
    const viewer = (await call(emu, "GET", "/iam/v2beta1/roles", { query: { name: "viewer" } })).body.roles[0].uid;
    const role = await made("/iam/v2beta1/roles", { name: "custom", capabilities: ["CAP_REPO_LIST"] });
    const owner = (await call(emu, "GET", "/iam/v2beta1/identities", { query: { name: "dev-owner" } })).body
      .identities[0].uid;
    const roleUid = role.slice(role.lastIndexOf("/") + 1);
    const binding = await made("/iam/v2beta1/roleBindings", { identityUid: owner, roleUid });
    const idp = await made("/iam/v2beta1/identityProviders", {
      name: "sso",
      defaultRole: viewer,
      oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "s" },
    });
    const idpUid = idp.slice("/iam/v2beta1/identityProviders/".length);
    const mapping = await call(emu, "POST", `/iam/v2beta1/externalGroupRoleMappings/${idpUid}`, {
      body: { externalGroupId: "eng", roleUid: viewer },
    });
    expect(mapping.status).toBe(200);
    const defined = [
      role,
      binding,
      idp,
      `/iam/v2beta1/externalGroupRoleMappings/${mapping.body.uid}`,
      await made("/iam/v2beta1/groupInvites", { roleUid: viewer, ttl: "3600s" }),
      await made("/events/v2beta1/subscriptions", { sink: "https://hooks.example/events" }),
      await made("/registry/v2beta1/overlays", { name: "tz", config: { environment: { TZ: "UTC" } } }),
      await made("/libraries/v2beta1/requestGroups", { name: "deps", items: ["requests==2.31.0"] }),
    ];
    for (const path of defined) expect([path, (await call(emu, "GET", path)).status]).toEqual([path, 200]);
    expect((await call(emu, "DELETE", `${G}/${group.uid}`)).status).toBe(200);
    for (const path of defined) expect([path, (await call(emu, "GET", path)).status]).toEqual([path, 404]);
  });
});

describe("versions", () => {
  test("the /v2/ version segment serves the same resources", async () => {
    const created = await call(emu, "POST", `/iam/v2/groups/${emu.rootUid}`, { body: { name: "via-v2" } });
    expect(created.status).toBe(200);
    expect((await call(emu, "GET", `${G}/${created.body.uid}`)).body).toEqual(created.body);
    const list = await call(emu, "GET", "/registry/v2/repos");
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.repos)).toBe(true);
  });

  test("GET /iam/v1/groups answers items with id, resourceLimits integer keys and createdAt", async () => {
    const group = await createGroup("v1-shape", emu.rootUid, { description: "v1" });
    const reply = await call(emu, "GET", "/iam/v1/groups");
    expect(reply.status).toBe(200);
    expect(reply.body.groups).toBeUndefined();
    const item = reply.body.items.find((i: any) => i.id === group.uid);
    expect(item).toEqual({
      id: group.uid,
      name: "v1-shape",
      description: "v1",
      resourceLimits: { clusters: 0, idps: 0, repositories: 0 },
      verified: false,
      createdAt: group.createTime,
      updatedAt: group.updateTime,
    });
    const byId = await call(emu, "GET", "/iam/v1/groups", { query: { id: group.uid } });
    expect(byId.body.items.map((i: any) => i.id)).toEqual([group.uid]);
  });

  test("GET /registry/v1/repos answers items with id", async () => {
    const reply = await call(emu, "GET", "/registry/v1/repos");
    expect(reply.status).toBe(200);
    expect(reply.body.items.length).toBeGreaterThanOrEqual(3);
    expect(reply.body.items[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      createdAt: expect.stringMatching(ISO_MS),
    });
    expect(reply.body.items[0].uid).toBeUndefined();
  });

  test("v1 offers only those two lists", async () => {
    expect((await call(emu, "GET", "/iam/v1/identities")).status).toBe(404);
    expect((await call(emu, "POST", "/iam/v1/groups", { body: {} })).status).toBe(501);
  });
});
