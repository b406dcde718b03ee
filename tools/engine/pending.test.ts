/**
 * Pending operations: the engine is killed (SIGKILL, engine and provider host) right after a
 * provider call changed the service and before the state recorded it; the next run reports
 * the operation and resolves it, so nothing is duplicated and the state ends complete.
 */
import { copySpecs as copy, recordNames as names, recordsProjects, sampleOrg as org } from "./fixtures/records";

jest.setTimeout(120_000);

const RECORD = "pulumi-nodejs:dynamic/records:Record";

describe("local engine: runs killed in the middle of a provider call", () => {
  const projects = recordsProjects();
  afterAll(() => projects.removeAll());

  test("a create killed before its state save is adopted by the next up: no duplicate, state complete", async () => {
    const p = projects.project("kill-create");
    const killed = await p.run(["up"], org, { killAfter: "creating:a" });
    expect(killed.killed).toBe(true);
    expect(names(p)).toContain("a");
    // The service has "a"; the state does not, but remembers that a create of "a" was under way.
    expect(killed.state!.resources.some((r) => r.urn.endsWith("::a"))).toBe(false);
    expect(killed.state!.pendingOperations).toEqual([
      expect.objectContaining({
        operation: "creating",
        resource: expect.objectContaining({ urn: expect.stringMatching(/::a$/), inputs: expect.any(Object) }),
      }),
    ]);

    const again = await p.run(["up"], org);
    expect(again.stdout).not.toContain("already exists");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${RECORD} "a" was interrupted while creating`);
    expect(again.stdout).toMatch(/the record it made \(root\/org-1\/a-\d+\) was found and adopted into the state/);
    expect(p.store().log.filter((line) => line === "create a")).toHaveLength(1);
    expect(p.store().log).toContain("adopt a");
    expect(names(p)).toEqual(["a", "b", "org", "sub"]);
    expect(again.state!.pendingOperations).toBeUndefined();
    const a = again.state!.resources.find((r) => r.urn.endsWith("::a"))!;
    expect(a.id).toBe(Object.keys(p.store().records).find((id) => p.store().records[id].name === "a"));
    expect(a.inputs).not.toHaveProperty("adopt");
    expect(again.state!.resources.filter((r) => r.custom)).toHaveLength(4);
    expect((await p.run(["preview", "--expect-no-changes"], org)).code).toBe(0);
  });

  test("a preview reports a pending create without resolving it", async () => {
    const p = projects.project("kill-preview");
    await p.run(["up"], org, { killAfter: "creating:org" });
    p.clearLog();
    const preview = await p.run(["preview"], org);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain(`${RECORD} "org" was interrupted while creating`);
    expect(preview.stdout).toContain("the next up, refresh or destroy resolves it");
    expect(p.store().log).toEqual([]);
    expect(preview.state!.pendingOperations).toHaveLength(1);
  });

  test("an update killed before its state save is refreshed by the next up and not sent again", async () => {
    const p = projects.project("kill-update");
    expect((await p.run(["up"], org)).code).toBe(0);
    const changed = copy(org);
    changed[1].note = "second";
    const killed = await p.run(["up"], changed, { killAfter: "updating:a" });
    expect(killed.killed).toBe(true);
    expect(killed.state!.resources.find((r) => r.urn.endsWith("::a"))!.outputs.note).toBe("first");
    p.clearLog();

    const again = await p.run(["up"], changed);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${RECORD} "a" was interrupted while updating`);
    expect(again.stdout).toContain("refreshed from the service");
    expect(p.store().log.filter((line) => line.startsWith("update"))).toEqual([]);
    expect(again.state!.resources.find((r) => r.urn.endsWith("::a"))!.outputs.note).toBe("second");
    expect(again.state!.pendingOperations).toBeUndefined();
  });

  test("a delete killed before its state save leaves the state at the next up", async () => {
    const p = projects.project("kill-delete");
    expect((await p.run(["up"], org)).code).toBe(0);
    const withoutSub = org.filter((s) => s.key !== "sub");
    const killed = await p.run(["up"], withoutSub, { killAfter: "deleting:sub" });
    expect(killed.killed).toBe(true);
    expect(names(p)).toEqual(["a", "b", "org"]);
    expect(killed.state!.resources.some((r) => r.urn.endsWith("::sub"))).toBe(true);

    const again = await p.run(["up"], withoutSub);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${RECORD} "sub" was interrupted while deleting`);
    expect(again.stdout).toContain("the delete went through; removed from the state");
    expect(again.state!.resources.some((r) => r.urn.endsWith("::sub"))).toBe(false);
    expect(again.state!.pendingOperations).toBeUndefined();
  });

  test("a provider without an adoption input: the interrupted create is reported and cleared, and the user is told", async () => {
    const p = projects.project("kill-no-adopt");
    const env = { RECORDS_NO_ADOPT: "1" };
    await p.run(["up"], org, { killAfter: "creating:org", env });
    const again = await p.run(["up"], org, { env });
    expect(again.stdout).toContain(`${RECORD} "org" was interrupted while creating`);
    expect(again.stdout).toContain(`the provider takes no "adopt" input`);
    // The record stays single: the service refuses the second create and the user sees why.
    expect(again.code).toBe(255);
    expect(again.stdout).toContain("record org already exists");
    expect(names(p)).toEqual(["org"]);
    expect(again.state!.pendingOperations).toBeUndefined();
  });
});
