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

  test("PATCH bodies: documented required fields are checked (on by default; requirePatchFields: false lifts it)", async () => {
    const strict = await startEmulator({ quiet: true, seed: false });
    try {
      const reply = await call(strict, "PATCH", `${G}/${strict.rootUid}`, { body: { description: "no name" } });
      expect(reply.status).toBe(400);
      expect(violations(reply.body)).toEqual([{ field: "name", description: "is required" }]);
      const full = await call(strict, "PATCH", `${G}/${strict.rootUid}`, {
        query: { updateMask: "description" },
        body: { name: "demo-org", description: "with name" },
      });
      expect([full.status, full.body.description]).toEqual([200, "with name"]);
    } finally {
      await strict.close();
    }
    const lenientEmulator = await startEmulator({ quiet: true, seed: false, requirePatchFields: false });
    try {
      const lenient = await call(lenientEmulator, "PATCH", `${G}/${lenientEmulator.rootUid}`, {
        body: { description: "no name" },
      });
      expect(lenient.status).toBe(200);
    } finally {
      await lenientEmulator.close();
    }
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
