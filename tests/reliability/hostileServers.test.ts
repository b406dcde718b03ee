/**
 * Hostile and misconfigured servers, under the REAL Pulumi CLI (its engine, the dynamic-provider
 * host it launches) and the emulator: each case asserts the message, the requests sent and the
 * state after.
 *
 * The cases share runs, as a stack meets one server: one stack holds a group per case, its `up`
 * through a loopback server that sends the creates on to the emulator; one `refresh` and one
 * `destroy` then go through the same server, which answers each group's requests the way its case
 * says (a wrong prefix, a proxy's 404 page, a call held past its budget, a 100 KB error, the bearer
 * token echoed). Creates meet them the same way:
 * one `up` of a new stack whose groups' creates fail, and one whose creates are each answered 2xx
 * without a usable record. Each test runs alone (`-t`): the runs it needs are made on first use.
 */
import * as http from "node:http";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import { ProgramProject, programProject } from "../support/programProject";
import { RealCliRun } from "../support/realCli";
import { recordingServer } from "../support/recordingServer";

jest.setTimeout(420_000);

/** One group per name in config `names` (a JSON list), under `parentUid`. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "platform-pulumi";

const config = new pulumi.Config();
for (const name of JSON.parse(config.require("names")) as string[])
  new platform.iam.Group(name, { parentUid: config.require("parentUid"), name });
`;

/** The path prefix a misconfigured platform:apiUrl adds: the emulator answers its own 404 below it. */
const WRONG_PREFIX = "/api/v1";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const proxyHtml404: Handler = (_req, res) => {
  res.writeHead(404, { "content-type": "text/html" });
  res.end("<html><body><h1>404 Not Found</h1><hr>nginx</body></html>");
};
const neverAnswers: Handler = () => undefined;
const tricklesForever: Handler = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  const timer = setInterval(() => res.write(" "), 50);
  res.on("close", () => clearInterval(timer));
};
const retryAfterAnHour: Handler = (_req, res) => {
  res.writeHead(503, { "content-type": "application/json", "retry-after": "3600" });
  res.end(JSON.stringify({ code: 14, message: "come back in an hour" }));
};
const hugeError: Handler = (_req, res) => {
  res.writeHead(400, { "content-type": "application/json" });
  res.end(JSON.stringify({ code: 3, message: `Invalid argument: ${"z".repeat(100 * 1024)}` }));
};
const echoesToken: Handler = (req, res) => {
  const auth = String(req.headers.authorization ?? "");
  res.writeHead(403, { "content-type": "application/json" });
  res.end(JSON.stringify({ code: 7, message: `Permission denied for ${auth} (token ${auth.slice(7)})` }));
};

/** The cases a group of the shared stack meets on refresh and destroy, by group name. */
const SHARED: Record<string, Handler | "forward-with-prefix"> = {
  "wrong-prefix": "forward-with-prefix",
  "proxy-html-404": proxyHtml404,
  "never-answers": neverAnswers,
  "trickles-forever": tricklesForever,
  "retry-after-an-hour": retryAfterAnHour,
  "huge-error": hugeError,
  "echoed-token": echoesToken,
};
/** The creates of a new stack that fail, by group name. */
const FAILING_CREATES: Record<string, Handler> = { "huge-error-new": hugeError, "echoed-token-new": echoesToken };

/** How a create's 2xx answer is spoiled (the create itself happened), by case. */
const MANGLED: Record<string, (res: http.ServerResponse, body: string) => void> = {
  "empty-body": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end();
  },
  "truncated-json": (res, body) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body.slice(0, Math.floor(body.length / 2)));
  },
  "html-page": (res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>Welcome to the portal</body></html>");
  },
  "cut-connection": (res, body) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
    res.write(body.slice(0, 10));
    res.socket?.destroy();
  },
};

let emu: RunningEmulator;
let router: { url: string; server: http.Server };
/** Every request the router saw, as "METHOD path?query", by the case (group name) it went to. */
const hits = new Map<string, string[]>();
/** Group uid → its case, for the shared stack's reads and deletes. */
const caseOfUid = new Map<string, string>();
const projects: ProgramProject[] = [];

beforeAll(async () => {
  emu = await startProviderEmulator();
  router = await recordingServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => route(req, res, Buffer.concat(chunks).toString("utf8")));
  });
});
afterAll(async () => {
  router?.server.closeAllConnections();
  await new Promise((resolve) => router?.server.close(resolve));
  await emu?.close();
  for (const project of projects) project.remove();
});

/** Finds the case a request belongs to (by the group's uid, or a create's name) and answers as it says. */
function route(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  const url = String(req.url);
  const unprefixed = url.startsWith(WRONG_PREFIX) ? url.slice(WRONG_PREFIX.length) : url;
  const uid = /^\/iam\/v2beta1\/groups\/([^?]+)/.exec(unprefixed)?.[1];
  const created = req.method === "POST" ? nameIn(body) : undefined;
  // The shared stacks' creates: sent on as they came, so that their groups exist for the cases.
  if (created !== undefined && created in SHARED) return void forward(req, unprefixed, body, res);
  const label = created ?? (uid ? caseOfUid.get(uid) : undefined);
  if (label) hits.set(label, [...(hits.get(label) ?? []), `${req.method} ${unprefixed.split("?")[0]}`]);
  const handler = label ? (SHARED[label] ?? FAILING_CREATES[label]) : undefined;
  if (handler === "forward-with-prefix") return void forward(req, url, body, res);
  if (handler) return handler(req, res, body);
  const mangle = label ? MANGLED[label.replace(/^uo-/, "")] : undefined;
  void forward(req, unprefixed, body, res, req.method === "POST" ? mangle : undefined);
}

function nameIn(body: string): string | undefined {
  try {
    const name = (JSON.parse(body) as { name?: unknown }).name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Sends the request on to the emulator; a successful answer goes through `mangle` when given. */
async function forward(
  req: http.IncomingMessage,
  url: string,
  body: string,
  res: http.ServerResponse,
  mangle?: (res: http.ServerResponse, body: string) => void,
): Promise<void> {
  const headers = { ...req.headers } as Record<string, string>;
  delete headers.host;
  delete headers["content-length"];
  const answer = await fetch(`${emu.url}${url}`, { method: req.method, headers, body: body || undefined });
  const text = await answer.text();
  if (mangle && answer.ok) return mangle(res, text);
  res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
  res.end(text);
}

function stackOf(): ProgramProject {
  const project = programProject({ name: "hostile", program: { source: PROGRAM }, api: emu });
  projects.push(project);
  return project;
}
const groupsOf = (project: ProgramProject) =>
  Object.fromEntries(project.resources().map((r) => [r.urn.split("::").pop()!, r.id!]));
const printed = (run: RealCliRun) => run.stdout + run.stderr + run.runnerOutput;
const hitsOf = (label: string) => hits.get(label) ?? [];

async function exists(uid: string): Promise<boolean> {
  const answer = await fetch(`${emu.url}/iam/v2beta1/groups/${uid}`, {
    headers: { authorization: `Bearer ${emu.token}` },
  });
  return answer.status === 200;
}

/**
 * The cases whose Retry-After pauses every later call to the API's host (core/transport/requestSlots.ts),
 * each in a stack of its own: in the shared stack, a case whose request the engine sent after the
 * pause began would fail without sending it, as the engine's order on a loaded machine decides.
 */
const PAUSING = ["retry-after-an-hour"];
const setOf = (label: string) => (PAUSING.includes(label) ? label : "shared");
const labelsOf = (set: string) =>
  set === "shared" ? Object.keys(SHARED).filter((label) => !PAUSING.includes(label)) : [set];

/**
 * The shared stacks' settings, from their `up` on (the engine gives refresh and destroy the
 * provider's settings from the last update): the router under a wrong prefix, a budget of 3 s a
 * call, which the host can meet on a loaded machine (loading the client alone may take a second
 * there). Each group stands for a server of its own, met by its own requests: one GET a read
 * (platform:batchReads false), since a List of several groups' uids would carry several cases in
 * one request. A List meeting a failing server falls back to each read's GET
 * (core/runtime/readBatches.test.ts).
 */
const hostileSettings = () => ({
  "platform:apiUrl": `${router.url}${WRONG_PREFIX}`,
  "platform:timeout": "3",
  "platform:batchReads": "false",
});

/** Made once a set, on first use: one stack holding a group per case of the set, created through the router. */
const stacks = new Map<string, Promise<{ project: ProgramProject; uids: Record<string, string> }>>();
function sharedStack(set = "shared") {
  if (!stacks.has(set))
    stacks.set(
      set,
      (async () => {
        const project = stackOf();
        const up = await project.run("up", {
          ...hostileSettings(),
          parentUid: emu.rootUid,
          names: JSON.stringify(labelsOf(set)),
        });
        if (up.code !== 0) throw new Error(`the ${set} stack's up failed:\n${printed(up)}`);
        const uids = groupsOf(project);
        for (const [label, uid] of Object.entries(uids)) caseOfUid.set(uid, label);
        return { project, uids };
      })(),
    );
  return stacks.get(set)!;
}

/** The shared stack's refresh, then its destroy, through the router. The groups stay: the emulator ends with them. */
const hostileRuns = new Map<
  string,
  Promise<{ refresh: RealCliRun; destroy: RealCliRun; hits: Record<string, string[][]> }>
>();
function hostileRefreshAndDestroy(set = "shared") {
  if (hostileRuns.has(set)) return hostileRuns.get(set)!;
  const runs = (async () => {
    const { project } = await sharedStack(set);
    const perRun: Record<string, string[][]> = {};
    const take = () => {
      for (const label of labelsOf(set)) (perRun[label] ??= []).push(hits.get(label)?.splice(0) ?? []);
    };
    const refresh = await project.run("refresh");
    take();
    const destroy = await project.run("destroy");
    take();
    return { refresh, destroy, hits: perRun };
  })();
  hostileRuns.set(set, runs);
  return runs;
}

describe("a 404 that does not say the record is gone", () => {
  test.each(["wrong-prefix", "proxy-html-404"])(
    "%s: refresh keeps the resources, destroy fails loudly and keeps the state",
    async (label) => {
      const { project, uids } = await sharedStack();
      const uid = uids[label];
      const { refresh, destroy, hits: sent } = await hostileRefreshAndDestroy();
      for (const [index, run] of [refresh, destroy].entries()) {
        expect(run.code).not.toBe(0);
        expect(printed(run)).toContain(`the answer does not say that "${uid}" is missing`);
        expect(printed(run)).toContain("check that platform:apiUrl (PLATFORM_API_URL) is the API's base URL");
        expect(printed(run)).toContain(`the request went to ${router.url}${WRONG_PREFIX}/iam/v2beta1/groups/${uid}`);
        // One request for the one resource: a 404 is never repeated.
        const method = index === 0 ? "GET" : "DELETE";
        expect(sent[label][index]).toEqual([`${method} /iam/v2beta1/groups/${uid}`]);
      }
      // The emulator answered the wrong prefix itself, with a 404 of its own.
      if (label === "wrong-prefix")
        expect(
          emu
            .requests()
            .filter((r) => r.path.startsWith(WRONG_PREFIX))
            .map((r) => `${r.method} ${r.path} ${r.status}`),
        ).toEqual([
          `GET ${WRONG_PREFIX}/iam/v2beta1/groups/${uid} 404`,
          `DELETE ${WRONG_PREFIX}/iam/v2beta1/groups/${uid} 404`,
        ]);
      expect(groupsOf(project)[label]).toBe(uid);
      expect(await exists(uid)).toBe(true);
    },
  );
});

describe("servers that hold a call: every call ends by platform:timeout", () => {
  test.each([
    ["never-answers", /was still waiting for its answer/],
    ["trickles-forever", /was still waiting for its answer/],
    ["retry-after-an-hour", /the service asked to retry after 3600 s \(Retry-After\), past this call's deadline/],
  ])("%s: refresh and destroy fail within the budget, naming it; the state is kept", async (label, said) => {
    const { project, uids } = await sharedStack(setOf(label));
    const uid = uids[label];
    const { refresh, destroy, hits: sent } = await hostileRefreshAndDestroy(setOf(label));
    for (const [index, run] of [refresh, destroy].entries()) {
      expect(run.code).not.toBe(0);
      const verb = index === 0 ? "reading" : "deleting";
      expect(printed(run)).toMatch(
        new RegExp(`${verb} group "${label}"[^\\n]* failed: no answer within 3 s \\(platform:timeout\\)`),
      );
      expect(printed(run)).toMatch(said);
      // The call ended by its budget, as the message says, not by the run being stopped: the
      // verdict is what was printed, sent and kept, never how long it took on this machine.
      expect(sent[label][index]).toEqual([`${index === 0 ? "GET" : "DELETE"} /iam/v2beta1/groups/${uid}`]);
    }
    expect(groupsOf(project)[label]).toBe(uid);
    expect(await exists(uid)).toBe(true);
  });
});

/** Made once, on first use: `up` of a new stack whose groups' creates meet FAILING_CREATES. */
let failingUp: Promise<{ up: RealCliRun; project: ProgramProject }> | undefined;
function failingCreates() {
  failingUp ??= (async () => {
    const project = stackOf();
    const names = JSON.stringify(Object.keys(FAILING_CREATES));
    const up = await project.run("up", { "platform:apiUrl": router.url, parentUid: emu.rootUid, names });
    return { up, project };
  })();
  return failingUp;
}

describe("huge answers", () => {
  test("a 100 KB error message: up and refresh end after one request with a capped message", async () => {
    const { refresh, hits: sent } = await hostileRefreshAndDestroy();
    const { up } = await failingCreates();
    for (const [run, label, requests] of [
      [refresh, "huge-error", sent["huge-error"][0]],
      [up, "huge-error-new", hitsOf("huge-error-new")],
    ] as const) {
      expect(run.code).not.toBe(0);
      const said = printed(run)
        .split("\n")
        .filter((line) => line.includes(`group "${label}"`));
      expect(said.join("\n")).toMatch(/failed: INVALID_ARGUMENT: Invalid argument: z+… \[\d+ more characters cut\]/);
      expect(said.join("\n").length).toBeLessThan(20_000);
      expect(requests).toHaveLength(1);
    }
  });
});

describe("a server that echoes the bearer token", () => {
  test("up and refresh fail without the token in any message, log or state", async () => {
    const { project } = await sharedStack();
    const { refresh, hits: sent } = await hostileRefreshAndDestroy();
    const { up, project: created } = await failingCreates();
    for (const run of [refresh, up]) {
      expect(run.code).not.toBe(0);
      expect(printed(run)).toMatch(
        /PERMISSION_DENIED: Permission denied for Bearer \[redacted\] \(token \[redacted\]\)/,
      );
      expect(printed(run)).not.toContain(emu.token);
    }
    for (const stack of [project, created]) expect(JSON.stringify(stack.stack.checkpoint())).not.toContain(emu.token);
    expect([...sent["echoed-token"][0], ...hitsOf("echoed-token-new")]).toHaveLength(2);
  });
});

/** Made once, on first use: `up` of a new stack whose creates are each answered as MANGLED says. */
let mangledUp: Promise<{ up: RealCliRun; project: ProgramProject }> | undefined;
function mangledCreates() {
  mangledUp ??= (async () => {
    const project = stackOf();
    const names = Object.keys(MANGLED).map((label) => `uo-${label}`);
    const up = await project.run("up", {
      "platform:apiUrl": router.url,
      parentUid: emu.rootUid,
      names: JSON.stringify(names),
    });
    return { up, project };
  })();
  return mangledUp;
}

describe("a create answered 2xx without a usable record: the record is adopted, not orphaned", () => {
  test.each(Object.keys(MANGLED))("%s", async (label) => {
    const { up, project } = await mangledCreates();
    expect(printed(up)).not.toMatch(/error/i);
    expect(up.code).toBe(0);
    const uid = groupsOf(project)[`uo-${label}`];
    const listed = await fetch(`${emu.url}/iam/v2beta1/groups?uidp.children_of=${emu.rootUid}&name=uo-${label}`, {
      headers: { authorization: `Bearer ${emu.token}` },
    }).then((r) => r.json() as Promise<{ groups: { uid: string }[] }>);
    expect(listed.groups.map((g) => g.uid)).toEqual([uid]);
    expect(hitsOf(`uo-${label}`).filter((h) => h.startsWith("POST"))).toEqual([
      `POST /iam/v2beta1/groups/${emu.rootUid}`,
    ]);
  });
});
