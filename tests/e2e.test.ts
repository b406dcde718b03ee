/**
 * The example organization's user stories (tests/support/orgStories.ts) with the program compiled
 * as CommonJS, run through the root Pulumi.yaml (`main: examples/org-hierarchy/`), as `pulumi up`
 * at the repository root runs it: create the hierarchy; re-run unchanged; rename a group (one
 * PATCH); move a group (a replacement); drift made in the console is detected and repaired;
 * destroy leaves the organization as it was. The same stories as an ES module: tests/e2e-esm.test.ts.
 * And the engine killed (SIGKILL) between a create reaching the emulator and the state save.
 */
import { startProviderEmulator } from "./support/providerEmulator";
import type { RunningEmulator } from "../emulator";
import { snapshot } from "../tools/orgApi";
import { orgStack, OrgStack } from "../tools/orgProject";
import { describeOrgStories } from "./support/orgStories";
import { repoRoot } from "../tools/host/stage";

const GROUP = "pulumi-nodejs:dynamic/iam:Group";

jest.setTimeout(180_000);

describeOrgStories({
  title: "the example organization, CommonJS, through the root Pulumi.yaml",
  cwd: repoRoot,
  esm: false,
  label: "cjs",
});

describe("the example organization, the engine killed between a create and its state save", () => {
  let emu: RunningEmulator;
  let stack: OrgStack;
  beforeAll(async () => {
    emu = await startProviderEmulator();
    stack = orgStack({ url: emu.url, token: emu.token, rootUid: emu.rootUid, cwd: repoRoot, label: "kill" });
  });
  afterAll(async () => {
    await emu?.close();
    stack?.remove();
  });

  test("the next up adopts the group the killed create made: no 'already exists', no duplicate, state complete", async () => {
    const api = { url: emu.url, token: emu.token };
    const before = await snapshot(api, emu.rootUid);
    const killed = await stack.run(["up"], {}, { killAfter: "creating:platform" });
    expect(killed.killed).toBe(true);
    // The service made the group; the state does not have it, but names the create under way.
    const platforms = async () => (await snapshot(api, emu.rootUid)).groups.filter((g) => g.name === "platform");
    expect(await platforms()).toHaveLength(1);
    expect(killed.state!.resources.some((r) => r.urn.endsWith("::platform"))).toBe(false);
    // Its sibling teams were being created at the same time: their creates are pending too.
    expect(killed.state!.pendingOperations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operation: "creating",
          resource: expect.objectContaining({ urn: expect.stringMatching(/::platform$/), type: GROUP }),
        }),
      ]),
    );

    const again = await stack.run(["up"]);
    expect(again.stdout).not.toContain("already exists");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${GROUP} "platform" was interrupted while creating`);
    expect(again.stdout).toContain("was found and adopted into the state");
    const [platform] = await platforms();
    expect(await platforms()).toHaveLength(1);
    const groups = (await snapshot(api, emu.rootUid)).groups.filter((g) => !before.groups.some((b) => b.uid === g.uid));
    expect(groups.map((g) => g.name).sort()).toEqual([
      "analytics",
      "data",
      "engineering",
      "ledger",
      "oncall",
      "payments",
      "platform",
    ]);
    const entry = again.state!.resources.find((r) => r.urn.endsWith("::platform"))!;
    expect(entry.id).toBe(platform.uid);
    expect(again.state!.pendingOperations).toBeUndefined();
    // Complete, as an uninterrupted up leaves it: 7 groups, 2 identities, a custom role, 4 bindings,
    // a repo, a subscription and an identity provider.
    expect(again.state!.resources.filter((r) => r.custom && !r.external)).toHaveLength(7 + 2 + 1 + 4 + 1 + 1 + 1);
    expect((await stack.run(["preview", "--expect-no-changes"])).code).toBe(0);
    expect((await stack.run(["destroy"])).code).toBe(0);
    expect(await snapshot(api, emu.rootUid)).toEqual(before);
  });
});
