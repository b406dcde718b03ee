/**
 * A 404 means "this record is gone" only when the answer is a NOT_FOUND Status whose
 * ResourceInfo names the record asked for; every other 404 is an error naming the URL and the
 * setting to check.
 */
import * as http from "node:http";
import { AddressInfo } from "node:net";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import { createClient } from "../transport/client";
import { ApiError, isNotFound } from "../common/errors";

const status = (details: unknown[]) => JSON.stringify({ code: 5, message: "Not found: group does not exist", details });
const resourceInfo = (resourceName: string) => ({
  "@type": "type.googleapis.com/google.rpc.ResourceInfo",
  resourceType: "group",
  resourceName,
});

const ANSWERS: Record<string, { type: string; body: string }> = {
  named: { type: "application/json", body: status([resourceInfo("acme/named")]) },
  "full-name": { type: "application/json", body: status([resourceInfo("groups/acme/full-name")]) },
  bare: { type: "application/json", body: status([]) },
  other: { type: "application/json", body: status([resourceInfo("acme/someone-else")]) },
  html: { type: "text/html", body: "<html><body><h1>404 Not Found</h1>nginx</body></html>" },
  "not-status": { type: "application/json", body: JSON.stringify({ error: "no route" }) },
  empty: { type: "", body: "" },
};

let server: http.Server;
let url: string;
let hits: string[];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const key = String(req.url).split("?")[0].split("/").pop() ?? "";
    const answer = ANSWERS[key] ?? ANSWERS.bare;
    res.writeHead(404, answer.type ? { "content-type": answer.type } : {});
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => (hits = []));

async function failure(path: string, method: "GET" | "DELETE" | "PATCH" = "GET"): Promise<ApiError> {
  const client = createClient({ apiUrl: url, authUrl: url, apiVersion: "v2beta1", token: "test-token" });
  try {
    const error = await client
      .request({ method, domain: "iam", path, body: method === "PATCH" ? {} : undefined })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  } finally {
    await client.close();
  }
}

test.each([
  ["named", "the uid itself"],
  ["full-name", "groups/<uid>"],
])("a Status whose ResourceInfo names the record (%s: %s) means gone", async (key) => {
  for (const method of ["GET", "PATCH", "DELETE"] as const) {
    const error = await failure(`groups/acme/${key}`, method);
    expect(isNotFound(error)).toBe(true);
    expect(error.message).not.toMatch(/platform:apiUrl/);
  }
  expect(hits).toHaveLength(3);
});

test.each([
  ["bare", /NOT_FOUND: Not found: group does not exist/],
  ["other", /NOT_FOUND: Not found: group does not exist/],
  ["html", /HTTP 404 with a body that is not an API Status \(text\/html\)/],
  ["not-status", /HTTP 404 with a body that is not an API Status \(application\/json\)/],
  ["empty", /HTTP 404 with a body that is not an API Status \(no content type\)/],
])("a 404 that does not name the record (%s) is an error naming the URL and platform:apiUrl", async (key, said) => {
  for (const method of ["GET", "PATCH", "DELETE"] as const) {
    const error = await failure(`groups/acme/${key}`, method);
    expect(isNotFound(error)).toBe(false);
    expect(error.message).toMatch(said);
    expect(error.message).toContain(`the answer does not say that "acme/${key}" is missing`);
    expect(error.message).toContain("check that platform:apiUrl (PLATFORM_API_URL) is the API's base URL");
    expect(error.message).toContain(`the request went to ${url}/iam/v2beta1/groups/acme/${key}`);
  }
  // Nothing about a 404 is worth repeating: one request each.
  expect(hits).toHaveLength(3);
});

test("a 404 of a List never means a record is gone", async () => {
  const error = await failure("groups");
  expect(isNotFound(error)).toBe(false);
  expect(error.message).toMatch(/the answer does not say what is missing/);
});

describe("against the emulator", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startProviderEmulator();
  });
  afterAll(() => emu.close());

  test("a deleted group is gone; the same uid under a wrong apiUrl prefix is not", async () => {
    const right = createClient({ apiUrl: emu.url, authUrl: emu.url, apiVersion: "v2beta1", token: emu.token });
    const wrong = createClient({
      apiUrl: `${emu.url}/api`,
      authUrl: emu.url,
      apiVersion: "v2beta1",
      token: emu.token,
    });
    try {
      const group = await right.request<{ uid: string }>({
        method: "POST",
        domain: "iam",
        path: `groups/${emu.rootUid}`,
        body: { name: "short-lived" },
      });
      const underWrongPrefix = await wrong
        .request({ method: "GET", domain: "iam", path: `groups/${group.uid}` })
        .catch((e: unknown) => e);
      expect(isNotFound(underWrongPrefix)).toBe(false);
      expect((underWrongPrefix as Error).message).toContain(`the request went to ${emu.url}/api/iam/v2beta1/groups/`);
      await right.request({ method: "DELETE", domain: "iam", path: `groups/${group.uid}` });
      const deleted = await right
        .request({ method: "GET", domain: "iam", path: `groups/${group.uid}` })
        .catch((e: unknown) => e);
      expect(isNotFound(deleted)).toBe(true);
    } finally {
      await right.close();
      await wrong.close();
    }
  });
});
