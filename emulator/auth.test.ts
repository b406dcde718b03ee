import { startEmulator, RunningEmulator } from "./index";
import { call, detail, G } from "../tests/support/emulatorClient";
import { builtinRole } from "./capabilities";

let emu: RunningEmulator;
let teamA: any;
let teamB: any;
let subA: any;

async function ok(method: string, path: string, body?: unknown) {
  const reply = await call(emu, method, path, { body });
  expect(reply.status).toBe(200);
  return reply.body;
}

/** An identity under `group` bound with `role` on `bindAt`, and an API token for it. */
async function principal(group: string, subject: string, role: string, bindAt: string = group) {
  const identity = await ok("POST", `/iam/v2beta1/identities/${group}`, {
    name: subject,
    claimMatch: { issuer: emu.issuer, subject },
  });
  await ok("POST", `/iam/v2beta1/roleBindings/${bindAt}`, {
    identityUid: identity.uid,
    roleUid: builtinRole(role).uid,
  });
  const jwt = await emu.mintOidcToken({ subject });
  const exchanged = await call(emu, "GET", "/sts/exchange", {
    token: jwt,
    query: { aud: emu.url, identity: identity.uid },
  });
  expect(exchanged.status).toBe(200);
  return { identity, token: exchanged.body.token as string };
}

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  teamA = await ok("POST", `${G}/${emu.rootUid}`, { name: "team-a" });
  teamB = await ok("POST", `${G}/${emu.rootUid}`, { name: "team-b" });
  subA = await ok("POST", `${G}/${teamA.uid}`, { name: "sub-a" });
  await ok("POST", `/registry/v2beta1/repos/${teamB.uid}`, { name: "b-repo" });
});
afterAll(() => emu.close());

describe("authentication", () => {
  test("no Authorization header is UNAUTHENTICATED (401)", async () => {
    const reply = await call(emu, "GET", G, { token: null });
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe(16);
    expect(detail(reply.body, "ErrorInfo")?.reason).toBe("UNAUTHENTICATED");
  });

  test("an unknown token is 401", async () => {
    expect((await call(emu, "GET", G, { token: "nope" })).status).toBe(401);
  });

  test("a non-Bearer scheme is 401", async () => {
    const reply = await call(emu, "GET", G, { token: null, headers: { authorization: `Basic ${emu.token}` } });
    expect(reply.status).toBe(401);
  });

  test("unknown paths need a token too, then answer NOT_FOUND as a Status", async () => {
    expect((await call(emu, "GET", "/nowhere", { token: null })).status).toBe(401);
    const reply = await call(emu, "GET", "/nowhere");
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe(5);
  });

  test("the dev token does not expire; exchanged tokens expire after tokenTtlSeconds by the emulator clock", async () => {
    const short = await startEmulator({ quiet: true, tokenTtlSeconds: 60 });
    try {
      const identities = await call(short, "GET", "/iam/v2beta1/identities", { query: { name: "dev-owner" } });
      const jwt = await short.mintOidcToken({ subject: "dev-owner" });
      // The expiry is the exchange's moment plus the TTL: bracketed by the clock read before and
      // after the call, so it holds however slow the machine is.
      const before = Date.now();
      const exchanged = await call(short, "GET", "/sts/exchange", {
        token: jwt,
        query: { aud: short.url, identity: identities.body.identities[0].uid },
      });
      const after = Date.now();
      const token = exchanged.body.token;
      expect(Date.parse(exchanged.body.expiry)).toBeGreaterThanOrEqual(before + 60_000);
      expect(Date.parse(exchanged.body.expiry)).toBeLessThanOrEqual(after + 60_000);
      expect((await call(short, "GET", G, { token })).status).toBe(200);
      short.advanceClock(61_000);
      const expired = await call(short, "GET", G, { token });
      expect(expired.status).toBe(401);
      expect(expired.body.message).toMatch(/expired/);
      expect((await call(short, "GET", G)).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});

describe("access follows role bindings on subtrees", () => {
  test("a viewer of team A sees team A's subtree and nothing else in lists", async () => {
    const { token } = await principal(teamA.uid, "viewer-a", "viewer");
    const reply = await call(emu, "GET", G, { token, query: { page_size: 200 } });
    expect(reply.status).toBe(200);
    const uids = reply.body.groups.map((g: any) => g.uid).sort();
    expect(uids).toEqual([teamA.uid, subA.uid].sort());
    expect(reply.body.totalCount).toBe("2");
    const repos = await call(emu, "GET", "/registry/v2beta1/repos", { token });
    expect(repos.body.repos).toEqual([]);
    const underB = await call(emu, "GET", G, { token, query: { "uidp.descendants_of": teamB.uid } });
    expect(underB.body.groups).toEqual([]);
    const v1 = await call(emu, "GET", "/iam/v1/groups", { token });
    expect(v1.body.items.map((i: any) => i.id).sort()).toEqual([teamA.uid, subA.uid].sort());
  });

  test("outside the caller's subtrees, Get/PATCH/DELETE are PERMISSION_DENIED whether or not the uid exists", async () => {
    const { token } = await principal(teamA.uid, "editor-a", "editor");
    for (const uid of [teamB.uid, `${teamB.uid}/0000000000000000`, emu.rootUid]) {
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { description: "x" }],
        ["DELETE", undefined],
      ] as const) {
        const reply = await call(emu, method, `${G}/${uid}`, { token, body });
        expect([method, uid, reply.status]).toEqual([method, uid, 403]);
        expect(reply.body.code).toBe(7);
      }
    }
    const create = await call(emu, "POST", `${G}/${teamB.uid}`, { token, body: { name: "intruder" } });
    expect(create.status).toBe(403);
    expect((await call(emu, "GET", `${G}/${teamB.uid}`)).body.description).toBe("");
  });

  test("an account association's DELETE succeeds when there is none, but only where the caller may delete", async () => {
    const { token } = await principal(teamA.uid, "association-owner-a", "owner");
    const AA = "/iam/v2beta1/accountAssociations";
    expect((await call(emu, "DELETE", `${AA}/${subA.uid}`, { token })).status).toBe(200);
    const outside = await call(emu, "DELETE", `${AA}/${teamB.uid}`, { token });
    expect([outside.status, outside.body.code]).toEqual([403, 7]);
  });

  test("inside the subtree an editor creates, changes and deletes; missing uids are NOT_FOUND", async () => {
    const { token } = await principal(teamA.uid, "editor-a2", "editor");
    const created = await call(emu, "POST", `${G}/${subA.uid}`, { token, body: { name: "made-by-editor" } });
    expect(created.status).toBe(200);
    expect(
      (
        await call(emu, "PATCH", `${G}/${created.body.uid}`, {
          token,
          body: { name: "made-by-editor", description: "d" },
        })
      ).status,
    ).toBe(200);
    expect((await call(emu, "DELETE", `${G}/${created.body.uid}`, { token })).status).toBe(200);
    expect((await call(emu, "GET", `${G}/${subA.uid}/0000000000000000`, { token })).status).toBe(404);
  });

  test("a viewer cannot write", async () => {
    const { token } = await principal(teamA.uid, "viewer-a2", "viewer");
    expect((await call(emu, "POST", `${G}/${teamA.uid}`, { token, body: { name: "nope" } })).status).toBe(403);
    expect((await call(emu, "PATCH", `${G}/${subA.uid}`, { token, body: { description: "nope" } })).status).toBe(403);
    expect((await call(emu, "GET", `${G}/${subA.uid}`, { token })).status).toBe(200);
  });

  test("an editor cannot grant roles; an owner can", async () => {
    const { token: editor } = await principal(teamA.uid, "editor-a3", "editor");
    const { identity, token: owner } = await principal(teamA.uid, "owner-a", "owner");
    const body = { identityUid: identity.uid, roleUid: builtinRole("viewer").uid };
    expect((await call(emu, "POST", `/iam/v2beta1/roleBindings/${subA.uid}`, { token: editor, body })).status).toBe(
      403,
    );
    expect((await call(emu, "POST", `/iam/v2beta1/roleBindings/${subA.uid}`, { token: owner, body })).status).toBe(200);
  });

  test("a binding on a parent group covers grandchildren created later", async () => {
    const { token } = await principal(teamA.uid, "editor-a4", "editor");
    const later = await ok("POST", `${G}/${subA.uid}`, { name: "later" });
    expect((await call(emu, "GET", `${G}/${later.uid}`, { token })).status).toBe(200);
  });

  test("an identity without bindings is denied everything and lists nothing", async () => {
    const identity = await ok("POST", `/iam/v2beta1/identities/${teamA.uid}`, {
      name: "unbound",
      claimMatch: { issuer: emu.issuer, subject: "unbound" },
    });
    const jwt = await emu.mintOidcToken({ subject: "unbound" });
    const { body } = await call(emu, "GET", "/sts/exchange", {
      token: jwt,
      query: { aud: emu.url, identity: identity.uid },
    });
    expect((await call(emu, "GET", `${G}/${teamA.uid}`, { token: body.token })).status).toBe(403);
    const list = await call(emu, "GET", G, { token: body.token });
    expect(list.body.groups).toEqual([]);
    expect(list.body.totalCount).toBe("0");
    // Built-in roles are listable by any authenticated caller.
    expect((await call(emu, "GET", "/iam/v2beta1/roles", { token: body.token })).body.roles).toHaveLength(3);
  });

  test("deleting the binding takes the access away at once", async () => {
    const { identity, token } = await principal(teamA.uid, "viewer-a3", "viewer");
    expect((await call(emu, "GET", `${G}/${teamA.uid}`, { token })).status).toBe(200);
    const bindings = await call(emu, "GET", "/iam/v2beta1/roleBindings", { query: { identity: identity.uid } });
    expect(bindings.body.roleBindings).toHaveLength(1);
    await ok("DELETE", `/iam/v2beta1/roleBindings/${bindings.body.roleBindings[0].uid}`);
    expect((await call(emu, "GET", `${G}/${teamA.uid}`, { token })).status).toBe(403);
    expect((await call(emu, "GET", G, { token })).body.groups).toEqual([]);
  });

  test("a new binding and a custom role's changed capabilities apply to the caller's next request", async () => {
    const { identity, token } = await principal(teamA.uid, "lister-a5", "viewer", subA.uid);
    expect((await call(emu, "GET", `${G}/${teamB.uid}`, { token })).status).toBe(403);
    const role = await ok("POST", `/iam/v2beta1/roles/${emu.rootUid}`, { name: "group-lister", capabilities: [] });
    await ok("POST", `/iam/v2beta1/roleBindings/${teamB.uid}`, { identityUid: identity.uid, roleUid: role.uid });
    expect((await call(emu, "GET", `${G}/${teamB.uid}`, { token })).status).toBe(403);
    await ok("PATCH", `/iam/v2beta1/roles/${role.uid}`, {
      name: "group-lister",
      capabilities: ["CAP_IAM_GROUPS_LIST"],
    });
    expect((await call(emu, "GET", `${G}/${teamB.uid}`, { token })).status).toBe(200);
    const listed: string[] = (await call(emu, "GET", G, { token })).body.groups.map((g: { uid: string }) => g.uid);
    expect(listed).toEqual(expect.arrayContaining([subA.uid, teamB.uid]));
    expect(listed).not.toContain(teamA.uid);
  });

  test("propagationDelayMs: creating under a young group is PERMISSION_DENIED until the delay passes", async () => {
    const slow = await startEmulator({ quiet: true, seed: false, propagationDelayMs: 5000 });
    try {
      slow.advanceClock(10_000);
      const group = await call(slow, "POST", `${G}/${slow.rootUid}`, { body: { name: "young" } });
      expect(group.status).toBe(200);
      const early = await call(slow, "POST", `${G}/${group.body.uid}`, { body: { name: "child" } });
      expect(early.status).toBe(403);
      expect(early.body.message).toMatch(/propagat/);
      slow.advanceClock(5000);
      expect((await call(slow, "POST", `${G}/${group.body.uid}`, { body: { name: "child" } })).status).toBe(200);
    } finally {
      await slow.close();
    }
  });
});

describe("token exchange", () => {
  let identity: any;
  beforeAll(async () => {
    identity = await ok("POST", `/iam/v2beta1/identities/${teamA.uid}`, {
      name: "ci",
      claimMatch: { issuer: emu.issuer, subject: "repo:acme/app:ref:refs/heads/main" },
    });
    await ok("POST", `/iam/v2beta1/roleBindings/${teamA.uid}`, {
      identityUid: identity.uid,
      roleUid: builtinRole("viewer").uid,
    });
  });
  const exchange = (jwt: string, query: Record<string, string> = {}, method = "GET") =>
    call(emu, method, "/sts/exchange", { token: jwt, query: { aud: emu.url, identity: identity.uid, ...query } });

  test("a valid token for the identity's issuer and subject gives {token, expiry, refreshToken} valid for an hour", async () => {
    const jwt = await emu.mintOidcToken({ subject: "repo:acme/app:ref:refs/heads/main" });
    // An hour from the exchange's moment, which lies between the clock reads before and after it.
    const before = Date.now();
    const reply = await exchange(jwt);
    const after = Date.now();
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(["expiry", "refreshToken", "token"]);
    expect(Date.parse(reply.body.expiry)).toBeGreaterThanOrEqual(before + 3600_000);
    expect(Date.parse(reply.body.expiry)).toBeLessThanOrEqual(after + 3600_000);
    expect((await call(emu, "GET", `${G}/${teamA.uid}`, { token: reply.body.token })).status).toBe(200);
  });

  test("POST works too, and the registry audience is accepted", async () => {
    const jwt = await emu.mintOidcToken({ subject: "repo:acme/app:ref:refs/heads/main" });
    expect((await exchange(jwt, {}, "POST")).status).toBe(200);
    expect((await exchange(jwt, { aud: `${emu.url}/registry` })).status).toBe(200);
  });

  test.each([
    [
      "an expired token",
      async () => emu.mintOidcToken({ subject: "repo:acme/app:ref:refs/heads/main", expiresInSeconds: -10 }),
      /expired/,
    ],
    ["a subject mismatch", async () => emu.mintOidcToken({ subject: "repo:acme/evil:ref:refs/heads/main" }), /subject/],
    [
      "a wrong issuer",
      async () => emu.mintOidcToken({ subject: "repo:acme/app:ref:refs/heads/main", issuer: "https://other.example" }),
      /issuer/,
    ],
    ["not a JWT", async () => "not-a-jwt", /not a JWT/],
  ])("%s is UNAUTHENTICATED saying why", async (_, mint, why) => {
    const reply = await exchange(await mint());
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe(16);
    expect(reply.body.message).toMatch(why);
  });

  test("a forged signature is UNAUTHENTICATED", async () => {
    const other = await startEmulator({ quiet: true, seed: false });
    try {
      // Same issuer and subject, signed by another emulator's key.
      const forged = await other.mintOidcToken({ subject: "repo:acme/app:ref:refs/heads/main", issuer: emu.issuer });
      const reply = await exchange(forged);
      expect(reply.status).toBe(401);
      expect(reply.body.message).toMatch(/signature|key/);
    } finally {
      await other.close();
    }
  });

  test("an expired OIDC token by the emulator clock (advanceClock) is rejected", async () => {
    const jwt = await emu.mintOidcToken({ subject: "repo:acme/app:ref:refs/heads/main", expiresInSeconds: 30 });
    emu.advanceClock(60_000);
    const reply = await exchange(jwt);
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/expired/);
  });

  test("another issuer is accepted once trusted with its JWKS", async () => {
    const external = await startEmulator({ quiet: true, seed: false });
    try {
      const ext = await ok("POST", `/iam/v2beta1/identities/${teamA.uid}`, {
        name: "external",
        claimMatch: {
          issuerPattern: "http://127\\.0\\.0\\.1:\\d+/oidc",
          subjectPattern: "deploy-.*",
          audience: "platform",
        },
      });
      const jwt = await external.mintOidcToken({ subject: "deploy-42", audience: "platform" });
      const query = { aud: emu.url, identity: ext.uid };
      const untrusted = await call(emu, "GET", "/sts/exchange", { token: jwt, query });
      expect(untrusted.status).toBe(401);
      expect(untrusted.body.message).toMatch(/not trusted/);
      const jwks = (await (await fetch(`${external.issuer}/.well-known/jwks.json`)).json()) as { keys: object[] };
      emu.trustIssuer(external.issuer, jwks);
      expect((await call(emu, "GET", "/sts/exchange", { token: jwt, query })).status).toBe(200);
      const wrongAudience = await external.mintOidcToken({ subject: "deploy-42", audience: "elsewhere" });
      const reply = await call(emu, "GET", "/sts/exchange", { token: wrongAudience, query });
      expect(reply.status).toBe(401);
      expect(reply.body.message).toMatch(/audience/);
      const patternMiss = await external.mintOidcToken({ subject: "xdeploy-42", audience: "platform" });
      expect((await call(emu, "GET", "/sts/exchange", { token: patternMiss, query })).status).toBe(401);
    } finally {
      await external.close();
    }
  });

  test("aud must be the base URL: INVALID_ARGUMENT naming aud", async () => {
    const reply = await exchange(await emu.mintOidcToken({ subject: "repo:acme/app:ref:refs/heads/main" }), {
      aud: "https://elsewhere",
    });
    expect(reply.status).toBe(400);
    expect(detail(reply.body, "BadRequest")?.fieldViolations[0].field).toBe("aud");
  });

  test("a missing identity parameter names identity; an unknown identity is UNAUTHENTICATED", async () => {
    const jwt = await emu.mintOidcToken({ subject: "repo:acme/app:ref:refs/heads/main" });
    const missing = await call(emu, "GET", "/sts/exchange", { token: jwt, query: { aud: emu.url } });
    expect(detail(missing.body, "BadRequest")?.fieldViolations[0].field).toBe("identity");
    const unknown = await exchange(jwt, { identity: `${teamA.uid}/0000000000000000` });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toMatch(/does not exist/);
  });

  test("no bearer OIDC token is UNAUTHENTICATED", async () => {
    const reply = await call(emu, "GET", "/sts/exchange", {
      token: null,
      query: { aud: emu.url, identity: identity.uid },
    });
    expect(reply.status).toBe(401);
  });

  test("the issuer publishes discovery and JWKS without authentication", async () => {
    const config = (await (await fetch(`${emu.issuer}/.well-known/openid-configuration`)).json()) as any;
    expect(config).toMatchObject({ issuer: emu.issuer, jwks_uri: `${emu.issuer}/.well-known/jwks.json` });
    const jwks = (await (await fetch(config.jwks_uri)).json()) as any;
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", alg: "ES256" });
    expect(jwks.keys[0].d).toBeUndefined();
  });
});
