/**
 * Hostile and misconfigured servers, through the local engine, the real dynamic-provider host
 * and the emulator: each case asserts the message, the requests sent and the state after.
 * Every server here is a tiny node:http server on 127.0.0.1, closed after its test.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../support/providerEmulator";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { runEngine } from "../../tools/engine/run";
import { StackState } from "../../tools/engine/state";
import { repoRoot } from "../../tools/host/stage";
import { recordingServer } from "../support/recordingServer";

jest.setTimeout(120_000);

const program = path.join(repoRoot, "tests", "reliability", "programs", "one-group");

let emu: RunningEmulator;
let dir: string;
const servers: http.Server[] = [];

beforeAll(async () => {
  emu = await startProviderEmulator();
  dir = path.join(repoRoot, ".work", `hostile-servers-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
});
afterAll(async () => {
  // The shared stack's group goes the normal way, through the real API.
  if (shared) expect((await engine(["destroy"], (await shared).stack, emu.url)).code).toBe(0);
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server on loopback answering every request with `handler`; every request is logged. */
async function hostile(handler: http.RequestListener): Promise<{ url: string; hits: string[] }> {
  const recording = await recordingServer(handler, { withQuery: true });
  servers.push(recording.server);
  return recording;
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

/**
 * One stack holding one group created through the real emulator, made on first use and shared
 * by the cases below: each points the same stack at a hostile server and checks the state kept.
 */
const SHARED_NAME = "hostile-shared";
let shared: Promise<{ stack: string; uid: string }> | undefined;
function sharedStack(): Promise<{ stack: string; uid: string }> {
  shared ??= engine(["up"], "shared", emu.url, { name: SHARED_NAME }).then((up) => {
    expect(up.code).toBe(0);
    const [uid] = groupsIn(up.state);
    return { stack: "shared", uid };
  });
  return shared;
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
  ])("%s: refresh keeps the resources, destroy fails loudly and keeps the state", async (_label, start) => {
    const { stack, uid } = await sharedStack();
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
  });
});

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
  ])("%s: refresh and destroy fail within the budget, naming it; the state is kept", async (_label, handler, said) => {
    const { stack, uid } = await sharedStack();
    const server = await hostile(handler);
    for (const operation of ["refresh", "destroy"]) {
      // A budget the host can meet on a loaded machine: loading the client alone may take a second there.
      const run = await engine([operation], stack, server.url, { "platform:timeout": "3" });
      const printed = run.stdout + run.stderr;
      expect(run.code).not.toBe(0);
      const verb = operation === "refresh" ? "reading" : "deleting";
      expect(printed).toMatch(
        new RegExp(`${verb} group "${SHARED_NAME}"[^\\n]* failed: no answer within 3 s \\(platform:timeout\\)`),
      );
      expect(printed).toMatch(said);
      expect(groupsIn(run.state)).toEqual([uid]);
      expect(server.hits.splice(0)).toEqual([
        `${operation === "refresh" ? "GET" : "DELETE"} /iam/v2beta1/groups/${uid}`,
      ]);
      // The call ended by its budget, as the message says, not by the run being stopped: the
      // verdict is what was printed, sent and kept, never how long it took on this machine.
    }
    expect(await exists(uid)).toBe(true);
  });
});

describe("huge answers", () => {
  const hugeError: http.RequestListener = (_req, res) => {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 3, message: `Invalid argument: ${"z".repeat(100 * 1024)}` }));
  };

  test("a 100 KB error message: up and refresh end after one request with a capped message", async () => {
    const { stack } = await sharedStack();
    const server = await hostile(hugeError);
    for (const [operation, target] of [
      ["refresh", stack],
      ["up", "huge-error-new"],
    ]) {
      const run = await engine([operation], target, server.url, { name: "huge-error" });
      const printed = run.stdout + run.stderr;
      expect(run.code).not.toBe(0);
      expect(printed).toMatch(/failed: INVALID_ARGUMENT: Invalid argument: z+… \[\d+ more characters cut\]/);
      expect(printed.length).toBeLessThan(20_000);
      expect(server.hits.splice(0)).toHaveLength(1);
    }
  });
});

describe("a server that echoes the bearer token", () => {
  const echo: http.RequestListener = (req, res) => {
    const auth = String(req.headers.authorization ?? "");
    res.writeHead(403, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 7, message: `Permission denied for ${auth} (token ${auth.slice(7)})` }));
  };

  test("up and refresh fail without the token in any message, log or state", async () => {
    const { stack } = await sharedStack();
    const server = await hostile(echo);
    const runs = [await engine(["refresh"], stack, server.url), await engine(["up"], "echoed-token-new", server.url)];
    for (const run of runs) {
      const printed = run.stdout + run.stderr;
      expect(run.code).not.toBe(0);
      expect(printed).toMatch(/PERMISSION_DENIED: Permission denied for Bearer \[redacted\] \(token \[redacted\]\)/);
      expect(printed).not.toContain(emu.token);
      expect(JSON.stringify(run.state ?? {})).not.toContain(emu.token);
    }
    expect(server.hits).toHaveLength(2);
  });
});

/**
 * A proxy in front of the emulator: every request is forwarded; the answer to each POST is
 * replaced by `mangle` (the create itself happened), every other answer passes untouched.
 */
async function manglingProxy(mangle: (res: http.ServerResponse, body: string) => void) {
  return hostile((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers = { ...req.headers };
      delete headers.host;
      void fetch(`${emu.url}${req.url}`, {
        method: req.method,
        headers: headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }).then(async (answer) => {
        const body = await answer.text();
        if (req.method === "POST" && answer.ok) {
          mangle(res, body);
          return;
        }
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        res.end(body);
      });
    });
  });
}

describe("a create answered 2xx without a usable record: the record is adopted, not orphaned", () => {
  test.each([
    [
      "empty-body",
      (res: http.ServerResponse) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end();
      },
    ],
    [
      "truncated-json",
      (res: http.ServerResponse, body: string) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(body.slice(0, Math.floor(body.length / 2)));
      },
    ],
    [
      "html-page",
      (res: http.ServerResponse) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html><body>Welcome to the portal</body></html>");
      },
    ],
    [
      "cut-connection",
      (res: http.ServerResponse, body: string) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
        res.write(body.slice(0, 10));
        res.socket?.destroy();
      },
    ],
  ])("%s", async (label, mangle) => {
    const proxy = await manglingProxy(mangle);
    const run = await engine(["up"], `unknown-outcome-${label}`, proxy.url, { name: `uo-${label}` });
    expect(run.stdout + run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const [uid] = groupsIn(run.state);
    const listed = await fetch(`${emu.url}/iam/v2beta1/groups?uidp.children_of=${emu.rootUid}&name=uo-${label}`, {
      headers: { authorization: `Bearer ${emu.token}` },
    }).then((r) => r.json() as Promise<{ groups: { uid: string }[] }>);
    expect(listed.groups.map((g) => g.uid)).toEqual([uid]);
    expect(proxy.hits.filter((h) => h.startsWith("POST"))).toEqual([`POST /iam/v2beta1/groups/${emu.rootUid}`]);
  });
});
