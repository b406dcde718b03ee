/**
 * Hostile uids in resource inputs and ids, through the REAL dynamic-provider host against the
 * emulator: whatever check makes of them, no request built from one ever leaves the provider
 * (the client's path building refuses it), so nothing outside the declared collection is
 * touched, and the message names the uid.
 */
import { Harness, startHarness } from "../../tools/host/resourceHarness";

jest.setTimeout(120_000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());
beforeEach(() => h.emu.clearRequests());

/** Each built from the emulator's real root, so a resolver that removed the dots would reach a real path. */
const hostileUids = (root: string) => [
  `${root}/..`,
  `${root}/../..`,
  `${root}/./x`,
  `${root}//x`,
  `../roles/${root}`,
  `${root}/../../sts/exchange`,
  `${root}/%2e%2e`,
  `${root}?uidp.children_of=x`,
  `${root}#frag`,
  `${root}\\..`,
  ` ${root}`,
  `${root}/\u2024\u2024`,
  `${root}/\uff0e\uff0e`,
  `${root}/x\u0000y`,
  `${root}/${"a".repeat(10_000)}`,
];

/**
 * The message for a uid refused before any request. A 10,000-character uid is quoted whole in
 * the lifecycle's own label first, so the message is cut before our words: the cut is marked.
 */
const refused = (uid: string) =>
  uid.length > 1000 ? /more characters cut\]$/ : /is not a well-formed uid: it .*; no request was sent/;

/** What the host answers: the create's result, or the error's message. */
async function outcome(fn: () => Promise<unknown>): Promise<string> {
  return fn().then(
    (value) => `ok ${JSON.stringify(value).slice(0, 200)}`,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
}

test.each(["parentUid"])("Group: a hostile %s is refused (by check or before any request)", async (field) => {
  const urn = h.urn("Group", "hostile");
  for (const uid of hostileUids(h.emu.rootUid)) {
    const news = { [field]: uid, name: "hostile", __provider: h.providers.Group };
    const checked = await h.host.check(urn, {}, news);
    if (checked.failures.length) {
      expect(checked.failures.map((f) => f.property)).toContain(field);
      continue;
    }
    const said = await outcome(() => h.host.create(urn, checked.inputs));
    expect(said).toMatch(refused(uid));
  }
  expect(h.calls()).toEqual([]);
});

test("RoleBinding: hostile groupUid, identityUid or roleUid never reach the API", async () => {
  const urn = h.urn("RoleBinding", "hostile");
  for (const uid of hostileUids(h.emu.rootUid)) {
    for (const field of ["groupUid", "identityUid", "roleUid"]) {
      const news = {
        groupUid: h.emu.rootUid,
        identityUid: `${h.emu.rootUid}/ci`,
        roleUid: "viewer",
        [field]: uid,
        __provider: h.providers.RoleBinding,
      };
      const checked = await h.host.check(urn, {}, news);
      if (checked.failures.length) continue;
      // A binding's groupUid is its path; the other two travel in the body, where they cannot change the path.
      const said = await outcome(() => h.host.create(urn, checked.inputs));
      if (field === "groupUid") expect(said).toMatch(refused(uid));
    }
  }
  const paths = h.calls().map((call) => call.split(" ")[1]);
  expect(paths.every((p) => p === `/iam/v2beta1/roleBindings/${h.emu.rootUid}`)).toBe(true);
});

test("read, update and delete of a hostile id (a state file edited by hand) send nothing", async () => {
  const urn = h.urn("Group", "hostile-id");
  for (const id of hostileUids(h.emu.rootUid)) {
    const props = { parentUid: h.emu.rootUid, name: "x", __provider: h.providers.Group };
    for (const said of [
      await outcome(() => h.host.read(id, urn, props)),
      await outcome(() => h.host.update(id, urn, props, { ...props, name: "y" })),
      await outcome(() => h.host.delete(id, urn, props)),
    ])
      expect(said).toMatch(refused(id));
  }
  expect(h.calls()).toEqual([]);
});
