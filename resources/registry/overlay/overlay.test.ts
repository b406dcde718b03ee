/**
 * Overlay and OverlayBinding (v2beta1 only) through the REAL dynamic-provider host against the
 * emulator; under platform:apiVersion = v2 both are refused before any request.
 */
import { Harness, startHarness } from "../../../tools/host/resourceHarness";
import { failureOf, registerResource } from "../../../tests/support/registeredResource";
import { fetchClient } from "../../../tests/support/lookupClient";
import { startHost } from "../../../tools/host/host";
import { getOverlay, getOverlays } from "./lookups";
import { getOverlayBinding, getOverlayBindings } from "../overlayBinding/lookups";
import { withClient } from "../../../core/program/lookup";

let h: Harness;
const overlayKind = { provider: "", urn: "" };
const bindingKind = { provider: "", urn: "" };
let repoUid: string;
const OVERLAYS = "/registry/v2beta1/overlays";
const BINDINGS = "/registry/v2beta1/overlayBindings";

beforeAll(async () => {
  h = await startHarness();
  Object.assign(
    overlayKind,
    await registerResource(
      h,
      "mock-overlay",
      (platform) => new platform.registry.Overlay("mock-overlay", { parentUid: "acme", name: "tz", config: {} }),
    ),
  );
  Object.assign(
    bindingKind,
    await registerResource(
      h,
      "mock-overlay-binding",
      (platform) =>
        new platform.registry.OverlayBinding("mock-overlay-binding", {
          repoUid: "acme/r",
          overlayUid: "acme/o",
          tags: ["latest"],
        }),
    ),
  );
  await registerResource(h, "mock-overlay-get", (platform) => platform.registry.Overlay.get("mock-overlay-get", "a/o"));
  repoUid = (await h.api("POST", `/registry/v2beta1/repos/${h.emu.rootUid}`, { name: "overlaid" })).body.uid;
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

const overlayProps = (values: Record<string, unknown>) => ({ ...values, __provider: overlayKind.provider });
const bindingProps = (values: Record<string, unknown>) => ({ ...values, __provider: bindingKind.provider });

test("both providers are bare requires of the installed package, at most 330 bytes", () => {
  for (const [{ provider }, file] of [
    [overlayKind, "overlay/provider"],
    [bindingKind, "overlayBinding/provider"],
  ] as const) {
    expect(provider).toMatch(new RegExp(`require\\("platform-pulumi/dist/resources/registry/${file}\\.js"\\)`));
    expect(provider.match(/require\(/g)).toHaveLength(1);
    expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(330);
    for (const secret of [h.emu.token, h.emu.url, h.staged.dir]) expect(provider).not.toContain(secret);
  }
  expect(h.mocked["mock-overlay-binding"].type).toBe("pulumi-nodejs:dynamic/registry:OverlayBinding");
  expect(h.mocked["mock-overlay-get"]).toMatchObject({
    type: "pulumi-nodejs:dynamic/registry:Overlay",
    id: "a/o",
    inputs: { __provider: overlayKind.provider },
  });
});

test("overlay and binding: create, no-op rerun, replacements, drift, delete twice", async () => {
  const { urn } = overlayKind;
  const root = h.emu.rootUid;
  const declared = { parentUid: root, name: "tz", config: { environment: { TZ: "UTC" } } };
  expect(await h.host.check(urn, {}, overlayProps(declared))).toEqual({ inputs: overlayProps(declared), failures: [] });
  const overlay = await h.host.create(urn, overlayProps(declared));
  // Overlays and bindings tell no time: their creates list first, so a lost answer can be settled.
  expect(h.calls()).toEqual([`GET ${OVERLAYS}`, `POST ${OVERLAYS}/${root}`]);
  expect(overlay.props).toMatchObject({ ...declared, uid: overlay.id });
  h.emu.clearRequests();
  const read = await h.host.read(overlay.id, urn, overlay.props);
  expect(read.inputs).toEqual(overlayProps(declared));
  expect(await h.host.diff(overlay.id, urn, read.props, overlayProps(declared))).toMatchObject({ changes: "none" });
  expect(
    await h.host.diff(
      overlay.id,
      urn,
      read.props,
      overlayProps({ ...declared, config: { environment: { TZ: "CET" } } }),
    ),
  ).toEqual({ changes: "some", replaces: ["config"], deleteBeforeReplace: true });
  expect(await h.host.diff(overlay.id, urn, read.props, overlayProps({ ...declared, name: "tz2" }))).toEqual({
    changes: "some",
    replaces: ["name"],
    deleteBeforeReplace: false,
  });
  expect(h.calls()).toEqual([`GET ${OVERLAYS}/${overlay.id}`]);
  h.emu.clearRequests();

  const b = bindingKind.urn;
  const bound = { repoUid, overlayUid: overlay.id, tags: ["latest"] };
  const binding = await h.host.create(b, bindingProps(bound));
  expect(h.calls()).toEqual([`GET ${BINDINGS}`, `POST ${BINDINGS}/${repoUid}`]);
  expect(binding.props).toMatchObject({
    ...bound,
    uid: binding.id,
    repo: repoUid,
    overlay: { uid: overlay.id, name: "tz" },
  });
  h.emu.clearRequests();
  const boundRead = await h.host.read(binding.id, b, binding.props);
  expect(boundRead.inputs).toEqual(bindingProps(bound));
  expect(await h.host.diff(binding.id, b, boundRead.props, bindingProps(bound))).toMatchObject({ changes: "none" });
  expect(await h.host.diff(binding.id, b, boundRead.props, bindingProps({ ...bound, tags: ["latest", "v1"] }))).toEqual(
    { changes: "some", replaces: ["tags"], deleteBeforeReplace: true },
  );
  expect(
    await h.host.diff(binding.id, b, boundRead.props, bindingProps({ ...bound, overlayUid: `${root}/other` })),
  ).toEqual({
    changes: "some",
    replaces: ["overlayUid"],
    deleteBeforeReplace: false,
  });
  expect(h.calls()).toEqual([`GET ${BINDINGS}/${binding.id}`]);

  const client = fetchClient(h.emu);
  await expect(getOverlay({ name: "tz", childrenOf: root }, withClient(client))).resolves.toMatchObject({
    uid: overlay.id,
  });
  expect((await getOverlays({ childrenOf: root }, withClient(client))).overlays.map((o) => o.uid)).toContain(
    overlay.id,
  );
  await expect(getOverlayBinding({ uid: binding.id }, withClient(client))).resolves.toMatchObject({ tags: ["latest"] });
  const { overlayBindings } = await getOverlayBindings({ repoUid, overlayUid: overlay.id }, withClient(client));
  expect(overlayBindings.map((x) => x.uid)).toEqual([binding.id]);
  h.emu.clearRequests();

  // Drift: the binding deleted by hand leaves the state; deleting it again is success.
  await h.api("DELETE", `${BINDINGS}/${binding.id}`);
  h.emu.clearRequests();
  expect((await h.host.read(binding.id, b, boundRead.props)).id).toBe("");
  await h.host.delete(binding.id, b, boundRead.props);
  await h.host.delete(overlay.id, urn, read.props);
  await h.host.delete(overlay.id, urn, read.props);
  expect(h.calls()).toEqual([
    `GET ${BINDINGS}/${binding.id}`,
    `DELETE ${BINDINGS}/${binding.id}`,
    `DELETE ${OVERLAYS}/${overlay.id}`,
    `DELETE ${OVERLAYS}/${overlay.id}`,
  ]);
  expect((await h.api("GET", `${OVERLAYS}/${overlay.id}`)).status).toBe(404);
});

test("check names the failing property and sends nothing", async () => {
  const overlayFailures = async (values: Record<string, unknown>) =>
    (await h.host.check(overlayKind.urn, {}, overlayProps({ parentUid: h.emu.rootUid, name: "o", ...values })))
      .failures;
  expect(await overlayFailures({})).toEqual([{ property: "config", reason: "is required" }]);
  expect(await overlayFailures({ config: { environment: { TZ: 1 } } })).toEqual([
    { property: "config.environment.TZ", reason: "must be a string" },
  ]);
  expect(await overlayFailures({ config: { env: {} } })).toEqual([
    { property: "config.env", reason: expect.stringMatching(/^unknown property; config takes accounts, /) },
  ]);
  const bindingFailures = async (values: Record<string, unknown>) =>
    (await h.host.check(bindingKind.urn, {}, bindingProps({ repoUid, overlayUid: "a/o", tags: ["t"], ...values })))
      .failures;
  expect(await bindingFailures({ tags: [] })).toEqual([{ property: "tags", reason: "must name at least one tag" }]);
  expect(await bindingFailures({ overlayUid: "a/../o" })).toEqual([
    { property: "overlayUid", reason: expect.stringMatching(/^must be an overlay's uid: /) },
  ]);
  expect(await bindingFailures({ overlay: "a/o" })).toEqual([
    {
      property: "overlay",
      reason: expect.stringMatching(/^unknown property; OverlayBinding takes repoUid, overlayUid, tags/),
    },
  ]);
  expect(h.calls()).toEqual([]);
});

test("under platform:apiVersion = v2 both kinds fail before any request, naming the setting", async () => {
  // The host configures each provider once per process: a host of its own for this stack's settings.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
  const host = await startHost({ cwd: h.staged.dir, env });
  try {
    await host.configure({ "platform:apiUrl": h.emu.url, "platform:token": h.emu.token, "platform:apiVersion": "v2" });
    const named = /exist only in the v2beta1 API, but platform:apiVersion \(PLATFORM_API_VERSION\) is "v2"/;
    const overlay = overlayProps({ parentUid: h.emu.rootUid, name: "o", config: {} });
    expect((await failureOf(host.check(overlayKind.urn, {}, overlay))).message).toMatch(named);
    expect((await failureOf(host.create(overlayKind.urn, overlay))).message).toMatch(
      /^registry\.Overlay resources exist only in the v2beta1 API/,
    );
    const binding = bindingProps({ repoUid, overlayUid: "a/o", tags: ["t"] });
    expect((await failureOf(host.create(bindingKind.urn, binding))).message).toMatch(named);
    expect((await failureOf(host.read("a/b", bindingKind.urn, binding))).message).toMatch(named);
    expect((await failureOf(host.delete("a/b", bindingKind.urn, binding))).message).toMatch(named);
    expect(h.calls()).toEqual([]);
  } finally {
    await host.close();
  }
});
