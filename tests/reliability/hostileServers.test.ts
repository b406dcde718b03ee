/**
 * Hostile and misconfigured servers, through the local engine, the real dynamic-provider host
 * and the emulator: each case asserts the message, the requests sent and the state after.
 * Every server here is a tiny node:http server on 127.0.0.1, closed after its test.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import { AddressInfo } from "node:net";
import * as path from "node:path";
import { startEmulator, RunningEmulator } from "../../emulator";
import { withoutPlatformEnv } from "../../tools/engine/orgProject";
import { runEngine } from "../../tools/engine/run";
import { StackState } from "../../tools/engine/state";
import { repoRoot } from "../../tools/host/stage";

jest.setTimeout(120_000);

const program = path.join(repoRoot, "tests", "reliability", "programs", "one-group");

let emu: RunningEmulator;
let dir: string;
const servers: http.Server[] = [];

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  dir = path.join(repoRoot, ".work", `hostile-servers-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
});
afterAll(async () => {
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server on loopback answering every request with `handler`; every request is logged. */
async function hostile(handler: http.RequestListener): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

function engine(operation: string[], stack: string, apiUrl: string, config: Record<string, string> = {}) {
  return runEngine(
    [
      ...operation,
      "--config",
      `platform:apiUrl=${apiUrl}`,
      "--secret-config",
      `platform:token=${emu.token}`,
      "--config",
      `parentUid=${emu.rootUid}`,
      ...Object.entries(config).flatMap(([key, value]) => ["--config", `${key}=${value}`]),
    ],
    { cwd: program, state: path.join(dir, `${stack}.json`), env: withoutPlatformEnv() },
  );
}

const groupsIn = (state: StackState | undefined) =>
  (state?.resources ?? []).filter((r) => r.type === "pulumi-nodejs:dynamic/iam:Group").map((r) => r.id);

async function exists(uid: string): Promise<boolean> {
  const answer = await fetch(`${emu.url}/iam/v2beta1/groups/${uid}`, {
    headers: { authorization: `Bearer ${emu.token}` },
  });
  return answer.status === 200;
}

describe("a 404 that does not say the record is gone", () => {
  test.each([
    ["wrong-prefix", async () => ({ url: `${emu.url}/api/v1`, hits: undefined })],
    [
      "proxy-html-404",
      () =>
        hostile((_req, res) => {
          res.writeHead(404, { "content-type": "text/html" });
          res.end("<html><body><h1>404 Not Found</h1><hr>nginx</body></html>");
        }),
    ],
  ])("%s: refresh keeps the resources, destroy fails loudly and keeps the state", async (label, start) => {
    const stack = `not-found-${label}`;
    const up = await engine(["up"], stack, emu.url, { name: label });
    expect(up.code).toBe(0);
    const [uid] = groupsIn(up.state);
    expect(await exists(uid)).toBe(true);

    const wrong = await start();
    for (const operation of [["refresh"], ["destroy"]]) {
      emu.clearRequests();
      const run = await engine(operation, stack, wrong.url);
      const printed = run.stdout + run.stderr;
      expect(run.code).not.toBe(0);
      expect(printed).toContain(`the answer does not say that "${uid}" is missing`);
      expect(printed).toContain("check that platform:apiUrl (PLATFORM_API_URL) is the API's base URL");
      expect(printed).toContain(`the request went to ${wrong.url}/iam/v2beta1/groups/${uid}`);
      expect(groupsIn(run.state)).toEqual([uid]);
      // One request for the one resource: a 404 is never repeated.
      const method = operation[0] === "refresh" ? "GET" : "DELETE";
      if (wrong.hits) expect(wrong.hits.splice(0)).toEqual([`${method} /iam/v2beta1/groups/${uid}`]);
      else
        expect(emu.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
          `${method} /api/v1/iam/v2beta1/groups/${uid}`,
        ]);
      expect(await exists(uid)).toBe(true);
    }

    const destroy = await engine(["destroy"], stack, emu.url);
    expect(destroy.code).toBe(0);
    expect(groupsIn(destroy.state)).toEqual([]);
    expect(await exists(uid)).toBe(false);
  });
});

/** A stack holding one group created through the real emulator. */
async function stackWithOneGroup(label: string): Promise<{ stack: string; uid: string }> {
  const stack = label;
  const up = await engine(["up"], stack, emu.url, { name: label });
  expect(up.code).toBe(0);
  const [uid] = groupsIn(up.state);
  return { stack, uid };
}

const neverAnswers: http.RequestListener = () => undefined;
const tricklesForever: http.RequestListener = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  const timer = setInterval(() => res.write(" "), 50);
  res.on("close", () => clearInterval(timer));
};
const retryAfterAnHour: http.RequestListener = (_req, res) => {
  res.writeHead(503, { "content-type": "application/json", "retry-after": "3600" });
  res.end(JSON.stringify({ code: 14, message: "come back in an hour" }));
};

describe("servers that hold a call: every call ends by platform:timeout", () => {
  test.each([
    ["never-answers", neverAnswers, /was still waiting for its answer/],
    ["trickles-forever", tricklesForever, /was still waiting for its answer/],
    [
      "retry-after-an-hour",
      retryAfterAnHour,
      /the service asked to retry after 3600 s \(Retry-After\), past this call's deadline/,
    ],
  ])("%s: refresh and destroy fail within the budget, naming it; the state is kept", async (label, handler, said) => {
    const { stack, uid } = await stackWithOneGroup(label);
    const server = await hostile(handler);
    for (const operation of ["refresh", "destroy"]) {
      const started = Date.now();
      const run = await engine([operation], stack, server.url, { "platform:timeout": "0.5" });
      const printed = run.stdout + run.stderr;
      expect(run.code).not.toBe(0);
      const verb = operation === "refresh" ? "reading" : "deleting";
      expect(printed).toMatch(
        new RegExp(`${verb} group "${label}"[^\\n]* failed: no answer within 0.5 s \\(platform:timeout\\)`),
      );
      expect(printed).toMatch(said);
      expect(groupsIn(run.state)).toEqual([uid]);
      expect(server.hits.splice(0)).toEqual([
        `${operation === "refresh" ? "GET" : "DELETE"} /iam/v2beta1/groups/${uid}`,
      ]);
      // The engine's own start-up takes a few seconds; the call itself at most the budget.
      expect(Date.now() - started).toBeLessThan(20_000);
    }
    expect(await exists(uid)).toBe(true);
    expect((await engine(["destroy"], stack, emu.url)).code).toBe(0);
  });
});
