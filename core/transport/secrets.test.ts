/**
 * Secrets in messages: every token the process holds (static, OIDC, exchanged) is redacted from
 * every error, whatever part of the answer echoes it; a malformed setting is described, never
 * echoed; a URL setting with credentials in it is refused.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { fakeClock, seededRandom } from "../../tests/support/fakeClock";
import { createClient } from "./client";
import { ApiError, SettingsError } from "../common/errors";
import { resolveSettings } from "./settings";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Answers every API request with an error that echoes the caller's bearer token everywhere it can. */
async function echoing(exchangedToken?: string): Promise<string> {
  const server = http.createServer((req, res) => {
    const bearer = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (String(req.url).startsWith("/sts/exchange") && exchangedToken) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ token: exchangedToken, refreshToken: `refresh-of-${exchangedToken}` }));
      return;
    }
    res.writeHead(400, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        code: 3,
        message: `Invalid argument: token ${bearer} is not allowed here`,
        details: [
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: `BAD_${bearer}` },
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [{ field: `header.${bearer}`, description: `saw ${bearer}` }],
          },
        ],
      }),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function everyText(error: ApiError): string {
  return JSON.stringify({
    message: error.message,
    serviceMessage: error.serviceMessage,
    reason: error.reason,
    violations: error.fieldViolations,
  });
}

test("a static token echoed by the server is redacted from every part of the error", async () => {
  const token = "static-secret-token-0123456789";
  const url = await echoing();
  const client = createClient(
    { apiUrl: url, authUrl: url, apiVersion: "v2beta1", token },
    { clock: fakeClock(), random: seededRandom(1) },
  );
  const error = (await client
    .request({ method: "GET", domain: "iam", path: "roles" })
    .catch((e: unknown) => e)) as ApiError;
  await client.close();
  expect(error).toBeInstanceOf(ApiError);
  expect(everyText(error)).not.toContain(token);
  expect(error.message).toMatch(/^INVALID_ARGUMENT: header\.\[redacted\]: saw \[redacted\]/);
  expect(error.serviceMessage).toBe("Invalid argument: token [redacted] is not allowed here");
});

test("the OIDC token and the exchanged token are redacted too", async () => {
  const exchanged = "exchanged-secret-token-abcdef";
  const oidc = "oidc-secret-token-from-the-ci-platform";
  const url = await echoing(exchanged);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-secrets-"));
  const file = path.join(dir, "token");
  fs.writeFileSync(file, `${oidc}\n`);
  const client = createClient(
    { apiUrl: url, authUrl: url, apiVersion: "v2beta1", identity: "acme/ci", identityTokenFile: file },
    { clock: fakeClock(), random: seededRandom(1) },
  );
  try {
    const error = (await client
      .request({ method: "GET", domain: "iam", path: "roles" })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(everyText(error)).not.toContain(exchanged);
    expect(error.serviceMessage).toBe("Invalid argument: token [redacted] is not allowed here");
  } finally {
    await client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // The exchange endpoint echoing the OIDC token it was given.
  const failingExchange = http.createServer((req, res) => {
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 16, message: `token ${String(req.headers.authorization)} was rejected` }));
  });
  servers.push(failingExchange);
  await new Promise<void>((resolve) => failingExchange.listen(0, "127.0.0.1", resolve));
  const exchangeUrl = `http://127.0.0.1:${(failingExchange.address() as AddressInfo).port}`;
  const dir2 = fs.mkdtempSync(path.join(os.tmpdir(), "platform-secrets-"));
  const file2 = path.join(dir2, "token");
  fs.writeFileSync(file2, oidc);
  const second = createClient(
    { apiUrl: exchangeUrl, authUrl: exchangeUrl, apiVersion: "v2beta1", identity: "acme/ci", identityTokenFile: file2 },
    { clock: fakeClock(), random: seededRandom(1) },
  );
  const rejected = (await second
    .request({ method: "GET", domain: "iam", path: "roles" })
    .catch((e: unknown) => e)) as ApiError;
  await second.close();
  fs.rmSync(dir2, { recursive: true, force: true });
  expect(rejected.message).toMatch(
    /^UNAUTHENTICATED: exchanging the OIDC token for identity "acme\/ci" failed: token Bearer \[redacted\] was rejected/,
  );
  expect(everyText(rejected)).not.toContain(oidc);
});

describe("settings are described, never echoed", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const pasted = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJyZXBvOmFjbWUifQ.c2lnbmF0dXJlLXNlY3JldA";

  test.each([
    ["PLATFORM_API_URL", pasted, /^PLATFORM_API_URL: is not a URL; expected for example https:\/\/api.example.com$/],
    ["PLATFORM_API_URL", `${pasted}:443`, /^PLATFORM_API_URL: this scheme is refused; use https:\/\//],
    ["PLATFORM_AUTH_URL", `ftp://${pasted}.example.com`, /^PLATFORM_AUTH_URL: ftp:\/\/ is refused/],
    ["PLATFORM_API_VERSION", pasted, /^PLATFORM_API_VERSION: is not an API version/],
    ["PLATFORM_TIMEOUT", pasted, /^PLATFORM_TIMEOUT: must be a number of seconds/],
    ["PLATFORM_IDENTITY", pasted, /^PLATFORM_IDENTITY: is not an identity uid: it contains "\."/],
  ])("%s holding a pasted token", (variable, value, message) => {
    for (const key of Object.keys(process.env)) if (key.startsWith("PLATFORM_")) delete process.env[key];
    Object.assign(process.env, {
      PLATFORM_API_URL: "https://api.example.com",
      PLATFORM_TOKEN: "tok",
      PLATFORM_IDENTITY_TOKEN_FILE: "/tmp/none",
      [variable]: value,
    });
    if (variable !== "PLATFORM_IDENTITY") delete process.env.PLATFORM_IDENTITY_TOKEN_FILE;
    let error: unknown;
    try {
      resolveSettings();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(pasted);
    expect((error as Error).message).not.toContain("c2lnbmF0dXJl");
  });

  test.each([
    ["PLATFORM_API_URL", "https://admin:hunter2-secret@api.example.com"],
    ["PLATFORM_AUTH_URL", "https://ci-user:hunter2-secret@auth.example.com"],
    ["PLATFORM_API_URL", "https://only-a-user@api.example.com"],
  ])("%s with credentials in it is refused without showing them", (variable, value) => {
    for (const key of Object.keys(process.env)) if (key.startsWith("PLATFORM_")) delete process.env[key];
    Object.assign(process.env, {
      PLATFORM_API_URL: "https://api.example.com",
      PLATFORM_TOKEN: "tok",
      [variable]: value,
    });
    expect(() => resolveSettings()).toThrow(
      new RegExp(`^${variable}: must not carry credentials \\(user:password@ in the URL\\)`),
    );
    let message = "";
    try {
      resolveSettings();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).not.toContain("hunter2");
    expect(message).not.toContain("admin");
  });
});
