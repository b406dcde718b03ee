/**
 * ExternalGroupRoleMapping through the REAL dynamic-provider host against the emulator, under
 * an identity provider made with a raw API call. The API has no update for mappings, so every
 * change is a replacement.
 */
import * as pulumi from "@pulumi/pulumi";
import { BUILTIN_ROLES } from "../../../emulator";
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { failureOf, registerResource } from "../../../tests/support/registeredResource";
import { fetchClient } from "../../../tests/support/lookupClient";
import {
  getExternalGroupRoleMapping,
  getExternalGroupRoleMappingOutput,
  getExternalGroupRoleMappings,
  getExternalGroupRoleMappingsOutput,
} from "./lookups";
import { withClient } from "../../../core/program/lookup";

let h: Harness;
let provider: string;
let urn: string;
let sso: string;
let mockMapping: unknown;
const MAPPINGS = "/iam/v2beta1/externalGroupRoleMappings";
const viewer = BUILTIN_ROLES.find((r) => r.name === "viewer")!.uid;
const editor = BUILTIN_ROLES.find((r) => r.name === "editor")!.uid;

beforeAll(async () => {
  h = await startHarness();
  const registered = await registerResource(
    h,
    "mock-mapping",
    (platform) =>
      new platform.iam.ExternalGroupRoleMapping("mock-mapping", {
        identityProviderUid: "acme/sso",
        externalGroupId: "admins",
        roleUid: "owner",
      }),
  );
  await registerResource(h, "mock-mapping-get", (platform) =>
    platform.iam.ExternalGroupRoleMapping.get("mock-mapping-get", "acme/sso/m1"),
  );
  provider = registered.provider;
  urn = registered.urn;
  mockMapping = registered.instance;
  const team = (await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "directory" })).body.uid;
  sso = (
    await h.api("POST", `/iam/v2beta1/identityProviders/${team}`, {
      name: "sso",
      defaultRole: viewer,
      oidc: { issuer: "https://sso.example.com", clientId: "platform" },
    })
  ).body.uid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

/** An Output's value (the harness runs under setMocks, not a preview). */
const resolve = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

test("the serialized provider is a bare require of the installed package, at most 330 bytes", () => {
  expect(provider).toMatch(
    /require\("platform-pulumi\/dist\/resources\/iam\/externalGroupRoleMapping\/provider\.js"\)/,
  );
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
  for (const secret of [h.emu.token, h.emu.url, h.staged.dir]) expect(provider).not.toContain(secret);
  expect(h.mocked["mock-mapping"].type).toBe("pulumi-nodejs:dynamic/iam:ExternalGroupRoleMapping");
  expect(h.mocked["mock-mapping-get"]).toMatchObject({ id: "acme/sso/m1", inputs: { __provider: provider } });
  expect(h.platform.iam.ExternalGroupRoleMapping.isInstance(mockMapping)).toBe(true);
  expect(h.platform.iam.ExternalGroupRoleMapping.isInstance(h.instances["mock-group"])).toBe(false);
});

test("lifecycle: create, no-op rerun, every input replaces (creating first), drift, delete twice, look-ups", async () => {
  const declared = { identityProviderUid: sso, externalGroupId: "platform-admins", roleUid: viewer, scope: "prod" };
  expect(await h.host.check(urn, {}, props(declared))).toEqual({ inputs: props(declared), failures: [] });
  const created = await h.host.create(urn, props(declared));
  expect(h.calls()).toEqual([`POST ${MAPPINGS}/${sso}`]);
  expect(created.id).toMatch(new RegExp(`^${sso}/[0-9a-f]+$`));
  expect(created.props).toEqual(props({ ...declared, uid: created.id, createTime: expect.any(String) }));
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET ${MAPPINGS}/${created.id}`]);
  expect(read.inputs).toEqual(props(declared));
  h.emu.clearRequests();
  expect(await h.host.diff(created.id, urn, read.props, props(declared))).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  const changes: Record<string, unknown> = {
    identityProviderUid: `${sso}x`,
    externalGroupId: "platform-readers",
    roleUid: editor,
    scope: "",
  };
  for (const [field, value] of Object.entries(changes))
    expect(await h.host.diff(created.id, urn, read.props, props({ ...declared, [field]: value }))).toEqual({
      changes: "some",
      replaces: [field],
      deleteBeforeReplace: false,
    });
  expect(h.calls()).toEqual([]);

  const client = fetchClient(h.emu);
  await expect(getExternalGroupRoleMapping({ uid: created.id }, withClient(client))).resolves.toMatchObject({
    externalGroupId: "platform-admins",
    identityProviderUid: sso,
  });
  expect(
    (
      await getExternalGroupRoleMappings({ identityProviderUid: sso }, withClient(client))
    ).externalGroupRoleMappings.map((m) => m.uid),
  ).toEqual([created.id]);
  // The Output forms take Inputs.
  await expect(
    resolve(getExternalGroupRoleMappingOutput({ uid: pulumi.output(created.id) }, withClient(client))),
  ).resolves.toMatchObject({ roleUid: viewer });
  const mapped = await resolve(
    getExternalGroupRoleMappingsOutput({ identityProviderUid: pulumi.output(sso) }, withClient(client)),
  );
  expect(mapped.externalGroupRoleMappings.map((m) => m.uid)).toEqual([created.id]);
  await expect(getExternalGroupRoleMappings({ identityProviderUid: "../x" }, withClient(client))).rejects.toThrow(
    /getExternalGroupRoleMappings: invalid arguments: .*identityProviderUid/,
  );
  h.emu.clearRequests();

  // Drift: deleted in the console, it leaves the state; deleting it again is success.
  await h.api("DELETE", `${MAPPINGS}/${created.id}`);
  h.emu.clearRequests();
  expect((await h.host.read(created.id, urn, read.props)).id).toBe("");
  await h.host.delete(created.id, urn, read.props);
  expect(h.calls()).toEqual([`GET ${MAPPINGS}/${created.id}`, `DELETE ${MAPPINGS}/${created.id}`]);

  // Without a scope: the service's "" is what the program means.
  const unscoped = { identityProviderUid: sso, externalGroupId: "platform-admins", roleUid: viewer };
  const again = await h.host.create(urn, props(unscoped));
  const reread = await h.host.read(again.id, urn, again.props);
  expect(reread.inputs).toEqual(props(unscoped));
  expect(await h.host.diff(again.id, urn, reread.props, props(unscoped))).toMatchObject({ changes: "none" });
  h.emu.clearRequests();
  await h.host.delete(again.id, urn, again.props);
  expect(h.calls()).toEqual([`DELETE ${MAPPINGS}/${again.id}`]);
  expect((await h.api("GET", `${MAPPINGS}/${again.id}`)).status).toBe(404);
});

test("check names the failing property and sends nothing; the service's refusal names the role", async () => {
  const failures = async (values: Record<string, unknown>) =>
    (await h.host.check(urn, {}, props({ identityProviderUid: sso, externalGroupId: "g", roleUid: viewer, ...values })))
      .failures;
  expect((await h.host.check(urn, {}, props({ identityProviderUid: sso, roleUid: viewer }))).failures).toEqual([
    { property: "externalGroupId", reason: "is required" },
  ]);
  expect(await failures({ externalGroupId: "" })).toEqual([
    { property: "externalGroupId", reason: "must not be empty" },
  ]);
  expect(await failures({ roleUid: "a/b" })).toMatchObject([{ property: "roleUid" }]);
  expect(await failures({ identityProviderUid: `${sso}/../x` })).toMatchObject([{ property: "identityProviderUid" }]);
  expect(await failures({ scope: 7 })).toEqual([{ property: "scope", reason: "must be a string" }]);
  expect(await failures({ name: "n" })).toEqual([
    {
      property: "name",
      reason:
        "unknown property; ExternalGroupRoleMapping takes identityProviderUid, externalGroupId, roleUid, scope, adopt, adoptUid",
    },
  ]);
  expect(h.calls()).toEqual([]);
  const refused = await failureOf(
    h.host.create(urn, props({ identityProviderUid: sso, externalGroupId: "g", roleUid: "nosuchrole" })),
  );
  expect(refused.message).toMatch(
    /^creating external group role mapping of external group "g" to role "nosuchrole" on identity provider ".*" failed: .*roleUid/,
  );
});

test("adoption looks before it creates (the service takes duplicates), keyed by external group, role and scope", async () => {
  const declared = { identityProviderUid: sso, externalGroupId: "auditors", roleUid: viewer };
  const existing = (await h.api("POST", `${MAPPINGS}/${sso}`, { externalGroupId: "auditors", roleUid: viewer })).body;
  h.emu.clearRequests();
  const adopted = await h.host.create(urn, props({ ...declared, adopt: true }));
  expect(adopted.id).toBe(existing.uid);
  expect(h.calls()).toEqual([`GET ${MAPPINGS}`]);
  expect(h.emu.requests()[0].query).toMatchObject({ identityProviderUid: sso });
  expect(adopted.props).toMatchObject({ ...declared, adopted: true });
  // Another role for the same external group is another mapping: created.
  h.emu.clearRequests();
  const other = await h.host.create(urn, props({ ...declared, roleUid: editor, adopt: true }));
  expect(other.id).not.toBe(existing.uid);
  expect(h.calls()).toEqual([`GET ${MAPPINGS}`, `POST ${MAPPINGS}/${sso}`]);
  // Two equal ones that no resource holds: adoption refuses to guess which (the one `adopted`
  // holds is no candidate: core/runtime/claims.ts).
  const equal: Array<{ uid: string }> = [];
  for (const _ of [1, 2])
    equal.push((await h.api("POST", `${MAPPINGS}/${sso}`, { externalGroupId: "auditors", roleUid: viewer })).body);
  const refused = await failureOf(h.host.create(urn, props({ ...declared, adopt: true })));
  expect(refused.message).toMatch(
    /adopting it found 2 externalGroupRoleMappings with the same identityProviderUid, externalGroupId, roleUid, scope that no other resource of this program holds/,
  );
  for (const mapping of equal) expect(refused.message).toContain(mapping.uid);
  expect(refused.message).not.toContain(existing.uid);
  for (const mapping of (await h.api("GET", `${MAPPINGS}?identityProviderUid=${sso}`)).body.externalGroupRoleMappings)
    await h.api("DELETE", `${MAPPINGS}/${mapping.uid}`);
});
