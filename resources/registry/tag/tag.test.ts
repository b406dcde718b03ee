/**
 * Tag through the REAL dynamic-provider host against the emulator. The API has no update for
 * tags, so every change is a replacement; a new digest under the same name deletes first.
 */
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { failureOf, registerResource } from "../../../tests/support/registeredResource";
import { fetchClient } from "../../../tests/support/lookupClient";
import { getTag } from "./lookups";
import { withClient } from "../../../core/program/lookup";

let h: Harness;
let provider: string;
let urn: string;
let repoUid: string;
const TAGS = "/registry/v2beta1/tags";
const digest = (c: string) => `sha256:${c.repeat(64)}`;

beforeAll(async () => {
  h = await startHarness();
  const tag = await registerResource(
    h,
    "mock-tag",
    (platform) => new platform.registry.Tag("mock-tag", { repoUid: "acme/r", name: "v1", digest: digest("a") }),
  );
  await registerResource(h, "mock-tag-get", (platform) => platform.registry.Tag.get("mock-tag-get", "acme/r/t1"));
  provider = tag.provider;
  urn = tag.urn;
  repoUid = (await h.api("POST", `/registry/v2beta1/repos/${h.emu.rootUid}`, { name: "tagged" })).body.uid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const props = (values: Record<string, unknown>) => ({ ...values, __provider: provider });

test("the serialized provider is a bare require of the installed package, at most 330 bytes", () => {
  expect(provider).toMatch(/require\("platform-pulumi\/dist\/resources\/registry\/tag\/provider\.js"\)/);
  expect(provider.match(/require\(/g)).toHaveLength(1);
  expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
  for (const secret of [h.emu.token, h.emu.url, h.staged.dir, "/work/"]) expect(provider).not.toContain(secret);
  expect(h.mocked["mock-tag"].type).toBe("pulumi-nodejs:dynamic/registry:Tag");
  expect(h.mocked["mock-tag-get"]).toMatchObject({ id: "acme/r/t1", inputs: { __provider: provider } });
  expect(h.platform.registry.Tag.isInstance(h.instances["mock-group"])).toBe(false);
});

test("lifecycle: create, no-op rerun, replacements (delete first under the same name), drift, delete twice", async () => {
  const declared = { repoUid, name: "v1", digest: digest("a"), bundles: ["base"] };
  const checked = await h.host.check(urn, {}, props(declared));
  expect(checked).toEqual({ inputs: props(declared), failures: [] });
  expect(h.calls()).toEqual([]);

  const created = await h.host.create(urn, checked.inputs);
  expect(h.calls()).toEqual([`POST ${TAGS}/${repoUid}`]);
  expect(created.id).toMatch(new RegExp(`^${repoUid}/[^/]+$`));
  expect(created.props).toMatchObject({ ...declared, uid: created.id, deprecated: false, __provider: provider });
  h.emu.clearRequests();

  const read = await h.host.read(created.id, urn, created.props);
  expect(h.calls()).toEqual([`GET ${TAGS}/${created.id}`]);
  expect(read.props).toEqual(created.props);
  expect(read.inputs).toEqual(props(declared));
  h.emu.clearRequests();
  expect(await h.host.diff(created.id, urn, read.props, props(declared))).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  // Every input replaces; only a change that keeps the name deletes the old tag first.
  for (const [change, deleteFirst] of [
    [{ digest: digest("b") }, true],
    [{ deprecated: true }, true],
    [{ bundles: [] }, true],
    [{ name: "v2" }, false],
    [{ repoUid: `${repoUid}-other` }, false],
  ] as const) {
    const field = Object.keys(change)[0];
    expect([field, await h.host.diff(created.id, urn, read.props, props({ ...declared, ...change }))]).toEqual([
      field,
      { changes: "some", replaces: [field], deleteBeforeReplace: deleteFirst },
    ]);
  }
  expect(h.calls()).toEqual([]);

  // What the engine does for a new digest: delete the old tag, then create the new one.
  await h.host.delete(created.id, urn, read.props);
  const replaced = await h.host.create(urn, props({ ...declared, digest: digest("b") }));
  expect(h.calls()).toEqual([`DELETE ${TAGS}/${created.id}`, `POST ${TAGS}/${repoUid}`]);
  expect(replaced.props).toMatchObject({ name: "v1", digest: digest("b") });
  h.emu.clearRequests();

  // Drift: the tag deleted by hand leaves the state at the next refresh; deleting it again is success.
  await h.api("DELETE", `${TAGS}/${replaced.id}`);
  h.emu.clearRequests();
  expect((await h.host.read(replaced.id, urn, replaced.props)).id).toBe("");
  await h.host.delete(replaced.id, urn, replaced.props);
  expect(h.calls()).toEqual([`GET ${TAGS}/${replaced.id}`, `DELETE ${TAGS}/${replaced.id}`]);
});

test("the read behind Tag.get needs only the uid; getTag finds it by uid and by name in its repo", async () => {
  const made = await h.api("POST", `${TAGS}/${repoUid}`, { name: "existing", digest: digest("c") });
  h.emu.clearRequests();
  const read = await h.host.read(made.body.uid, urn, {}, { __provider: provider });
  expect(h.calls()).toEqual([`GET ${TAGS}/${made.body.uid}`]);
  expect(read.inputs).toEqual(props({ repoUid, name: "existing", digest: digest("c") }));
  const client = fetchClient(h.emu);
  await expect(getTag({ uid: made.body.uid }, withClient(client))).resolves.toMatchObject({ name: "existing" });
  await expect(getTag({ name: "existing", childrenOf: repoUid }, withClient(client))).resolves.toMatchObject({
    uid: made.body.uid,
  });
});

test("a tag name the repo already has is refused, naming Tag.get", async () => {
  await h.api("POST", `${TAGS}/${repoUid}`, { name: "taken", digest: digest("d") });
  h.emu.clearRequests();
  const error = await failureOf(h.host.create(urn, props({ repoUid, name: "taken", digest: digest("e") })));
  expect(error.message).toMatch(/^creating tag "taken" under "[^"]+" failed: it already exists/);
  expect(error.message).toContain("Tag.get");
  expect(h.calls()).toEqual([`POST ${TAGS}/${repoUid}`]);
});

test("check names the failing property and sends nothing", async () => {
  const failures = async (values: Record<string, unknown>) =>
    (await h.host.check(urn, {}, props({ repoUid, name: "v1", digest: digest("a"), ...values }))).failures;
  expect(await failures({ digest: "sha256:ABC" })).toEqual([
    { property: "digest", reason: "must be sha256: followed by 64 lowercase hex characters" },
  ]);
  expect(await failures({ deprecated: "no" })).toEqual([{ property: "deprecated", reason: "must be true or false" }]);
  expect(await failures({ bundles: [7] })).toEqual([{ property: "bundles[0]", reason: "must be a string" }]);
  expect(await failures({ repoUid: "a/./b" })).toEqual([
    { property: "repoUid", reason: expect.stringMatching(/^must be a repo's uid: /) },
  ]);
  expect((await h.host.check(urn, {}, props({ repoUid, name: "v1" }))).failures).toEqual([
    { property: "digest", reason: "is required" },
  ]);
  expect(h.calls()).toEqual([]);
});
