/**
 * The custom Role through the REAL dynamic-provider host, with the `__provider` text the SDK
 * writes when a program constructs the resource from the installed package, against the emulator.
 */
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { getRole } from "./lookups";
import { fetchClient } from "../../../tests/support/lookupClient";
import { withClient } from "../../../core/program/lookup";

let h: Harness;
let provider: string;
let urn: string;
let root: string;

beforeAll(async () => {
  h = await startHarness();
  provider = h.providers.Role;
  urn = h.urn("Role", "auditor");
  root = h.emu.rootUid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

test("the serialized provider is a bare require of the installed package, at most 330 bytes", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/iam\/role\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
  for (const secret of [h.emu.token, h.emu.url, h.staged.dir]) expect(provider).not.toContain(secret);
  expect(h.mocked["mock-role"].type).toBe("pulumi-nodejs:dynamic/iam:Role");
});

test("lifecycle: one request per create/read/update/delete, none for check and diff; capabilities are a set", async () => {
  const capabilities = ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"];
  const news = props({ parentUid: root, name: "auditor", description: "reads", capabilities });
  const checked = await h.host.check(urn, {}, news);
  expect(checked).toEqual({ inputs: news, failures: [] });
  expect(h.calls()).toEqual([]);

  const created = await h.host.create(urn, checked.inputs);
  expect(h.calls()).toEqual([`POST /iam/v2beta1/roles/${root}`]);
  expect(created.id).toMatch(/^[0-9a-f]{40}$/);
  expect(created.props).toMatchObject({ uid: created.id, parentUid: root, name: "auditor", capabilities });
  h.emu.clearRequests();

  // The uid does not tell where the role lives: read keeps the parent from the state.
  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET /iam/v2beta1/roles/${created.id}`]);
  expect(read.props).toEqual(created.props);
  expect(read.inputs).toEqual(news);
  h.emu.clearRequests();

  const reordered = props({
    parentUid: root,
    name: "auditor",
    description: "reads",
    capabilities: [...capabilities].reverse(),
  });
  expect(await h.host.diff(created.id, urn, created.props, reordered)).toMatchObject({ changes: "none" });
  const moved = props({ parentUid: `${root}/elsewhere`, name: "auditor", description: "reads", capabilities });
  expect(await h.host.diff(created.id, urn, created.props, moved)).toMatchObject({
    changes: "some",
    replaces: ["parentUid"],
  });
  expect(h.calls()).toEqual([]);

  const widened = [...capabilities, "CAP_IAM_ROLES_LIST"];
  const updated = await h.host.update(
    created.id,
    urn,
    created.props,
    props({ parentUid: root, name: "auditor", description: "reads", capabilities: widened }),
  );
  expect(h.calls()).toEqual([`PATCH /iam/v2beta1/roles/${created.id}`]);
  expect(h.emu.requests()[0].query).toEqual({ updateMask: "capabilities" });
  expect(updated).toMatchObject({ parentUid: root, name: "auditor", description: "reads", capabilities: widened });

  // Drift: a description edited in the console shows in read's inputs.
  await h.api("PATCH", `/iam/v2beta1/roles/${created.id}?updateMask=description`, {
    name: "auditor",
    description: "edited",
  });
  h.emu.clearRequests();
  const drifted = await h.host.read(created.id, urn, updated);
  expect(drifted.inputs).toMatchObject({ parentUid: root, description: "edited" });
  expect(
    await h.host.diff(
      created.id,
      urn,
      drifted.props,
      props({ parentUid: root, name: "auditor", description: "reads", capabilities: widened }),
    ),
  ).toMatchObject({ changes: "some", replaces: [] });

  // Visible to look-ups by name on its group.
  const found = await getRole({ name: "auditor", childrenOf: root }, withClient(fetchClient(h.emu)));
  expect(found.uid).toBe(created.id);
  h.emu.clearRequests();

  await h.host.delete(created.id, urn, drifted.props);
  expect(h.calls()).toEqual([`DELETE /iam/v2beta1/roles/${created.id}`]);
  h.emu.clearRequests();
  expect((await h.host.read(created.id, urn, drifted.props)).id).toBe("");
  await h.host.delete(created.id, urn, drifted.props);
  expect(h.calls()).toEqual([`GET /iam/v2beta1/roles/${created.id}`, `DELETE /iam/v2beta1/roles/${created.id}`]);
});

test("renaming is one PATCH of the name; a role of the same name is adopted only when asked, and only if no resource holds it", async () => {
  const created = await h.host.create(urn, props({ parentUid: root, name: "deployer", capabilities: [] }));
  h.emu.clearRequests();
  const renamed = await h.host.update(created.id, urn, created.props, props({ parentUid: root, name: "deployer2" }));
  expect(h.emu.requests().map((r) => r.query)).toEqual([{ updateMask: "name" }]);
  expect(renamed).toMatchObject({ name: "deployer2", parentUid: root });

  // Someone else's role of a name: refused, and taken over only when asked.
  const theirs = (await h.api("POST", `/iam/v2beta1/roles/${root}`, { name: "deployer3", capabilities: [] })).body;
  await expect(h.host.create(urn, props({ parentUid: root, name: "deployer3" }))).rejects.toThrow(
    /already exists.*adopt/,
  );
  h.emu.clearRequests();
  const adopted = await h.host.create(
    urn,
    props({ parentUid: root, name: "deployer3", capabilities: ["CAP_REPO_LIST"], adopt: true }),
  );
  expect(h.calls()).toEqual([
    `POST /iam/v2beta1/roles/${root}`,
    "GET /iam/v2beta1/roles",
    `PATCH /iam/v2beta1/roles/${theirs.uid}`,
  ]);
  expect(adopted).toMatchObject({
    id: theirs.uid,
    props: { parentUid: root, capabilities: ["CAP_REPO_LIST"], adopted: true },
  });
  // The record a resource of this program holds is never another's, adoption or not (core/runtime/claims.ts).
  await expect(h.host.create(urn, props({ parentUid: root, name: "deployer2", adopt: true }))).rejects.toThrow(
    `role ${created.id} is already held by another resource of this program`,
  );
  await h.host.delete(created.id, urn, renamed);
  await h.host.delete(theirs.uid, urn, adopted.props);
});

test("check names the failing property and sends nothing", async () => {
  const failures = async (values: Record<string, unknown>) => (await h.host.check(urn, {}, props(values))).failures;
  expect(await failures({ parentUid: root, name: "r", capabilities: ["CAP_REPO_LIST", "CAP_MAKE_COFFEE"] })).toEqual([
    {
      property: "capabilities[1]",
      reason: 'must be a documented capability (e.g. CAP_IAM_GROUPS_LIST, CAP_REPO_LIST); "CAP_MAKE_COFFEE" is not one',
    },
  ]);
  expect(await failures({ parentUid: root, name: "r", capabilities: "CAP_REPO_LIST" })).toEqual([
    { property: "capabilities", reason: "must be a list" },
  ]);
  // Every kind's list limit (the toolkit's f.list), not the number of documented capabilities.
  expect(
    await failures({ parentUid: root, name: "r", capabilities: Array.from({ length: 257 }, () => "CAP_REPO_LIST") }),
  ).toEqual([{ property: "capabilities", reason: "must have at most 256 entries" }]);
  expect(await failures({ parentUid: root, name: "", capabilities: [] })).toEqual([
    { property: "name", reason: "must not be empty" },
  ]);
  expect(await failures({ parentUid: `${root}/..`, name: "r" })).toEqual([
    { property: "parentUid", reason: 'must be a group\'s uid: it has a ".." segment' },
  ]);
  expect(await failures({ parentUid: root, name: "r", capabilities: ["UNKNOWN"] })).toHaveLength(1);
  expect(await failures({ parentUid: root, name: "r", permissions: [] })).toEqual([
    {
      property: "permissions",
      reason: "unknown property; Role takes parentUid, name, description, capabilities, adopt, adoptUid",
    },
  ]);
  expect(h.calls()).toEqual([]);
});
