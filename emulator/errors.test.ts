import * as http from "node:http";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, RunningEmulator } from "./index";
import { call, detail, G } from "../tests/support/emulatorClient";
import { ApiError, CODES, failedPrecondition, invalidArgument, notFound, resourceExhausted } from "./errors";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ quiet: true, seed: false });
});
afterAll(() => emu.close());

function expectStatus(reply: { status: number; body: any; headers: Headers }, http: number, code: number) {
  expect([reply.status, reply.body?.code]).toEqual([http, code]);
  expect(reply.headers.get("content-type")).toBe("application/json");
  expect(typeof reply.body.message).toBe("string");
  expect(detail(reply.body, "ErrorInfo")).toMatchObject({ reason: expect.any(String), domain: expect.any(String) });
}

describe("malformed requests answer a Status, never a stack trace or HTML", () => {
  test("malformed JSON is INVALID_ARGUMENT naming body", async () => {
    const reply = await call(emu, "POST", `${G}/${emu.rootUid}`, { rawBody: "{name: oops" });
    expectStatus(reply, 400, 3);
    expect(reply.body.message).toMatch(/^Invalid argument: body/);
    expect(detail(reply.body, "BadRequest")?.fieldViolations[0].field).toBe("body");
    expect(reply.text).not.toMatch(/at .*\.js:\d+/);
  });

  test("a JSON body that is not an object is INVALID_ARGUMENT", async () => {
    expectStatus(await call(emu, "POST", `${G}/${emu.rootUid}`, { rawBody: "[1,2]" }), 400, 3);
    expectStatus(await call(emu, "POST", `${G}/${emu.rootUid}`, { rawBody: "null" }), 400, 3);
  });

  test("wrong types name the field", async () => {
    const reply = await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: 42, verified: "yes" } });
    expectStatus(reply, 400, 3);
    expect(
      detail(reply.body, "BadRequest")
        ?.fieldViolations.map((v: any) => v.field)
        .sort(),
    ).toEqual(["name", "verified"]);
  });

  test("an oversize body is INVALID_ARGUMENT", async () => {
    const reply = await call(emu, "POST", `${G}/${emu.rootUid}`, {
      rawBody: JSON.stringify({ name: "x", description: "y".repeat(1_100_000) }),
    });
    expectStatus(reply, 400, 3);
    expect(reply.body.message).toMatch(/exceeds/);
  });

  test.each([["/iam/v2beta1/unknown"], ["/iam/v3/groups"], ["/registry/v2beta1/groups"], ["/"], ["/favicon.ico"]])(
    "unknown path %s is NOT_FOUND",
    async (path) => {
      expectStatus(await call(emu, "GET", path), 404, 5);
    },
  );

  test("an unsupported method is UNIMPLEMENTED (501)", async () => {
    expectStatus(await call(emu, "PUT", `${G}/${emu.rootUid}`, { body: {} }), 501, 12);
    expectStatus(await call(emu, "PATCH", G, { body: {} }), 400, 3);
  });

  test("a bad percent-encoding in a uid is INVALID_ARGUMENT", async () => {
    expectStatus(await call(emu, "GET", `${G}/%E0%A4%A`), 400, 3);
  });

  test("percent-encoded slashes in a uid are understood", async () => {
    const group = await call(emu, "POST", `${G}/${emu.rootUid}`, { body: { name: "encoded" } });
    const reply = await call(emu, "GET", `${G}/${encodeURIComponent(group.body.uid)}`);
    expect(reply.body.uid).toBe(group.body.uid);
  });

  test("a raw request with no body and garbage headers still gets JSON", async () => {
    const url = new URL(emu.url);
    const text = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: `${G}?page_size=x`,
          method: "GET",
          headers: { authorization: `Bearer ${emu.token}`, accept: "text/html" },
        },
        (res) => {
          let data = "";
          res.on("data", (c) => (data += c));
          res.on("end", () => resolve(data));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(JSON.parse(text).code).toBe(3);
  });
});

describe("Status builders", () => {
  test.each([
    [invalidArgument([{ field: "f", description: "d" }]), 400, 3, "BadRequest"],
    [failedPrecondition([{ type: "RESOURCE_NOT_EMPTY", description: "d" }]), 400, 9, "PreconditionFailure"],
    [notFound("group", "u"), 404, 5, "ResourceInfo"],
    [resourceExhausted(3), 429, 8, "RetryInfo"],
  ] as Array<[ApiError, number, number, string]>)(
    "%#: HTTP status, code and detail type",
    (error, httpStatus, code, type) => {
      expect(error.httpStatus).toBe(httpStatus);
      expect(error.toBody().code).toBe(code);
      expect(error.toBody().details.map((d) => d["@type"])).toEqual([
        "type.googleapis.com/google.rpc.ErrorInfo",
        `type.googleapis.com/google.rpc.${type}`,
      ]);
    },
  );

  test("message forms: 'Invalid argument:' with field and rule, 'Precondition failed:'", () => {
    expect(invalidArgument([{ field: "name", description: "is required" }]).message).toBe(
      "Invalid argument: name: is required",
    );
    expect(failedPrecondition([{ type: "RESOURCE_NOT_EMPTY", description: "has repos" }]).message).toBe(
      "Precondition failed: has repos",
    );
    expect(resourceExhausted(3).headers["retry-after"]).toBe("3");
  });
});

describe("the emulator's own HTTP status table", () => {
  // The mapping as the reference notes state it (code → HTTP), kept here independently of both tables.
  const FROM_THE_SPEC: Array<[keyof typeof CODES, number]> = [
    ["INVALID_ARGUMENT", 400],
    ["FAILED_PRECONDITION", 400],
    ["NOT_FOUND", 404],
    ["ALREADY_EXISTS", 409],
    ["PERMISSION_DENIED", 403],
    ["UNAUTHENTICATED", 401],
    ["RESOURCE_EXHAUSTED", 429],
    ["INTERNAL", 500],
    ["UNAVAILABLE", 503],
    ["DEADLINE_EXCEEDED", 504],
    ["UNIMPLEMENTED", 501],
  ];
  test.each(FROM_THE_SPEC)("%s answers HTTP %d", (name, http) => {
    expect(new ApiError(name, "x").httpStatus).toBe(http);
  });

  test("the emulator does not import the client's table", () => {
    const source = fs.readFileSync(path.resolve(__dirname, "..", "..", "emulator", "errors.ts"), "utf8");
    expect(source).not.toMatch(/provider\/statusCodes/);
  });
});
