import { startEmulator, RunningEmulator } from "./index";
import { call, G } from "../tests/support/emulatorClient";
import { ALL_CAPABILITIES, BUILTIN_ROLES, builtinRole } from "./capabilities";
import { loadApiDocument } from "./apiDocument";

let emu: RunningEmulator;
let team: any;

async function ok(method: string, path: string, body?: unknown) {
  const reply = await call(emu, method, path, { body });
  expect([path, reply.status]).toEqual([path, 200]);
  return reply.body;
}

/** An identity bound with roleUid on the team, and an API token for it. */
async function principal(subject: string, roleUid: string): Promise<string> {
  const identity = await ok("POST", `/iam/v2/identities/${team.uid}`, {
    name: subject,
    claimMatch: { issuer: emu.issuer, subject },
  });
  await ok("POST", `/iam/v2/roleBindings/${team.uid}`, { identityUid: identity.uid, roleUid });
  const jwt = await emu.mintOidcToken({ subject });
  const exchanged = await call(emu, "GET", "/sts/exchange", {
    token: jwt,
    query: { aud: emu.url, identity: identity.uid },
  });
  return exchanged.body.token as string;
}

beforeAll(async () => {
  emu = await startEmulator({ quiet: true });
  team = await ok("POST", `${G}/${emu.rootUid}`, { name: "caps" });
  await ok("POST", `/events/v2/subscriptions/${team.uid}`, { sink: "https://hooks.example/a" });
});
afterAll(() => emu.close());

test("every capability the emulator checks or grants is a value of the documented enum", () => {
  const documented = loadApiDocument().schemas["capabilities.Capability"].enum!;
  for (const cap of ALL_CAPABILITIES) expect([cap, documented.includes(cap)]).toEqual([cap, true]);
  for (const role of BUILTIN_ROLES) for (const cap of role.capabilities) expect(documented).toContain(cap);
});

test("a custom role grants exactly its capabilities", async () => {
  const role = await ok("POST", `/iam/v2/roles/${team.uid}`, {
    name: "subscription-reader",
    capabilities: ["CAP_EVENTS_SUBSCRIPTION_LIST"],
  });
  const token = await principal("sub-reader", role.uid);
  const listed = await call(emu, "GET", "/events/v2/subscriptions", { token });
  expect([listed.status, listed.body.subscriptions.length]).toEqual([200, 1]);
  const sub = listed.body.subscriptions[0];
  expect((await call(emu, "GET", `/events/v2/subscriptions/${sub.uid}`, { token })).status).toBe(200);
  const create = await call(emu, "POST", `/events/v2/subscriptions/${team.uid}`, {
    token,
    body: { sink: "https://hooks.example/b" },
  });
  expect([create.status, create.body.message]).toEqual([
    403,
    expect.stringContaining("CAP_EVENTS_SUBSCRIPTION_CREATE"),
  ]);
  expect((await call(emu, "DELETE", `/events/v2/subscriptions/${sub.uid}`, { token })).status).toBe(403);
  // Nothing else: groups, repos and identity providers are out of reach.
  expect((await call(emu, "GET", `${G}/${team.uid}`, { token })).status).toBe(403);
  expect((await call(emu, "GET", "/iam/v2/groups", { token })).body.groups).toEqual([]);
  expect((await call(emu, "GET", "/iam/v2/identityProviders", { token })).body.identityProviders).toEqual([]);
  expect((await call(emu, "POST", `/registry/v2/repos/${team.uid}`, { token, body: { name: "nope" } })).status).toBe(
    403,
  );
});

test("built-in roles: viewer reads every collection but writes none; editor writes contents, not access", async () => {
  const viewer = await principal("caps-viewer", builtinRole("viewer").uid);
  for (const path of [
    "/iam/v2/identityProviders",
    "/iam/v2/groupInvites",
    "/events/v2/subscriptions",
    "/registry/v2beta1/overlays",
  ])
    expect([path, (await call(emu, "GET", path, { token: viewer })).status]).toEqual([path, 200]);
  const denied = await call(emu, "POST", `/iam/v2/identityProviders/${team.uid}`, {
    token: viewer,
    body: { name: "idp", defaultRole: builtinRole("viewer").uid },
  });
  expect([denied.status, denied.body.message]).toEqual([
    403,
    expect.stringContaining("CAP_IAM_IDENTITY_PROVIDERS_CREATE"),
  ]);
  const editor = await principal("caps-editor", builtinRole("editor").uid);
  expect(
    (
      await call(emu, "POST", `/events/v2/subscriptions/${team.uid}`, {
        token: editor,
        body: { sink: "https://h.example/e" },
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await call(emu, "POST", `/iam/v2/roles/${team.uid}`, {
        token: editor,
        body: { name: "escalate", capabilities: ["CAP_IAM_ROLES_CREATE"] },
      })
    ).status,
  ).toBe(403);
  const scim = await call(emu, "POST", `/iam/v2/identityProviders/${team.uid}/x:generateScimToken`, {
    token: editor,
    body: {},
  });
  expect([scim.status, scim.body.message]).toEqual([403, expect.stringContaining("CAP_IAM_SCIM_MANAGE")]);
});
