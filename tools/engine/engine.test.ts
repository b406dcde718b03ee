/**
 * The local engine's step logic, driven through its command line with a test-only dynamic
 * provider (records-fake: records in a JSON file, every operation logged) through the real
 * dynamic-provider host. The stories on the real package and the emulator are in tests/e2e.test.ts.
 */
import { copySpecs as copy, recordNames as names, recordsProjects, sampleOrg as org } from "./fixtures/records";

jest.setTimeout(120_000);

describe("local engine (records-fake provider)", () => {
  const projects = recordsProjects();
  const project = projects.project;
  afterAll(() => projects.removeAll());

  test("preview plans without touching anything; up creates parents before children and saves state", async () => {
    const p = project("create");
    const preview = await p.run(["preview"], org);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/\+\s+pulumi-nodejs:dynamic\/records:Record\s+sub\s+create/);
    expect(preview.stdout).toContain("+ 5 to create");
    expect(p.store().log).toEqual([]);
    expect(preview.state).toBeUndefined();

    // a and b both wait only for org: each of their creates waits until the other is under way.
    const up = await p.run(["up"], org, { env: { RECORDS_TOGETHER: "a,b" } });
    expect(up.code).toBe(0);
    const log = p.store().log;
    expect(log.indexOf("create org")).toBeLessThan(log.indexOf("create a"));
    expect(log.indexOf("create a")).toBeLessThan(log.indexOf("create sub"));
    expect(names(p)).toEqual(["a", "b", "org", "sub"]);
    // ... and they were: the engine created them at the same time.
    expect(p.store().maxInFlight).toBeGreaterThanOrEqual(2);
    const sub = up.state!.resources.find((r) => r.urn.endsWith("::sub"))!;
    const a = up.state!.resources.find((r) => r.urn.endsWith("::a"))!;
    expect(sub.urn).toBe("urn:pulumi:dev::records::pulumi:pulumi:Stack$pulumi-nodejs:dynamic/records:Record::sub");
    expect(sub.dependencies).toContain(a.urn);
    expect(sub.inputs.parent).toBe(a.id);
    expect(up.state!.outputs.uids.sub).toBe(sub.id);
    expect(up.stdout).toContain("Outputs:");
  });

  test("an unchanged program changes nothing; a changed property is one update", async () => {
    const p = project("update");
    expect((await p.run(["up"], org)).code).toBe(0);
    p.clearLog();
    const same = await p.run(["preview", "--expect-no-changes"], org);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("5 unchanged");

    const changed = copy(org);
    changed[1].note = "second";
    const preview = await p.run(["preview", "--expect-no-changes"], changed);
    expect(preview.code).not.toBe(0);
    expect(preview.stdout).toContain(`~ note: "first" => "second"`);
    expect(preview.stdout).toContain(`~ pulumi-nodejs:dynamic/records:Record "a": note`);
    const up = await p.run(["up"], changed);
    expect(up.code).toBe(0);
    expect(p.store().log).toEqual(["update a"]);
  });

  test("a replacement creates the new resource first and deletes the original at the end", async () => {
    const p = project("replace");
    expect((await p.run(["up"], org)).code).toBe(0);
    p.clearLog();
    const moved = copy(org);
    moved[3].parent = "b";
    const preview = await p.run(["preview"], moved);
    expect(preview.stdout).toMatch(/\+-\s+pulumi-nodejs:dynamic\/records:Record\s+sub\s+replace/);
    expect(preview.stdout).toContain("(forces replacement)");
    const up = await p.run(["up"], moved);
    expect(up.code).toBe(0);
    expect(p.store().log).toEqual(["create sub", "delete sub"]);
    const subs = up.state!.resources.filter((r) => r.urn.endsWith("::sub"));
    expect(subs).toHaveLength(1);
    expect(subs[0].pendingDelete).toBeUndefined();
    expect(subs[0].inputs.parent).toBe(up.state!.resources.find((r) => r.urn.endsWith("::b"))!.id);
  });

  test("resources that leave the program are deleted children first", async () => {
    const p = project("remove");
    expect((await p.run(["up"], org)).code).toBe(0);
    p.clearLog();
    const up = await p.run(
      ["up"],
      org.filter((s) => s.key === "org" || s.key === "b"),
    );
    expect(up.code).toBe(0);
    expect(p.store().log).toEqual(["delete sub", "delete a"]);
    expect(up.stdout).toContain("- 2 deleted");
  });

  test("destroy deletes everything in reverse dependency order and empties the state (ES module program)", async () => {
    const p = project("destroy");
    expect((await p.run(["up", "--esm"], org)).code).toBe(0);
    expect((await p.run(["preview", "--esm", "--expect-no-changes"], org)).code).toBe(0);
    p.clearLog();
    // sub and b have no dependents: their deletes wait for each other.
    const destroy = await p.run(["destroy"], undefined, { env: { RECORDS_TOGETHER: "sub,b" } });
    expect(destroy.code).toBe(0);
    const log = p.store().log;
    expect(log.indexOf("delete sub")).toBeLessThan(log.indexOf("delete a"));
    expect(log.indexOf("delete a")).toBeLessThan(log.indexOf("delete org"));
    expect(log.indexOf("delete b")).toBeLessThan(log.indexOf("delete org"));
    expect(names(p)).toEqual([]);
    expect(p.store().maxInFlight).toBeGreaterThanOrEqual(2);
    expect(destroy.state!.resources).toEqual([]);
  });
});
