/**
 * Sizes: what a server answers and what a token file holds are bounded before they are kept,
 * shown or sent on: error texts and violations are capped with the cut marked, an answer over
 * the cap is refused, an oversized token file is refused naming its setting.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { fakeClock, seededRandom } from "../../tests/support/fakeClock";
import { MAX_TOKEN_FILE_BYTES } from "./auth";
import { createClient } from "./client";
import { ApiError, MAX_SERVICE_MESSAGE_CHARS, MAX_VIOLATIONS, SettingsError } from "../common/errors";
import { MAX_MESSAGE_CHARS } from "../common/messages";
import { AnswerTooLargeError } from "./transport";
import { recordingServer } from "../../tests/support/recordingServer";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(handler: http.RequestListener): Promise<{ url: string; hits: string[] }> {
  const recording = await recordingServer(handler);
  servers.push(recording.server);
  return recording;
}

function clientFor(url: string, extra: object = {}, options: object = {}) {
  return createClient(
    { apiUrl: url, authUrl: url, apiVersion: "v2beta1", token: "size-test-token", ...extra },
    { clock: fakeClock(), random: seededRandom(4), ...options },
  );
}

async function failure(url: string, extra: object = {}, options: object = {}): Promise<Error> {
  const client = clientFor(url, extra, options);
  try {
    return (await client
      .request({ method: "GET", domain: "iam", path: "groups/acme" })
      .catch((e: unknown) => e)) as Error;
  } finally {
    await client.close();
  }
}

test("a 100 KB error message is kept to its first 1,000 characters, the cut marked", async () => {
  const server = await serve((_req, res) => {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 3, message: `Invalid argument: ${"x".repeat(100_000)}` }));
  });
  const error = (await failure(server.url)) as ApiError;
  expect(error).toBeInstanceOf(ApiError);
  expect(error.serviceMessage.length).toBeLessThan(MAX_SERVICE_MESSAGE_CHARS + 50);
  expect(error.serviceMessage).toMatch(/… \[99\d{3} more characters cut\]$/);
  expect(error.message.length).toBeLessThan(MAX_MESSAGE_CHARS);
  expect(error.message).toMatch(/^INVALID_ARGUMENT: Invalid argument: x+… \[\d+ more characters cut\] \(GET /);
  expect(server.hits).toHaveLength(1);
});

test("a thousand field violations keep the first twenty, each text capped, the rest counted", async () => {
  const server = await serve((_req, res) => {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        code: 3,
        message: "Invalid argument",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: Array.from({ length: 1000 }, (_, i) => ({
              field: `f${i}`,
              description: "y".repeat(5000),
            })),
          },
        ],
      }),
    );
  });
  const error = (await failure(server.url)) as ApiError;
  expect(error.fieldViolations).toHaveLength(MAX_VIOLATIONS + 1);
  expect(error.fieldViolations[MAX_VIOLATIONS]).toEqual({ field: "…", description: "980 more left out" });
  expect(error.fieldViolations.every((v) => v.description.length < 400)).toBe(true);
  expect(error.message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS + 40);
  expect(error.message).toMatch(/more characters cut\]$/);
});

test("an answer declaring more than the cap is refused at its headers, and not repeated", async () => {
  const server = await serve((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(40 * 1024 * 1024) });
    res.write("[");
  });
  const error = await failure(server.url);
  expect(error).toBeInstanceOf(AnswerTooLargeError);
  expect(error.message).toBe(
    `the answer from ${server.url} is larger than 32 MB, more than any API answer; it was refused: check platform:apiUrl and what sits between here and the API`,
  );
  expect(server.hits).toHaveLength(1);
});

test("a streamed answer that grows past the cap is cut off there", async () => {
  const server = await serve((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = "x".repeat(16 * 1024);
    let sent = 0;
    const more = () => {
      while (sent < 1000 && res.write(chunk)) sent++;
      if (sent < 1000) res.once("drain", more);
      else res.end();
    };
    more();
  });
  const error = await failure(server.url, {}, { maxAnswerBytes: 64 * 1024 });
  expect(error).toBeInstanceOf(AnswerTooLargeError);
  expect(server.hits).toHaveLength(1);
});

test("an identity token file over 64 KB is refused naming the setting, before any request", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-sizes-"));
  try {
    const file = path.join(dir, "huge.jwt");
    fs.writeFileSync(file, "e".repeat(MAX_TOKEN_FILE_BYTES + 1));
    const server = await serve((_req, res) => res.end("{}"));
    const error = await failure(server.url, { token: undefined, identity: "acme/ci", identityTokenFile: file });
    expect(error).toBeInstanceOf(SettingsError);
    expect(error.message).toBe(
      `platform:identityTokenFile (PLATFORM_IDENTITY_TOKEN_FILE): ${file} holds 65537 bytes, more than the 64 KB an OIDC token can be; is it the token file?`,
    );
    expect(server.hits).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
