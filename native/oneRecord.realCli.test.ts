/**
 * No two resources share a record, under the REAL Pulumi CLI: YAML programs on the native provider
 * `platform`, run with plain `pulumi` commands, on the emulator (issue 28, cases 1 and 2).
 *
 * Twins are two resources declaring the same record: two invites to one group with the same role
 * and ttl, two subscriptions of one group to the same sink (the service takes both twice).
 *
 * - Lost answers beside a twin: `pulumi up --parallel 8` with a proxy losing one POST of each
 *   collection, the first or the second, before the service applies it or after (the answer cut):
 *   every case ends with two records of each, each resource on its own, the drift check clean. The
 *   proxy picks the POST by its rank, so each case is the same on every run; twins' creates go one
 *   at a time, so the rank says whose answer is lost: the first twin's, or the second's after the
 *   first's arrived. The four cases share one stack, a group each.
 * - Adoption (`PLATFORM_ADOPT=true`) with one matching record of each already there: one twin
 *   takes it, the other makes its own, in each of two groups.
 * - The way back (docs/guides/interrupted-up.md) from an interrupted `up` (cancel, `refresh --clear-pending-creates`,
 *   `up --refresh` with adoption), four identical subscriptions: the killed run made one whole
 *   (in the state) and one whose answer never came (an orphan); the way back takes the orphan for
 *   one resource and makes the other two, four records for four resources.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { builtinRole } from "../emulator/capabilities";
import { call, createdRecord } from "../tests/support/emulatorClient";
import { FaultProxy, faultProxy, ProxyAction } from "../tests/support/faultProxy";
import { holdingProxy, ProxiedWrite } from "../tests/support/holdingProxy";
import { StateResource, yamlStack, YamlStack } from "../tests/support/nativeYamlStack";
import { stateFile } from "../tools/pulumi-cli/cliEnvironment";
import type { ProcessResult } from "../tools/runProcess";

jest.setTimeout(900_000);

const INVITE = "platform:iam:GroupInvite";
const SUBSCRIPTION = "platform:events:Subscription";
const SINK = "https://hooks.example.com/twins";
const VIEWER = builtinRole("viewer").uid;

describe("no two resources share a record (native provider, YAML, real CLI)", () => {
  let emu: RunningEmulator;
  let stack: YamlStack | undefined;

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
  });
  afterEach(() => {
    stack?.remove();
    stack = undefined;
  });
  afterAll(async () => {
    await emu?.close();
  });

  const team = async (name: string) => (await createdRecord(emu, `/iam/v2beta1/groups/${emu.rootUid}`, { name })).uid;
  const invite = (groupUid: string) => ({ groupUid, roleUid: VIEWER, ttl: "3600s" });
  const subscription = (parentUid: string) => ({ parentUid, sink: SINK });
  /** The uids of a collection's records below the group, as the service holds them. */
  const uidsUnder = async (path: string, envelope: string, groupUid: string) =>
    (
      (await call(emu, "GET", path, { query: { "uidp.children_of": groupUid } })).body[envelope] as Array<{
        uid: string;
      }>
    )
      .map((r) => r.uid)
      .sort();
  /** The uids of the group's invites and subscriptions. */
  const held = async (groupUid: string) => ({
    invites: await uidsUnder("/iam/v2beta1/groupInvites", "groupInvites", groupUid),
    subscriptions: await uidsUnder("/events/v2beta1/subscriptions", "subscriptions", groupUid),
  });
  /** A stack on `apiUrl` declaring, in each group, two twin invites and two twin subscriptions (`g<i>inviteA`...). */
  async function twinsStack(name: string, apiUrl: string, groups: string[]): Promise<YamlStack> {
    const made = await yamlStack({
      name,
      config: { "platform:apiUrl": apiUrl },
      secretConfig: { "platform:token": emu.token },
    });
    made.declare({
      resources: Object.fromEntries(
        groups.flatMap((group, i) => [
          [`g${i}inviteA`, { type: INVITE, properties: invite(group) }],
          [`g${i}inviteB`, { type: INVITE, properties: invite(group) }],
          [`g${i}hookA`, { type: SUBSCRIPTION, properties: subscription(group) }],
          [`g${i}hookB`, { type: SUBSCRIPTION, properties: subscription(group) }],
        ]),
      ),
    });
    return made;
  }
  /** The resources of group `i` of a twins stack. */
  const ofGroup = (resources: StateResource[], i: number) => resources.filter((r) => r.urn.includes(`::g${i}`));
  const ids = (resources: StateResource[], type: string) =>
    resources
      .filter((r) => r.type === type)
      .map((r) => String(r.id))
      .sort();

  /** Every resource on a record of its own, and every record of the group held by one resource. */
  async function expectOneRecordEach(
    groupUid: string,
    each: { invites: number; subscriptions: number },
    resources: StateResource[],
    records?: { invites: string[]; subscriptions: string[] },
  ) {
    const state = { invites: ids(resources, INVITE), subscriptions: ids(resources, SUBSCRIPTION) };
    expect(state.invites).toHaveLength(each.invites);
    expect(state.subscriptions).toHaveLength(each.subscriptions);
    expect(new Set(state.invites).size).toBe(each.invites);
    expect(new Set(state.subscriptions).size).toBe(each.subscriptions);
    expect(records ?? (await held(groupUid))).toEqual(state);
    return resources;
  }

  // The four cases share one stack, a group each: the proxy counts each group's POSTs apart, and
  // twins of different groups are different records, so each group's faults stay its own.
  describe("lost answers beside twins (one stack, a group per case)", () => {
    const cases: Array<[number, ProxyAction]> = [
      [1, "drop"],
      [1, "dropAfter"],
      [2, "drop"],
      [2, "dropAfter"],
    ];
    const groups: string[] = [];
    const posts = new Map<string, number>();
    let proxy: FaultProxy | undefined;
    let shared: YamlStack | undefined;
    let up: ProcessResult;
    let resources: StateResource[];
    let recordsAfterUp: Array<{ invites: string[]; subscriptions: string[] }>;
    let check: ProcessResult;
    let destroy: ProcessResult;
    let recordsAfterDestroy: Array<{ invites: string[]; subscriptions: string[] }>;

    beforeAll(async () => {
      for (const [rank, action] of cases) groups.push(await team(`twins ${rank} ${action.toLowerCase()}`));
      proxy = await faultProxy(emu.url, {
        decide: ({ method, path }) => {
          const post = method === "POST" ? /^\/\w+\/v2beta1\/(groupInvites|subscriptions)\/(.+)$/.exec(path) : null;
          const at = post ? groups.indexOf(post[2]) : -1;
          if (!post || at < 0) return "pass";
          const key = `${post[1]} ${post[2]}`;
          const seen = (posts.get(key) ?? 0) + 1;
          posts.set(key, seen);
          const [rank, action] = cases[at];
          return seen === rank ? action : "pass";
        },
      });
      shared = await twinsStack("twins-lost-answers", proxy.url, groups);
      up = await shared.cli(["up", "--yes", "--parallel", "8"]);
      resources = await shared.resources("platform:");
      recordsAfterUp = await Promise.all(groups.map(held));
      check = await shared.cli(["preview", "--refresh", "--expect-no-changes"]);
      destroy = await shared.cli(["destroy", "--yes"]);
      recordsAfterDestroy = await Promise.all(groups.map(held));
    });
    afterAll(async () => {
      shared?.remove();
      await proxy?.close();
    });

    test.each(cases)(
      "twin invites and subscriptions, POST #%i of each %s: two records each, one per resource, the drift check clean",
      async (rank, action) => {
        const i = cases.findIndex(([r, a]) => r === rank && a === action);
        const group = groups[i];
        expect([up.code, up.stderr]).toEqual([0, ""]);
        // The fault happened to each collection: the rank was reached, and a cut answer was applied.
        expect(posts.get(`groupInvites ${group}`)).toBeGreaterThanOrEqual(rank);
        expect(posts.get(`subscriptions ${group}`)).toBeGreaterThanOrEqual(rank);
        const lost = proxy!.lost.filter((answer) => answer.path.endsWith(`/${group}`));
        expect(lost.map((answer) => answer.status)).toEqual(action === "dropAfter" ? [200, 200] : []);

        const mine = await expectOneRecordEach(
          group,
          { invites: 2, subscriptions: 2 },
          ofGroup(resources, i),
          recordsAfterUp[i],
        );
        // Each invite was created, not taken over: it has its code.
        for (const r of mine.filter((r) => r.type === INVITE)) {
          expect(r.outputs?.code).toBeDefined();
          expect(r.outputs?.adopted).toBeUndefined();
        }
        expect([check.code, check.stderr]).toEqual([0, ""]);
        expect([destroy.code, destroy.stderr]).toEqual([0, ""]);
        expect(recordsAfterDestroy[i]).toEqual({ invites: [], subscriptions: [] });
      },
    );
  });

  test("with adoption on, of twins beside one matching record one takes it and the other makes its own (two groups)", async () => {
    const groups: string[] = [];
    const existing: Array<{ invite: string; subscription: string }> = [];
    for (const round of [1, 2]) {
      const group = await team(`adopting twins ${round}`);
      groups.push(group);
      existing.push({
        invite: (await createdRecord(emu, `/iam/v2beta1/groupInvites/${group}`, { roleUid: VIEWER, ttl: "3600s" })).uid,
        subscription: (await createdRecord(emu, `/events/v2beta1/subscriptions/${group}`, { sink: SINK })).uid,
      });
    }
    stack = await twinsStack("adopting-twins", emu.url, groups);
    const up = await stack.cli(["up", "--yes", "--parallel", "8"], { PLATFORM_ADOPT: "true" });
    expect([up.code, up.stderr]).toEqual([0, ""]);
    const all = await stack.resources("platform:");
    for (const [i, group] of groups.entries()) {
      const resources = await expectOneRecordEach(group, { invites: 2, subscriptions: 2 }, ofGroup(all, i));
      for (const [type, uid] of [
        [INVITE, existing[i].invite],
        [SUBSCRIPTION, existing[i].subscription],
      ]) {
        const twins = resources.filter((r) => r.type === type);
        // Exactly one adopted the record that was there; the other's was made for it.
        expect(twins.filter((r) => r.outputs?.adopted === true).map((r) => r.id)).toEqual([uid]);
        expect(twins.filter((r) => r.id !== uid)).toHaveLength(1);
      }
    }
    const check = await stack.cli(["preview", "--refresh", "--expect-no-changes"], { PLATFORM_ADOPT: "true" });
    expect([check.code, check.stderr]).toEqual([0, ""]);
  });

  test("the way back from an interrupted up with four identical subscriptions: four records, one per resource", async () => {
    const group = await team("interrupted twins");
    // The first subscription's create passes, the second's is applied and its answer held, and
    // nothing else is written: the other twins wait for the second, as twins do.
    let posts = 0;
    const ranks = new WeakMap<ProxiedWrite, number>();
    const rankOf = (write: ProxiedWrite) => {
      if (write.method !== "POST" || !write.path.startsWith("/events/")) return 0;
      if (!ranks.has(write)) ranks.set(write, ++posts);
      return ranks.get(write)!;
    };
    const proxy = await holdingProxy({
      upstream: emu.url,
      hold: (write) => rankOf(write) === 2,
      pass: (write) => rankOf(write) === 1,
    });
    try {
      stack = await yamlStack({
        name: "interrupted-twins",
        config: { "platform:apiUrl": proxy.url },
        secretConfig: { "platform:token": emu.token },
      });
      stack.declare({
        resources: Object.fromEntries(
          ["hookA", "hookB", "hookC", "hookD"].map((name) => [
            name,
            { type: SUBSCRIPTION, properties: subscription(group) },
          ]),
        ),
      });
      const running = stack.start(["up", "--yes", "--parallel", "8"]);
      const [applied] = await Promise.race([
        proxy.held(1),
        running.result.then((run) => {
          throw new Error(`up ended before the kill point:\n${run.stdout}${run.stderr}`);
        }),
      ]);
      expect(applied.status).toBe(200);
      await running.kill();
      await proxy.allClientsGone();
      proxy.release();
      // Nothing beside the state that the kill could have left half-written (a sidecar `.attrs` did).
      const stacks = path.dirname(stateFile(path.dirname(stack.dir), "interrupted-twins"));
      expect(fs.readdirSync(stacks).filter((file) => file.endsWith(".attrs"))).toEqual([]);
      // One whole in the state, one orphan: two records, one resource.
      const [whole] = await stack.resources(SUBSCRIPTION);
      const made = (await held(group)).subscriptions;
      expect(made).toHaveLength(2);
      const orphan = made.find((uid) => uid !== whole.id);

      const cancel = await stack.cli(["cancel", "--yes"]);
      expect(cancel.code).toBe(0);
      const clear = await stack.cli(["refresh", "--clear-pending-creates", "--yes"]);
      expect([clear.code, clear.stderr]).toEqual([0, ""]);
      const up = await stack.cli(["up", "--refresh", "--yes", "--parallel", "8"], { PLATFORM_ADOPT: "true" });
      expect([up.code, up.stderr]).toEqual([0, ""]);

      const resources = await expectOneRecordEach(
        group,
        { invites: 0, subscriptions: 4 },
        await stack.resources("platform:"),
      );
      // The record in the state stayed its resource's alone; the orphan was taken over by one other.
      expect(resources.find((r) => r.urn === whole.urn)?.id).toBe(whole.id);
      expect(resources.filter((r) => r.outputs?.adopted === true).map((r) => r.id)).toEqual([orphan]);
      const check = await stack.cli(["preview", "--refresh", "--expect-no-changes"]);
      expect([check.code, check.stderr]).toEqual([0, ""]);
    } finally {
      await proxy.close();
    }
  });
});
