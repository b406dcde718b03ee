/**
 * `pulumi up` of the example organization killed with SIGKILL in the middle of a create, under the
 * REAL Pulumi CLI: what its engine then reports, and the way back docs/guides/interrupted-up.md gives, run command
 * for command, ending with no duplicate and no orphan.
 *
 * The kill point is deterministic: a proxy in front of the emulator (tests/support/holdingProxy.ts)
 * lets the department group's create through; has the emulator apply the creates of the `platform`
 * team (a kind whose names are unique) and of the department's event subscription (a kind the API
 * lets repeat) and holds their answers; and parks the department's four other creates, unanswered
 * and unapplied. Once all six are under way the runner, `pulumi` and the dynamic-provider host are
 * SIGKILLed, as a CI runner ends a job: the service holds the two records, the state neither.
 * Each test starts from an empty organization and runs alone (`-t`).
 */
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { OrgRecord, OrgSnapshot, snapshot } from "../../tools/orgApi";
import { EXAMPLE_SSO_CLIENT_SECRET, exampleDir } from "../../tools/orgProject";
import { HeldWrite, HoldingProxy, holdingProxy, ProxiedWrite } from "../support/holdingProxy";
import { RealCliProcess, realCliStack, RealCliStack } from "../support/realCli";

const PROJECT = "org-hierarchy";
const DYNAMIC = "pulumi-nodejs:dynamic/";
const urnOf = (type: string, name: string) => `urn:pulumi:dev::${PROJECT}::${DYNAMIC}${type}::${name}`;
/** The creates under way when the run is killed: the department's children, `platform` among them. */
const SINK = "https://hooks.example.com/engineering-events";
const UNDER_WAY = [
  urnOf("iam:Group", "platform"),
  urnOf("iam:Group", "payments"),
  urnOf("iam:Group", "data"),
  urnOf("iam:Role", "image-publisher"),
  urnOf("events:Subscription", "engineering-events"),
  urnOf("iam:IdentityProvider", "corporate-sso"),
];

/** The `pulumi stack export` deployment, the parts read here. */
interface ExportedDeployment {
  deployment: {
    resources?: Array<{ urn: string; id?: string; type: string }>;
    pending_operations?: Array<{ type: string; resource: { urn: string; id?: string } }>;
  };
}

jest.setTimeout(600_000);

describe("pulumi up killed with SIGKILL during a create, under the real Pulumi CLI", () => {
  let emu: RunningEmulator;
  let proxy: HoldingProxy;
  let stack: RealCliStack;
  let before: OrgSnapshot;
  let running: RealCliProcess | undefined;
  const api = () => ({ url: emu.url, token: emu.token });
  const writes = () => emu.requests().filter((r) => r.method !== "GET");

  beforeEach(async () => {
    emu = await startEmulator({ quiet: true });
    proxy = await holdingProxy({
      upstream: emu.url,
      hold: (w) =>
        w.method === "POST" &&
        ((w.path.startsWith("/iam/v2beta1/groups/") && w.body.name === "platform") ||
          (w.path.startsWith("/events/v2beta1/subscriptions/") && w.body.sink === SINK)),
      pass: (w) =>
        w.method === "POST" && w.path === `/iam/v2beta1/groups/${emu.rootUid}` && w.body.name === "engineering",
    });
    stack = realCliStack({
      programDir: exampleDir,
      project: PROJECT,
      label: "killed",
      config: { "platform:apiUrl": proxy.url, [`${PROJECT}:rootUid`]: emu.rootUid },
      secretConfig: { "platform:token": emu.token, [`${PROJECT}:ssoClientSecret`]: EXAMPLE_SSO_CLIENT_SECRET },
    });
    before = await snapshot(api(), emu.rootUid);
  });
  afterEach(async () => {
    await running?.kill();
    running = undefined;
    await proxy?.close();
    await emu?.close();
    stack?.remove();
  });

  const exported = async (): Promise<ExportedDeployment> => {
    const answer = await stack.cli(["stack", "export"]);
    if (answer.code !== 0) throw new Error(`pulumi stack export failed:\n${answer.stderr}`);
    return JSON.parse(answer.stdout) as ExportedDeployment;
  };
  const managed = async () => ((await exported()).deployment.resources ?? []).filter((r) => r.type.startsWith(DYNAMIC));
  /** The records the runs made: everything below the root that was not there before. */
  const madeSince = async (): Promise<OrgRecord[]> => {
    const now = await snapshot(api(), emu.rootUid);
    const old = new Set(Object.values(before).flatMap((records: OrgRecord[]) => records.map((r) => r.uid)));
    return Object.values(now)
      .flatMap((records: OrgRecord[]) => records)
      .filter((r) => !old.has(r.uid));
  };

  /** Starts `up` and kills everything it started once the two held creates are applied and the others parked. */
  async function killedDuringCreate(): Promise<{ held: HeldWrite[]; parked: ProxiedWrite[] }> {
    running = stack.start("up");
    const ended = running.result.then((run) => {
      throw new Error(`up ended before the kill point:\n${run.stdout}${run.stderr}`);
    });
    const held = await Promise.race([proxy.held(2), ended]);
    const parked = await Promise.race([proxy.parked(UNDER_WAY.length - 2), ended]);
    await running.kill();
    // The dynamic-provider host held the parked connections: their closing says it is dead too.
    await proxy.allClientsGone();
    await expect(running.result).rejects.toThrow("the Automation API runner failed");
    running = undefined;
    proxy.release();
    return { held, parked };
  }

  /** The guide's way back (docs/guides/interrupted-up.md) after an interrupted `up`, command for command. */
  async function wayBack(): Promise<void> {
    const cancel = await stack.cli(["cancel", "--yes"]);
    expect(cancel.stdout).toContain("The currently running update for 'dev' has been canceled!");
    expect(cancel.code).toBe(0);

    const clear = await stack.cli(["refresh", "--clear-pending-creates", "--yes"]);
    expect(clear.stderr).toBe("");
    expect(clear.code).toBe(0);
    expect((await exported()).deployment.pending_operations ?? []).toEqual([]);

    emu.clearRequests();
    // --refresh: every resource of the state is read (its record held) before any create looks.
    const up = await stack.run("up", { refresh: true, env: { PLATFORM_ADOPT: "true" } });
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    expect(up.stdout).not.toContain("pending operations");
    // `platform`'s create was refused as ALREADY_EXISTS and the group adopted; the subscription,
    // of a kind the API lets repeat, was looked up first and adopted without a create.
    expect(writes().filter((r) => r.status === 409)).toEqual([
      expect.objectContaining({ method: "POST", path: expect.stringMatching(/^\/iam\/v2beta1\/groups\//) }),
    ]);
    expect(writes().filter((r) => r.path.startsWith("/events/"))).toEqual([]);
    expect((await managed()).map((r) => r.urn)).toContain(urnOf("iam:Group", "platform"));

    const check = await stack.run("preview", { expectNoChanges: true });
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/Resources:\s+18 unchanged/);
  }

  /** No duplicate and no orphan: each record the runs made is in the state once, and nothing else is. */
  async function expectNoDuplicateNoOrphan(): Promise<void> {
    const made = await madeSince();
    const inState = (await managed()).map((r) => r.id);
    expect(made.map((r) => r.uid).sort()).toEqual([...inState].sort());
    // 7 groups, 2 identities, a custom role, 4 bindings, a repo, a subscription, an identity provider.
    expect(made).toHaveLength(17);
    expect(made.filter((r) => r.name === "platform")).toHaveLength(1);
    expect(made.filter((r) => r.sink === SINK)).toHaveLength(1);
    expect((await exported()).deployment.pending_operations ?? []).toEqual([]);
  }

  test("the engine leaves the stack locked and six creates pending; cancel, refresh --clear-pending-creates and up with PLATFORM_ADOPT=true end with no duplicate and no orphan", async () => {
    const { held, parked } = await killedDuringCreate();
    expect(held.map((w) => w.status)).toEqual([200, 200]);
    expect(parked.map((w) => String(w.body.name)).sort()).toEqual([
      "corporate-sso",
      "data",
      "image-publisher",
      "payments",
    ]);
    // The service made `engineering`, `platform` and the subscription; the state has `engineering`
    // only, and names every create under way as pending, without an id: the engine never learned
    // the uids of the two records the killed run made.
    expect((await madeSince()).map((r) => r.name ?? r.sink).sort()).toEqual(["engineering", SINK, "platform"]);
    const state = await exported();
    expect(state.deployment.resources!.filter((r) => r.type.startsWith(DYNAMIC)).map((r) => r.urn)).toEqual([
      urnOf("iam:Group", "engineering"),
    ]);
    const pending = state.deployment.pending_operations ?? [];
    expect(pending.map((op) => op.resource.urn).sort()).toEqual([...UNDER_WAY].sort());
    expect(pending.every((op) => op.type === "creating" && op.resource.id === undefined)).toBe(true);

    // The file backend keeps the killed run's lock: the next up stops before anything is sent.
    emu.clearRequests();
    const locked = await stack.run("up");
    expect(locked.code).not.toBe(0);
    expect(locked.stderr).toContain(
      "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.",
    );
    expect(writes()).toEqual([]);

    await wayBack();
    await expectNoDuplicateNoOrphan();
    const destroy = await stack.run("destroy");
    expect(destroy.code).toBe(0);
    expect(await snapshot(api(), emu.rootUid)).toEqual(before);
  });

  test("what does not bring it back: preview says nothing of the pending creates; a plain up warns, stops at the group the killed run made and creates the subscription again; --import-pending-creates drops the create without importing it", async () => {
    await killedDuringCreate();
    const made = await madeSince();
    const platformUid = made.find((r) => r.name === "platform")!.uid;
    const firstSubscription = made.find((r) => r.sink === SINK)!.uid;

    // A preview takes no lock and reads no pending operation: it plans both as creates.
    const preview = await stack.run("preview");
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain(` +  ${DYNAMIC}iam:Group platform create`);
    expect(preview.stdout).toContain(` +  ${DYNAMIC}events:Subscription engineering-events create`);
    expect(preview.stdout).not.toContain("pending");

    expect((await stack.cli(["cancel", "--yes"])).code).toBe(0);
    // The engine starts no create once one has failed, and a loaded machine may register the
    // subscription late: the group's refusal is answered only once the subscription's create is sent.
    proxy.answerAfter(
      (w) => w.method === "POST" && w.path.startsWith("/iam/v2beta1/groups/") && w.body.name === "platform",
      (w) => w.method === "POST" && w.path.startsWith("/events/v2beta1/subscriptions/") && w.body.sink === SINK,
    );
    const plain = await stack.run("up");
    expect(plain.code).not.toBe(0);
    expect(plain.stdout).toContain(
      "warning: Attempting to deploy or update resources with 6 pending operations from previous deployment.",
    );
    for (const urn of UNDER_WAY) expect(plain.stdout).toContain(`  * ${urn}, interrupted while creating`);
    expect(plain.stdout).toContain(
      "Note that `pulumi refresh` will need to be run interactively to clear pending CREATE operations.",
    );
    // The group's name is taken, so its create is refused: no duplicate, and the error says how to take it over.
    expect(plain.stdout).toContain(`error: creating group "platform" under `);
    expect(plain.stdout).toContain(`failed: it already exists`);
    expect(plain.stdout).toContain("`pulumi config set platform:adopt true` for the whole stack");
    expect((await madeSince()).filter((r) => r.name === "platform")).toHaveLength(1);
    // The API lets subscriptions repeat: the plain up made a second one, and the killed run's is an orphan.
    const subscriptions = (await madeSince()).filter((r) => r.sink === SINK).map((r) => r.uid);
    expect(subscriptions).toHaveLength(2);
    const subscriptionInState = (await managed()).find(
      (r) => r.urn === urnOf("events:Subscription", "engineering-events"),
    );
    expect(subscriptionInState!.id).not.toBe(firstSubscription);
    expect(subscriptions).toContain(subscriptionInState!.id);
    // The engine keeps pending creates until a refresh clears them, even those this up created.
    const afterPlain = await exported();
    expect((afterPlain.deployment.pending_operations ?? []).map((op) => op.resource.urn).sort()).toEqual(
      [...UNDER_WAY].sort(),
    );

    // A refresh that is not interactive keeps them too, unless told to clear them.
    const refresh = await stack.cli(["refresh", "--yes"]);
    expect(refresh.code).toBe(0);
    expect((await exported()).deployment.pending_operations ?? []).toHaveLength(UNDER_WAY.length);

    // v3.274.1 accepts an import of the pending create (each value after its own flag) and drops
    // the operation, but puts no resource in the state: the record would be left an orphan.
    const platformUrn = urnOf("iam:Group", "platform");
    const imported = await stack.cli([
      "refresh",
      "--yes",
      "--import-pending-creates",
      platformUrn,
      "--import-pending-creates",
      platformUid,
    ]);
    expect(imported.code).toBe(0);
    const afterImport = await exported();
    expect((afterImport.deployment.pending_operations ?? []).map((op) => op.resource.urn)).not.toContain(platformUrn);
    expect(afterImport.deployment.resources!.map((r) => r.urn)).not.toContain(platformUrn);
  });
});
