/**
 * AccountAssociation through the REAL dynamic-provider host against the emulator: one per
 * group, its uid (the resource's id) the group's; every field updates in place with one PATCH
 * whose mask names exactly what changed, down to a block's members (`amazon.account`); moving
 * it to another group replaces it. A state written by earlier versions is covered in
 * accountAssociationEngine.test.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { registerResource } from "../../../tests/support/registeredResource";
import { fetchClient } from "../../../tests/support/lookupClient";
import {
  getAccountAssociation,
  getAccountAssociationOutput,
  getAccountAssociations,
  getAccountAssociationsOutput,
} from "./lookups";
import { withClient } from "../../../core/program/lookup";

let h: Harness;
let provider: string;
let urn: string;
/** A group of its own for each test (a group has one association), under `parent`. */
let parent: string;
let mockAssociation: unknown;
const ASSOCIATIONS = "/iam/v2beta1/accountAssociations";

beforeAll(async () => {
  h = await startHarness();
  const registered = await registerResource(
    h,
    "mock-association",
    (platform) =>
      new platform.iam.AccountAssociation("mock-association", {
        groupUid: "acme/team",
        name: "aws",
        amazon: { account: "123456789012" },
      }),
  );
  await registerResource(h, "mock-association-get", (platform) =>
    platform.iam.AccountAssociation.get("mock-association-get", "acme/a1"),
  );
  provider = registered.provider;
  urn = registered.urn;
  mockAssociation = registered.instance;
  parent = (await h.api("POST", `/iam/v2beta1/groups/${h.emu.rootUid}`, { name: "associated" })).body.uid;
});

async function newGroup(name: string): Promise<string> {
  const { uid } = (await h.api("POST", `/iam/v2beta1/groups/${parent}`, { name })).body;
  h.emu.clearRequests();
  return uid as string;
}
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

/** An Output's value (the harness runs under setMocks, not a preview). */
const resolve = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

test("the serialized provider is a bare require of the installed package, at most 330 bytes", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/accountAssociation\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
  for (const secret of [h.emu.token, h.emu.url, h.staged.dir]) expect(provider).not.toContain(secret);
  expect(h.mocked["mock-association"].type).toBe("pulumi-nodejs:dynamic/iam:AccountAssociation");
  expect(h.mocked["mock-association-get"]).toMatchObject({ id: "acme/a1", inputs: { __provider: provider } });
  expect(h.platform.iam.AccountAssociation.isInstance(mockAssociation)).toBe(true);
  expect(h.platform.iam.AccountAssociation.isInstance(h.instances["mock-group"])).toBe(false);
});

test("lifecycle: create, no-op rerun, each update with its exact mask, replace, drift, delete twice, look-ups", async () => {
  const team = await newGroup("lifecycle");
  const declared: Record<string, unknown> = {
    groupUid: team,
    name: "clouds",
    description: "production accounts",
    amazon: { account: "123456789012" },
    google: { projectId: "acme-prod", projectNumber: "987654321" },
  };
  expect(await h.host.check(urn, {}, props(declared))).toEqual({ inputs: props(declared), failures: [] });
  expect(h.calls()).toEqual([]);
  const created = await h.host.create(urn, props(declared));
  expect(h.calls()).toEqual([`POST ${ASSOCIATIONS}/${team}`]);
  expect(created.id).toBe(team);
  expect(created.props).toMatchObject(props({ ...declared, uid: created.id }));
  expect(created.props.createTime).toEqual(expect.any(String));
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET ${ASSOCIATIONS}/${created.id}`]);
  expect(read.inputs).toEqual(props(declared));
  expect(await h.host.diff(created.id, urn, read.props, props(declared))).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(await h.host.diff(created.id, urn, read.props, props({ ...declared, groupUid: h.emu.rootUid }))).toEqual({
    changes: "some",
    replaces: ["groupUid"],
    deleteBeforeReplace: false,
  });

  // Each in-place change: one PATCH, the mask naming exactly what changed, the body every
  // declared field (the strict emulator refuses a body without the required name).
  let state = read.props;
  let current = declared;
  const update = async (changes: Record<string, unknown>, mask: string) => {
    const next = { ...current, ...changes };
    for (const [key, value] of Object.entries(changes)) if (value === undefined) delete next[key];
    const diff = await h.host.diff(created.id, urn, state, props(next));
    expect(diff).toMatchObject({ changes: "some", replaces: [] });
    h.emu.clearRequests();
    state = await h.host.update(created.id, urn, state, props(next));
    expect(h.calls()).toEqual([`PATCH ${ASSOCIATIONS}/${created.id}`]);
    expect(h.emu.requests()[0].query).toEqual({ updateMask: mask });
    current = next;
    const after = await h.host.read(created.id, urn, state);
    expect(after.inputs).toEqual(props(current));
    expect(await h.host.diff(created.id, urn, after.props, props(current))).toMatchObject({ changes: "none" });
    state = after.props;
  };
  await update({ description: "all production accounts" }, "description");
  await update({ name: "clouds-prod" }, "name");
  await update({ amazon: { account: "210987654321" } }, "amazon.account");
  await update({ google: { projectId: "acme-prod-2", projectNumber: "987654321" } }, "google.projectId");
  await update({ azure: { tenantId: "0f0e0d0c-0000-4000-8000-000000000001", clientIds: { ci: "app-1" } } }, "azure");
  await update(
    { azure: { tenantId: "0f0e0d0c-0000-4000-8000-000000000001", clientIds: { ci: "app-1", cd: "app-2" } } },
    "azure.clientIds",
  );
  await update(
    { github: { appInstallations: { acme: { installations: [{ installationId: "4242", name: "acme-app" }] } } } },
    "github",
  );
  await update(
    { github: { appInstallations: { acme: { installations: [{ installationId: "4343", name: "acme-app" }] } } } },
    "github.appInstallations",
  );
  await update({ chainguard: { serviceBindings: { INGESTER: `${team}/ingest` } } }, "chainguard");
  await update(
    { chainguard: { serviceBindings: { INGESTER: `${team}/ingest`, REGISTRY: `${team}/pull` } } },
    "chainguard.serviceBindings",
  );
  await update({ google: undefined, description: undefined }, "description,google");
  expect(state).not.toHaveProperty("google.projectId");

  // Drift: the account edited in the console shows in read's inputs, and the program puts it back.
  await h.api("PATCH", `${ASSOCIATIONS}/${created.id}?updateMask=amazon.account`, {
    name: "clouds-prod",
    amazon: { account: "111111111111" },
  });
  h.emu.clearRequests();
  const drifted = await h.host.read(created.id, urn, state);
  expect(drifted.inputs).toMatchObject({ amazon: { account: "111111111111" } });
  expect(await h.host.diff(created.id, urn, drifted.props, props(current))).toMatchObject({
    changes: "some",
    replaces: [],
  });
  await h.host.update(created.id, urn, drifted.props, props(current));
  expect(h.emu.requests().at(-1)?.query).toEqual({ updateMask: "amazon.account" });

  const client = fetchClient(h.emu);
  // The uidp filters place an association where its group is: it is among its parent's children.
  await expect(
    getAccountAssociation({ name: "clouds-prod", childrenOf: parent }, withClient(client)),
  ).resolves.toMatchObject({
    uid: created.id,
    amazon: { account: "210987654321" },
  });
  await expect(getAccountAssociation({ uid: created.id }, withClient(client))).resolves.toMatchObject({
    name: "clouds-prod",
  });
  expect(
    (await getAccountAssociations({ childrenOf: parent }, withClient(client))).accountAssociations.map((a) => a.uid),
  ).toEqual([created.id]);
  // The Output forms take Inputs.
  await expect(
    resolve(getAccountAssociationOutput({ uid: pulumi.output(created.id) }, withClient(client))),
  ).resolves.toMatchObject({ name: "clouds-prod" });
  const all = await resolve(getAccountAssociationsOutput({ descendantsOf: pulumi.output(parent) }, withClient(client)));
  expect(all.accountAssociations.map((a) => a.uid)).toEqual([created.id]);
  h.emu.clearRequests();

  await h.host.delete(created.id, urn, drifted.props);
  expect(h.calls()).toEqual([`DELETE ${ASSOCIATIONS}/${created.id}`]);
  h.emu.clearRequests();
  expect((await h.host.read(created.id, urn, drifted.props)).id).toBe("");
  await h.host.delete(created.id, urn, drifted.props);
  expect(h.calls()).toEqual([`GET ${ASSOCIATIONS}/${created.id}`, `DELETE ${ASSOCIATIONS}/${created.id}`]);
});

test("a second association for a group is ALREADY_EXISTS, with a message that says a group has one and how to proceed", async () => {
  const team = await newGroup("second");
  const first = await h.host.create(urn, props({ groupUid: team, name: "first", amazon: { account: "123456789012" } }));
  expect(first.id).toBe(team);
  h.emu.clearRequests();
  await expect(h.host.create(urn, props({ groupUid: team, name: "second" }))).rejects.toThrow(
    /creating account association "second" under ".+" failed: it already exists .*a group has one account association: .*AccountAssociation\.get\(name, groupUid\).*adopt: true/,
  );
  expect(h.calls()).toEqual([`POST ${ASSOCIATIONS}/${team}`]);
  expect((await h.api("GET", `${ASSOCIATIONS}/${team}`)).body).toMatchObject({ name: "first" });
  await h.host.delete(first.id, urn, first.props);
});

test("check names the failing property, down to a block's member, and sends nothing", async () => {
  const team = parent;
  const failures = async (values: Record<string, unknown>) =>
    (await h.host.check(urn, {}, props({ groupUid: team, name: "a", ...values }))).failures;
  expect((await h.host.check(urn, {}, props({ groupUid: team }))).failures).toEqual([
    { property: "name", reason: "is required" },
  ]);
  expect(await failures({ amazon: { account: "1234" } })).toEqual([
    { property: "amazon.account", reason: "must be a 12-digit AWS account id" },
  ]);
  expect(await failures({ amazon: "123456789012" })).toEqual([
    { property: "amazon", reason: "must be an object with account" },
  ]);
  expect(await failures({ azure: { tenantId: "t" } })).toEqual([
    { property: "azure.clientIds", reason: "is required" },
  ]);
  expect(await failures({ google: { projectId: "p", projectNumber: "12a" } })).toEqual([
    { property: "google.projectNumber", reason: "must be a Google Cloud project number: digits only, at most 20" },
  ]);
  expect(
    await failures({ github: { appInstallations: { acme: { installations: [{ installationId: 42 }] } } } }),
  ).toEqual([
    {
      property: "github.appInstallations.acme.installations[0].installationId",
      reason: "must be a GitHub App installation id (a string of digits)",
    },
  ]);
  const installations = (list: unknown) => ({ github: { appInstallations: { acme: { installations: list } } } });
  expect(await failures(installations({ installationId: "42" }))).toEqual([
    { property: "github.appInstallations.acme.installations", reason: "must be a list" },
  ]);
  expect(await failures(installations(Array.from({ length: 257 }, () => ({ installationId: "42" }))))).toEqual([
    { property: "github.appInstallations.acme.installations", reason: "must have at most 256 entries" },
  ]);
  expect(await failures({ github: { appInstallations: { ["o".repeat(5000)]: {} } } })).toEqual([
    { property: "github.appInstallations", reason: "names must be 1 to 256 characters" },
  ]);
  expect(await failures({ chainguard: { serviceBindings: { INGESTER: "" } } })).toEqual([
    { property: "chainguard.serviceBindings.INGESTER", reason: "must not be empty" },
  ]);
  expect(await failures({ aws: { account: "123456789012" } })).toEqual([
    {
      property: "aws",
      reason:
        "unknown property; AccountAssociation takes groupUid, name, description, amazon, azure, chainguard, github, google, adopt, adoptUid",
    },
  ]);
  expect(await failures({ amazon: { account: "123456789012", region: "eu-west-1" } })).toEqual([
    { property: "amazon.region", reason: "unknown property; amazon takes account" },
  ]);
  expect(await failures({ groupUid: "../x" })).toMatchObject([{ property: "groupUid" }]);
  expect(h.calls()).toEqual([]);
});

test("the group's existing association is adopted only when asked, found by the group's uid and brought to the declared values with one PATCH", async () => {
  const team = await newGroup("adopted");
  const existing = (
    await h.api("POST", `${ASSOCIATIONS}/${team}`, { name: "taken", amazon: { account: "123456789012" } })
  ).body;
  const declared = { groupUid: team, name: "taken", description: "now managed", amazon: { account: "123456789012" } };
  await expect(h.host.create(urn, props(declared))).rejects.toThrow(/already exists.*adopt/);
  h.emu.clearRequests();
  const adopted = await h.host.create(urn, props({ ...declared, adopt: true }));
  expect(h.calls()).toEqual([
    `POST ${ASSOCIATIONS}/${team}`,
    `GET ${ASSOCIATIONS}`,
    `PATCH ${ASSOCIATIONS}/${existing.uid}`,
  ]);
  expect(h.emu.requests()[1].query).toEqual({ "uidp.ids": team, page_size: "200" });
  expect(h.emu.requests()[2].query).toEqual({ updateMask: "description" });
  expect(existing.uid).toBe(team);
  expect(adopted).toMatchObject({ id: team, props: { ...declared, adopted: true } });
  await h.host.delete(adopted.id, urn, adopted.props);
});
