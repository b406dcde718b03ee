/**
 * A server that echoes an identity provider's client secret back in an error, in every spelling
 * a server may use (JSON-escaped by different writers, URL-encoded, base64, HTTP Basic), through
 * the program under the REAL Pulumi CLI and the dynamic-provider host it launches: the create, the
 * update that rotates the secret and the refresh fail with the error shown and the secret redacted
 * from it, in no spelling printed. A second test drives the host directly and reads its own log.
 *
 * The secret holds what needs escaping: a quote, a backslash, a tab, a slash, a space, `+`,
 * `%`, `<`, `&`, non-ASCII and an astral character.
 */
import * as http from "node:http";
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";
import { ProgramProject, programProject } from "../support/programProject";
import { Harness, startHarness } from "../../tools/host/resourceHarness";
import { recordingServer } from "../support/recordingServer";
import { failureOf, registerResource } from "../support/registeredResource";
import { spellingsOf } from "../support/secretSpellings";

// Five runs under the real CLI and a staged host: on a loaded machine each run can take 30 s or more.
jest.setTimeout(420_000);

const SECRET = 'sso"cl\\ient\tse/c +%<&é😀';
const ROTATED = 'rot"ated\\cl\tie/nt +%<&ü🔑';
const IDPS = "/iam/v2beta1/identityProviders";

let h: Harness;
let project: ProgramProject;
let proxy: { url: string; server: http.Server };
/** The secrets the proxy echoes to reads of identity providers too (the refresh case). */
let echoedOnRead: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  project = programProject({
    name: "identity-provider",
    program: { dir: path.join(repoRoot, "tests", "programs", "identity-provider") },
    api: { url: h.emu.url, token: h.emu.token },
  });
  proxy = await recordingServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const sent = clientSecretIn(body);
      const isRead = req.method === "GET" && String(req.url).startsWith(`${IDPS}/`);
      if (sent) echo(res, [sent]);
      else if (isRead && echoedOnRead.length) echo(res, echoedOnRead);
      else void forward(req, body, res);
    });
  });
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.server.close(resolve));
  await h?.close();
  project?.remove();
});

function clientSecretIn(body: string): string | undefined {
  try {
    const secret = (JSON.parse(body) as { oidc?: { clientSecret?: unknown } }).oidc?.clientSecret;
    return typeof secret === "string" ? secret : undefined;
  } catch {
    return undefined;
  }
}

/** An AIP-193 error echoing each secret in every spelling: one field violation per spelling, and in the message. */
function echo(res: http.ServerResponse, secrets: string[]): void {
  const spellings = secrets.flatMap((secret) => spellingsOf(secret).map(([, spelled]) => spelled));
  res.writeHead(400, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      code: 3,
      message: `client secret rejected: ${spellings.slice(0, 4).join(" / ")}`,
      details: [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: `BAD_SECRET_${spellings[1]}` },
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: spellings.slice(0, 20).map((spelled) => ({
            field: "oidc.clientSecret",
            description: `the issuer refused ${spelled}`,
          })),
        },
      ],
    }),
  );
}

async function forward(req: http.IncomingMessage, body: string, res: http.ServerResponse): Promise<void> {
  const headers = { ...req.headers } as Record<string, string>;
  delete headers.host;
  delete headers["content-length"];
  const answer = await fetch(`${h.emu.url}${req.url}`, { method: req.method, headers, body: body || undefined });
  res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
  res.end(await answer.text());
}

/** One command of the identity-provider program, its API at `apiUrl`, its client secret `secret`. */
const cli = (command: string, apiUrl: string, secret: string) =>
  project.run(
    command,
    { "platform:apiUrl": apiUrl, rootUid: h.emu.rootUid },
    { secretConfig: { ssoClientSecret: secret } },
  );

/** No spelling of either secret anywhere in `text`; the error was shown, redacted `times` times at least. */
function expectRedacted(text: string, times: number): void {
  for (const secret of [SECRET, ROTATED])
    for (const [label, spelled] of spellingsOf(secret))
      expect({ label, found: text.includes(spelled) }).toEqual({ label, found: false });
  expect(text.split("[redacted]").length - 1).toBeGreaterThanOrEqual(times);
}

test("create, rotation and refresh against an echoing server: the error is shown, the secret in no spelling", async () => {
  // The create: the POST carries the secret, the server echoes it.
  const create = await cli("up", proxy.url, SECRET);
  expect(create.code).not.toBe(0);
  const created = create.stdout + create.stderr + create.runnerOutput;
  expect(created).toMatch(
    /creating identity provider "program-sso"[^\n]* failed: INVALID_ARGUMENT: oidc\.clientSecret: the issuer refused \[redacted\]/,
  );
  expectRedacted(created, spellingsOf(SECRET).length);
  expect(h.emu.requests().filter((r) => r.method === "POST" && r.path.startsWith(IDPS))).toEqual([]);

  // Made through the API itself, then rotated through the echoing server: the PATCH carries the new secret.
  const made = await cli("up", h.emu.url, SECRET);
  expect(made.code).toBe(0);
  const rotate = await cli("up", proxy.url, ROTATED);
  expect(rotate.code).not.toBe(0);
  const rotated = rotate.stdout + rotate.stderr + rotate.runnerOutput;
  expect(rotated).toMatch(/updating identity provider "program-sso"[^\n]* failed: INVALID_ARGUMENT/);
  expectRedacted(rotated, spellingsOf(ROTATED).length);

  // A read answered with the secret the state holds (the rotation failed), every spelling.
  echoedOnRead = [SECRET];
  try {
    const refresh = await cli("refresh", proxy.url, ROTATED);
    expect(refresh.code).not.toBe(0);
    const refreshed = refresh.stdout + refresh.stderr + refresh.runnerOutput;
    expect(refreshed).toMatch(/reading identity provider "program-sso"[^\n]* failed: INVALID_ARGUMENT/);
    expectRedacted(refreshed, spellingsOf(SECRET).length);
  } finally {
    echoedOnRead = [];
  }
  expect((await cli("destroy", h.emu.url, SECRET)).code).toBe(0);
});

test("the host's own log and the messages it returns hold no spelling of the secret", async () => {
  const registered = await registerResource(
    h,
    "spellings-sso",
    (platform) =>
      new platform.iam.IdentityProvider("spellings-sso", {
        parentUid: h.emu.rootUid,
        name: "spellings-sso",
        defaultRole: "viewer",
      }),
  );
  await h.host.configure({ "platform:apiUrl": proxy.url, "platform:token": h.emu.token });
  try {
    const inputs = {
      parentUid: h.emu.rootUid,
      name: "host-sso",
      defaultRole: "viewer",
      oidc: { issuer: "https://login.example.com", clientId: "platform", clientSecret: SECRET },
      __provider: registered.provider,
    };
    const failure = await failureOf(h.host.create(registered.urn, inputs));
    expect(failure.message).toMatch(/failed: INVALID_ARGUMENT: oidc\.clientSecret: the issuer refused \[redacted\]/);
    expectRedacted(failure.message, spellingsOf(SECRET).length);
    expectRedacted(h.host.stderr(), 0);
  } finally {
    await h.host.configure({ "platform:apiUrl": h.emu.url, "platform:token": h.emu.token });
  }
});
