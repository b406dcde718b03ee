import { startEmulator, RunningEmulator } from "./index";
import { call, detail, G } from "../tests/support/emulatorClient";
import { builtinRole } from "./capabilities";

let emu: RunningEmulator;
let team: any;
const viewer = builtinRole("viewer");
const fields = (body: any) =>
  ((detail(body, "BadRequest")?.fieldViolations ?? []) as Array<{ field: string }>).map((v) => v.field).sort();

async function ok(method: string, path: string, body?: unknown, query?: Record<string, string | string[]>) {
  const reply = await call(emu, method, path, { body, query });
  expect([method, path, reply.status, reply.status === 200 ? undefined : reply.body?.message]).toEqual([
    method,
    path,
    200,
    undefined,
  ]);
  return reply.body;
}

async function bad(method: string, path: string, body?: unknown, query?: Record<string, string>) {
  const reply = await call(emu, method, path, { body, query });
  expect([method, path, reply.status]).toEqual([method, path, 400]);
  return reply.body;
}

beforeAll(async () => {
  emu = await startEmulator({ quiet: true, seed: false });
  team = await ok("POST", `${G}/${emu.rootUid}`, { name: "collections" });
});
afterAll(() => emu.close());

describe("identities of every kind", () => {
  const ID = "/iam/v2/identities";
  test("awsIdentity, staticKeys and servicePrincipal identities are created, read and listed by relationshipType", async () => {
    const aws = await ok("POST", `${ID}/${team.uid}`, {
      name: "aws",
      awsIdentity: { awsAccount: "123456789012", arnPattern: "arn:aws:iam::123456789012:role/.*" },
    });
    expect(aws).toMatchObject({ awsIdentity: { awsAccount: "123456789012" } });
    expect(aws.claimMatch).toBeUndefined();
    const keys = await ok("POST", `${ID}/${team.uid}`, {
      name: "static",
      staticKeys: { issuer: "https://issuer.example", subject: "ci", issuerKeys: '{"keys":[]}' },
    });
    expect(keys.staticKeys.subject).toBe("ci");
    const robot = await ok("POST", `${ID}/${team.uid}`, {
      name: "robot",
      servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    });
    expect(robot.servicePrincipal).toBe("SERVICE_PRINCIPAL_INGESTER");
    const listed = await ok("GET", ID, undefined, {
      "uidp.childrenOf": team.uid,
      relationshipType: "RELATIONSHIP_TYPE_AWS_IDENTITY",
    });
    expect(listed.identities.map((i: any) => i.name)).toEqual(["aws"]);
  });

  test("exactly one kind: none, two, or an unspecified service principal are INVALID_ARGUMENT", async () => {
    await bad("POST", `${ID}/${team.uid}`, { name: "none" });
    const two = await bad("POST", `${ID}/${team.uid}`, {
      name: "two",
      claimMatch: { issuer: "https://x", subject: "s" },
      servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED",
    });
    expect(two.message).toMatch(/exactly one of claimMatch, awsIdentity, staticKeys, servicePrincipal/);
    await bad("POST", `${ID}/${team.uid}`, { name: "unspecified", servicePrincipal: "SERVICE_PRINCIPAL_UNSPECIFIED" });
  });

  test("each kind is validated: AWS account, static keys, RE2 patterns", async () => {
    expect(fields(await bad("POST", `${ID}/${team.uid}`, { name: "a", awsIdentity: { awsAccount: "12" } }))).toEqual([
      "awsIdentity.awsAccount",
    ]);
    expect(fields(await bad("POST", `${ID}/${team.uid}`, { name: "a", awsIdentity: {} }))).toEqual([
      "awsIdentity.awsAccount",
    ]);
    expect(
      fields(
        await bad("POST", `${ID}/${team.uid}`, {
          name: "k",
          staticKeys: { issuer: "https://i", subject: "s", issuerKeys: "not json" },
        }),
      ),
    ).toEqual(["staticKeys.issuerKeys"]);
    for (const pattern of ["(?=a)", "(a)\\1", "(", "a{2,1}"]) {
      const body = await bad("POST", `${ID}/${team.uid}`, {
        name: "p",
        claimMatch: { issuer: "https://i", subjectPattern: pattern, claimPatterns: { ref: pattern } },
      });
      expect(fields(body)).toEqual(["claimMatch.claimPatterns.ref", "claimMatch.subjectPattern"]);
      expect(body.message).toMatch(/is not a valid RE2 pattern/);
    }
  });

  test("a nested updateMask path changes one field of claimMatch and keeps the others", async () => {
    const identity = await ok("POST", `${ID}/${team.uid}`, {
      name: "nested-mask",
      claimMatch: { issuer: "https://issuer.example", subject: "old", claims: { team: "a" } },
    });
    const patched = await ok(
      "PATCH",
      `${ID}/${identity.uid}`,
      { name: "nested-mask", claimMatch: { subject: "new", issuer: "https://ignored.example" } },
      { updateMask: "claimMatch.subject" },
    );
    expect(patched.claimMatch).toEqual({ issuer: "https://issuer.example", subject: "new", claims: { team: "a" } });
    const unknown = await bad("PATCH", `${ID}/${identity.uid}`, { name: "x" }, { updateMask: "claimMatch.colour" });
    expect(fields(unknown)).toEqual(["updateMask"]);
    // Clearing the subject through the mask leaves a claimMatch without one: refused, nothing changes.
    await bad(
      "PATCH",
      `${ID}/${identity.uid}`,
      { name: "nested-mask", claimMatch: {} },
      { updateMask: "claimMatch.subject" },
    );
    expect((await ok("GET", `${ID}/${identity.uid}`)).claimMatch.subject).toBe("new");
  });
});

describe("identity providers and external group role mappings", () => {
  const IDP = "/iam/v2/identityProviders";
  const MAP = "/iam/v2/externalGroupRoleMappings";
  test("the OIDC client secret is stored but never answered; defaultRole must be usable", async () => {
    const idp = await ok("POST", `${IDP}/${team.uid}`, {
      name: "okta",
      defaultRole: viewer.uid,
      oidc: { issuer: "https://okta.example", clientId: "abc", clientSecret: "s3cret-value" },
    });
    expect(idp.oidc).toEqual({ issuer: "https://okta.example", clientId: "abc" });
    expect(idp.scim).toEqual({ enabled: false, credentialState: "CREDENTIAL_STATE_NOT_ISSUED" });
    for (const answer of [
      await ok("GET", `${IDP}/${idp.uid}`),
      await ok("GET", IDP, undefined, { "uidp.ids": idp.uid }),
    ])
      expect(JSON.stringify(answer)).not.toContain("s3cret-value");
    expect(fields(await bad("POST", `${IDP}/${team.uid}`, { name: "x", defaultRole: "f".repeat(40) }))).toEqual([
      "defaultRole",
    ]);
    expect(fields(await bad("POST", `${IDP}/${team.uid}`, { name: "y" }))).toEqual(["defaultRole"]);
    const renamed = await ok("PATCH", `${IDP}/${idp.uid}`, {
      name: "okta",
      defaultRole: viewer.uid,
      description: "SSO",
    });
    expect(renamed).toMatchObject({ name: "okta", description: "SSO", oidc: { clientId: "abc" } });
  });

  test("mappings live under their provider, filter by identityProviderUid, batchDelete removes named ones", async () => {
    const idp = await ok("POST", `${IDP}/${team.uid}`, { name: "azure-ad", defaultRole: viewer.uid });
    const a = await ok("POST", `${MAP}/${idp.uid}`, { externalGroupId: "eng", roleUid: viewer.uid });
    const b = await ok("POST", `${MAP}/${idp.uid}`, { externalGroupId: "ops", roleUid: viewer.uid });
    expect(a).toMatchObject({ identityProviderUid: idp.uid, externalGroupId: "eng", roleUid: viewer.uid });
    const listed = await ok("GET", MAP, undefined, { identityProviderUid: idp.uid });
    expect(listed.externalGroupRoleMappings.map((m: any) => m.uid).sort()).toEqual([a.uid, b.uid].sort());
    const deleted = await ok("POST", `${MAP}:batchDelete`, { parent: idp.uid, names: [a.uid] });
    expect(deleted.externalGroupRoleMappings.map((m: any) => m.uid)).toEqual([a.uid]);
    expect((await call(emu, "GET", `${MAP}/${a.uid}`)).status).toBe(404);
    // Deleting the provider takes its mappings along.
    expect(await ok("DELETE", `${IDP}/${idp.uid}`)).toEqual({});
    expect((await call(emu, "GET", `${MAP}/${b.uid}`)).status).toBe(404);
  });
});

describe("group invites", () => {
  const INV = "/iam/v2/groupInvites";
  test("the code is answered only by the create; expiry follows ttl; keyId filters", async () => {
    const invite = await ok("POST", `${INV}/${team.uid}`, {
      roleUid: viewer.uid,
      ttl: "3600s",
      email: "a@example.com",
    });
    expect(invite.code).toEqual(expect.any(String));
    expect(Date.parse(invite.expirationTime) - Date.parse(invite.createTime)).toBe(3600_000);
    expect(invite.role).toMatchObject({ uid: viewer.uid, name: "viewer" });
    const read = await ok("GET", `${INV}/${invite.uid}`);
    expect(read.code).toBeUndefined();
    const listed = await ok("GET", INV, undefined, { keyId: invite.keyId });
    expect(listed.groupInvites.map((i: any) => i.uid)).toEqual([invite.uid]);
    expect(JSON.stringify(listed)).not.toContain(invite.code);
    expect(fields(await bad("POST", `${INV}/${team.uid}`, { roleUid: viewer.uid, ttl: "1 day" }))).toEqual(["ttl"]);
    expect((await call(emu, "PATCH", `${INV}/${invite.uid}`, { body: {} })).status).toBe(501);
  });
});

describe("account associations: one per group, keyed by the group's uid", () => {
  const AA = "/iam/v2/accountAssociations";
  test("create under a group answers the group's uid; GET, PATCH with a mask, the check and DELETE take that uid", async () => {
    const group = await ok("POST", `${G}/${team.uid}`, { name: "aa-crud" });
    const assoc = await ok("POST", `${AA}/${group.uid}`, {
      name: "aws-prod",
      amazon: { account: "123456789012" },
      google: { projectId: "p", projectNumber: "1" },
    });
    expect(assoc).toMatchObject({ uid: group.uid, name: "aws-prod", amazon: { account: "123456789012" } });
    expect(await ok("GET", `${AA}/${group.uid}`)).toMatchObject({ uid: group.uid, name: "aws-prod" });
    expect(fields(await bad("POST", `${AA}/${team.uid}`, { name: "bad", amazon: { account: "x" } }))).toEqual([
      "amazon.account",
    ]);
    expect(fields(await bad("POST", `${AA}/${team.uid}`, { name: "bad", azure: { tenantId: "t" } }))).toEqual([
      "azure.clientIds",
    ]);
    const patched = await ok("PATCH", `${AA}/${group.uid}`, { name: "aws-prod" }, { updateMask: "google" });
    expect(patched.google).toBeUndefined();
    expect(patched.amazon).toEqual({ account: "123456789012" });
    const described = await ok("PATCH", `${AA}/${group.uid}`, { description: "the production account" });
    expect([described.uid, described.name, described.description]).toEqual([
      group.uid,
      "aws-prod",
      "the production account",
    ]);
    const check = await ok("POST", `${AA}/${group.uid}:checkAccountAssociation`, {
      providerType: "ACCOUNT_PROVIDER_TYPE_AMAZON",
    });
    expect(check.status).toBe("CHECK_STATUS_READY");
    const missing = (
      await call(emu, "POST", `${AA}/${group.uid}:checkAccountAssociation`, {
        body: { providerType: "ACCOUNT_PROVIDER_TYPE_AZURE" },
      })
    ).body;
    expect(missing.status).toBe("CHECK_STATUS_NOT_READY");
    expect(await ok("DELETE", `${AA}/${group.uid}`)).toEqual({});
    expect((await call(emu, "GET", `${AA}/${group.uid}`)).status).toBe(404);
  });

  test("a second association under a group is ALREADY_EXISTS naming the existing one; another name changes nothing", async () => {
    const group = await ok("POST", `${G}/${team.uid}`, { name: "aa-once" });
    await ok("POST", `${AA}/${group.uid}`, { name: "first", amazon: { account: "123456789012" } });
    const second = await call(emu, "POST", `${AA}/${group.uid}`, { body: { name: "second" } });
    expect([second.status, second.body.code]).toEqual([409, 6]);
    expect(detail(second.body, "ResourceInfo")?.resourceName).toBe(group.uid);
    expect(await ok("GET", `${AA}/${group.uid}`)).toMatchObject({ name: "first", amazon: { account: "123456789012" } });
  });

  test("DELETE is idempotent: deleting a missing association succeeds, and deleting it twice too", async () => {
    const group = await ok("POST", `${G}/${team.uid}`, { name: "aa-delete" });
    expect(await ok("DELETE", `${AA}/${group.uid}`)).toEqual({});
    await ok("POST", `${AA}/${group.uid}`, { name: "gone-soon" });
    expect(await ok("DELETE", `${AA}/${group.uid}`)).toEqual({});
    expect(await ok("DELETE", `${AA}/${group.uid}`)).toEqual({});
    expect((await call(emu, "GET", `${AA}/${group.uid}`)).status).toBe(404);
  });

  test("the uidp filters place an association where its group is: children_of a group lists its child groups' associations", async () => {
    const parent = await ok("POST", `${G}/${team.uid}`, { name: "aa-tree" });
    const child = await ok("POST", `${G}/${parent.uid}`, { name: "aa-child" });
    const grandchild = await ok("POST", `${G}/${child.uid}`, { name: "aa-grandchild" });
    for (const group of [parent, child, grandchild]) await ok("POST", `${AA}/${group.uid}`, { name: group.name });
    const uids = async (query: Record<string, string>) =>
      (await ok("GET", AA, undefined, query)).accountAssociations.map((a: any) => a.uid);
    expect(await uids({ "uidp.childrenOf": parent.uid })).toEqual([child.uid]);
    expect(await uids({ "uidp.descendantsOf": parent.uid })).toEqual([child.uid, grandchild.uid]);
    expect(await uids({ "uidp.ids": parent.uid })).toEqual([parent.uid]);
    expect(await uids({ "uidp.descendantsOf": parent.uid, name: "aa-grandchild" })).toEqual([grandchild.uid]);
  });

  test("deleting a group deletes its association", async () => {
    const group = await ok("POST", `${G}/${team.uid}`, { name: "aa-cascade" });
    await ok("POST", `${AA}/${group.uid}`, { name: "goes-with-it" });
    expect(await ok("DELETE", `${G}/${group.uid}`)).toEqual({});
    expect((await call(emu, "GET", `${AA}/${group.uid}`)).status).toBe(404);
  });
});

describe("event subscriptions", () => {
  const SUB = "/events/v2/subscriptions";
  test("an https sink is kept; the answer is uid and sink only", async () => {
    const sub = await ok("POST", `${SUB}/${team.uid}`, { sink: "https://hooks.example/events" });
    expect(Object.keys(sub).sort()).toEqual(["sink", "uid"]);
    expect(fields(await bad("POST", `${SUB}/${team.uid}`, { sink: "ftp://x" }))).toEqual(["sink"]);
    expect(fields(await bad("POST", `${SUB}/${team.uid}`, {}))).toEqual(["sink"]);
    const listed = await ok("GET", SUB, undefined, { "uidp.descendantsOf": team.uid });
    expect(listed.subscriptions.map((s: any) => s.uid)).toEqual([sub.uid]);
    expect(await ok("DELETE", `${SUB}/${sub.uid}`)).toEqual({});
  });
});

describe("registry: repos with sync_config, overlays and overlay bindings (v2beta1 only)", () => {
  test("repo create/update/delete; sync_config by its snake_case name", async () => {
    const repo = await ok("POST", `/registry/v2/repos/${team.uid}`, {
      name: "app",
      catalogTier: "CATALOG_TIER_BASE",
      sync_config: { source: "cgr.dev/acme/app" },
    });
    expect(repo).toMatchObject({ catalogTier: "CATALOG_TIER_BASE", sync_config: { source: "cgr.dev/acme/app" } });
    expect(fields(await bad("POST", `/registry/v2/repos/${team.uid}`, { name: "x", syncConfig: {} }))).toEqual([
      "syncConfig",
    ]);
    const patched = await ok("PATCH", `/registry/v2/repos/${repo.uid}`, { name: "app", description: "the app" });
    expect(patched.description).toBe("the app");
    expect(await ok("DELETE", `/registry/v2/repos/${repo.uid}`)).toEqual({});
  });

  test("overlays and bindings: served under v2beta1 only; deleting an overlay removes its bindings", async () => {
    const OV = "/registry/v2beta1/overlays";
    const OB = "/registry/v2beta1/overlayBindings";
    expect((await call(emu, "GET", "/registry/v2/overlays")).status).toBe(404);
    const repo = await ok("POST", `/registry/v2beta1/repos/${team.uid}`, { name: "overlaid" });
    const overlay = await ok("POST", `${OV}/${team.uid}`, {
      name: "certs",
      config: { environment: { TZ: "UTC" }, certificates: { providers: ["system"] } },
    });
    expect(Object.keys(overlay).sort()).toEqual(["config", "name", "uid"]);
    expect(fields(await bad("POST", `${OV}/${team.uid}`, { name: "no-config" }))).toEqual(["config"]);
    const binding = await ok("POST", `${OB}/${repo.uid}`, { overlay: overlay.uid, tags: ["latest"] });
    expect(binding).toMatchObject({ repo: repo.uid, tags: ["latest"], overlay: { uid: overlay.uid, name: "certs" } });
    expect(fields(await bad("POST", `${OB}/${repo.uid}`, { overlay: `${team.uid}/ffff`, tags: ["x"] }))).toEqual([
      "overlay",
    ]);
    const listed = await ok("GET", OB, undefined, { overlay: overlay.uid });
    expect(listed.overlayBindings.map((b: any) => b.uid)).toEqual([binding.uid]);
    expect(await ok("DELETE", `${OV}/${overlay.uid}`)).toEqual({});
    expect((await call(emu, "GET", `${OB}/${binding.uid}`)).status).toBe(404);
  });
});

describe("custom roles", () => {
  test("capabilities come from the documented enum; a custom role grants exactly them", async () => {
    const role = await ok("POST", `/iam/v2/roles/${team.uid}`, {
      name: "sub-reader",
      capabilities: ["CAP_EVENTS_SUBSCRIPTION_LIST"],
    });
    expect(role.uid).toMatch(/^[0-9a-f]{40}$/);
    const patched = await ok("PATCH", `/iam/v2/roles/${role.uid}`, {
      name: "sub-reader",
      capabilities: ["CAP_EVENTS_SUBSCRIPTION_LIST", "CAP_REPO_LIST"],
    });
    expect(patched.capabilities).toEqual(["CAP_EVENTS_SUBSCRIPTION_LIST", "CAP_REPO_LIST"]);
  });
});
