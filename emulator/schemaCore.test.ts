import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, RunningEmulator } from "./index";
import { call, detail, G } from "../tests/support/emulatorClient";
import { loadApiDocument } from "./apiDocument";
import { Router } from "./routes";

let emu: RunningEmulator;
const violations = (body: any) =>
  (detail(body, "BadRequest")?.fieldViolations ?? []) as Array<{ field: string; description: string }>;

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
});
afterAll(() => emu.close());

describe("documents", () => {
  test("a missing API document fails the start with a message naming the file", async () => {
    const missing = path.join(os.tmpdir(), "no-such-dir", "api-v2-schema.json");
    await expect(startEmulator({ apiDocumentPath: missing, quiet: true })).rejects.toThrow(
      /cannot read them at .*no-such-dir.*api-v2-schema\.json/,
    );
  });

  test("every documented operation has a route, GA under v2 and v2beta1, v2beta1-only under v2beta1 only", () => {
    const doc = loadApiDocument();
    const router = new Router(doc);
    for (const op of doc.operations) {
      const concrete = op.path.replace(/\{[^}]+\}/g, "abc/def");
      for (const served of [concrete, concrete.replace(/^(\/[^/]+)\/v2\//, "$1/v2beta1/")]) {
        const found = router.match(op.method, served);
        expect([served, found && "route" in found ? found.route.op.operation : found]).toEqual([served, op.operation]);
      }
    }
    for (const op of doc.v2beta1Only) {
      const concrete = op.path.replace(/\{[^}]+\}/g, "abc/def");
      const found = router.match(op.method, concrete);
      expect(found && "route" in found ? found.route.op.operation : found).toBe(op.operation);
      const ga = router.match(op.method, concrete.replace("/v2beta1/", "/v2/"));
      expect(ga && "route" in ga ? ga.route.op.operation : null).not.toBe(op.operation);
    }
  });

  test("path parameters keep their slashes; custom verbs and nested paths win over a bare uid", () => {
    const router = new Router(loadApiDocument());
    const match = (method: string, p: string) => {
      const found = router.match(method, p);
      return found && "route" in found ? [found.route.op.operation, found.pathParams] : found;
    };
    expect(match("POST", "/iam/v2/groups/a/b:requestGroupAccess")).toEqual([
      "GroupsService_RequestGroupAccess",
      { groupUid: "a/b" },
    ]);
    expect(match("GET", "/registry/v2beta1/repos/a/b/readme")).toEqual([
      "ReposService_GetRepoReadme",
      { "repoReadme.uid": "a/b" },
    ]);
    expect(match("GET", `/registry/v2/repos/a/b/digests/sha256:${"0".repeat(64)}/size`)).toEqual([
      "ImagesService_GetSize",
      { repoUid: "a/b", digest: `sha256:${"0".repeat(64)}` },
    ]);
    expect(match("GET", "/iam/v2/groups/a%2Fb")).toEqual(["GroupsService_GetGroup", { uid: "a/b" }]);
    expect(match("GET", "/registry/v2/overlays")).toBeNull();
  });
});

describe("bodies against their documented message", () => {
  test.each([["toString"], ["constructor"], ["__proto__"], ["hasOwnProperty"]])(
    "%s in a create body is an unknown field",
    async (key) => {
      const reply = await call(emu, "POST", `${G}/${emu.rootUid}`, {
        rawBody: `{"name":"own-${key.length}","${key}":{}}`,
      });
      expect(reply.status).toBe(400);
      expect(violations(reply.body)).toEqual([{ field: key, description: "unknown field" }]);
    },
  );

  test.each([["toString"], ["constructor"], ["__proto__"], ["valueOf"]])(
    "%s in an updateMask is an unknown field",
    async (key) => {
      const reply = await call(emu, "PATCH", `${G}/${emu.rootUid}`, {
        query: { updateMask: key },
        body: { name: "x" },
      });
      expect(reply.status).toBe(400);
      expect(violations(reply.body)).toEqual([
        { field: "updateMask", description: expect.stringContaining(`"${key}"`) },
      ]);
    },
  );

  test("unknown nested fields, wrong types, enums and formats are named with their path", async () => {
    const reply = await call(emu, "POST", `/iam/v2/identities/${emu.rootUid}`, {
      body: { name: "nested", claimMatch: { issuer: "https://x", subject: "s", colour: "red", claims: { team: 3 } } },
    });
    expect(reply.status).toBe(400);
    expect(violations(reply.body)).toEqual(
      expect.arrayContaining([
        { field: "claimMatch.colour", description: "unknown field" },
        { field: "claimMatch.claims.team", description: "must be a string" },
      ]),
    );
    const role = await call(emu, "POST", `/iam/v2/roles/${emu.rootUid}`, {
      body: { name: "r", capabilities: ["CAP_FLY"] },
    });
    expect(violations(role.body)).toEqual([
      { field: "capabilities[0]", description: expect.stringMatching(/^must be one of the documented values/) },
    ]);
  });

  test("a documented required field missing is named (create)", async () => {
    const reply = await call(emu, "POST", `/registry/v2/tags/${emu.rootUid}`, { body: {} });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    const invite = await call(emu, "POST", `/iam/v2/groupInvites/${emu.rootUid}`, { body: { email: "a@b.c" } });
    expect(invite.status).toBe(400);
    expect(
      violations(invite.body)
        .map((v) => v.field)
        .sort(),
    ).toEqual(["roleUid", "ttl"]);
  });

  test("query parameters are checked against their documented type and enum, by either spelling", async () => {
    const bad = await call(emu, "GET", "/iam/v2/identities", { query: { relationshipType: "FRIEND" } });
    expect([bad.status, violations(bad.body)[0]?.field]).toEqual([400, "relationshipType"]);
    const snake = await call(emu, "GET", "/iam/v2/identities", {
      query: { relationship_type: "RELATIONSHIP_TYPE_CLAIM_MATCH" },
    });
    expect(snake.status).toBe(200);
    const missing = await call(emu, "GET", "/iam/v2/identities:lookupIdentity", { query: { issuer: "x" } });
    expect([missing.status, violations(missing.body)[0]?.field]).toEqual([400, "subject"]);
  });
});

describe("update rules: the spec's by default, the documents' stricter reading as an option", () => {
  let strict: RunningEmulator;
  beforeAll(async () => {
    strict = await startEmulator({ quiet: true, seed: false, requirePatchFields: true });
  });
  afterAll(() => strict.close());

  /** A fresh group under the root of `on`, with a name and a description. */
  async function group(on: RunningEmulator, name: string) {
    const created = await call(on, "POST", `${G}/${on.rootUid}`, { body: { name, description: "before" } });
    expect(created.status).toBe(200);
    return created.body.uid as string;
  }

  test("by default a PATCH with updateMask=description and a body of the description alone changes the description (a console edit)", async () => {
    const uid = await group(emu, "console-edit");
    const reply = await call(emu, "PATCH", `${G}/${uid}`, {
      query: { updateMask: "description" },
      body: { description: "edited in the console" },
    });
    expect([reply.status, reply.body.name, reply.body.description]).toEqual([
      200,
      "console-edit",
      "edited in the console",
    ]);
  });

  test("by default a PATCH without updateMask changes the fields present only: a required field may be left out", async () => {
    const uid = await group(emu, "fields-present");
    const reply = await call(emu, "PATCH", `${G}/${uid}`, { body: { verified: true } });
    expect([reply.status, reply.body.name, reply.body.description, reply.body.verified]).toEqual([
      200,
      "fields-present",
      "before",
      true,
    ]);
    const role = await call(emu, "POST", `/iam/v2/roles/${emu.rootUid}`, { body: { name: "auditor" } });
    const renamed = await call(emu, "PATCH", `/iam/v2/roles/${role.body.uid}`, { body: { description: "audits" } });
    expect([renamed.status, renamed.body.name, renamed.body.description]).toEqual([200, "auditor", "audits"]);
  });

  test("by default the fields of the body that updateMask does not list are ignored: neither applied nor checked", async () => {
    const uid = await group(emu, "mask-ignores");
    const reply = await call(emu, "PATCH", `${G}/${uid}`, {
      query: { updateMask: "description" },
      body: { description: "masked", name: "Not A Valid Name!", verified: "yes", notAField: 1 },
    });
    expect([reply.status, reply.body.name, reply.body.description, reply.body.verified]).toEqual([
      200,
      "mask-ignores",
      "masked",
      false,
    ]);
  });

  test("by default what updateMask lists is still checked, and a required field cannot be cleared", async () => {
    const uid = await group(emu, "mask-checked");
    const wrongType = await call(emu, "PATCH", `${G}/${uid}`, {
      query: { updateMask: "description" },
      body: { description: 5 },
    });
    expect([wrongType.status, violations(wrongType.body).map((v) => v.field)]).toEqual([400, ["description"]]);
    const cleared = await call(emu, "PATCH", `${G}/${uid}`, {
      query: { updateMask: "name" },
      body: { description: "x" },
    });
    expect([cleared.status, violations(cleared.body).map((v) => v.field)]).toEqual([400, ["name"]]);
    const badName = await call(emu, "PATCH", `${G}/${uid}`, { body: { name: "Not A Valid Name!" } });
    expect([badName.status, violations(badName.body).map((v) => v.field)]).toEqual([400, ["name"]]);
    expect((await call(emu, "GET", `${G}/${uid}`)).body).toMatchObject({ name: "mask-checked", description: "before" });
  });

  test("requirePatchFields: every documented required field in every PATCH body, and the whole body checked even under a mask", async () => {
    const uid = await group(strict, "strict-reading");
    const noName = await call(strict, "PATCH", `${G}/${uid}`, {
      query: { updateMask: "description" },
      body: { description: "edited in the console" },
    });
    expect([noName.status, violations(noName.body)]).toEqual([400, [{ field: "name", description: "is required" }]]);
    const withoutMask = await call(strict, "PATCH", `${G}/${uid}`, { body: { verified: true } });
    expect([withoutMask.status, violations(withoutMask.body).map((v) => v.field)]).toEqual([400, ["name"]]);
    const outsideMask = await call(strict, "PATCH", `${G}/${uid}`, {
      query: { updateMask: "description" },
      body: { name: "strict-reading", description: "masked", verified: "yes" },
    });
    expect([outsideMask.status, violations(outsideMask.body).map((v) => v.field)]).toEqual([400, ["verified"]]);
    const full = await call(strict, "PATCH", `${G}/${uid}`, {
      query: { updateMask: "description" },
      body: { name: "ignored-by-the-mask", description: "with name" },
    });
    expect([full.status, full.body.name, full.body.description]).toEqual([200, "strict-reading", "with name"]);
  });
});
