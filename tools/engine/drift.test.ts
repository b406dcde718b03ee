/**
 * The local engine's step logic, driven through its command line with a test-only dynamic
 * provider (records-fake: records in a JSON file, every operation logged) through the real
 * dynamic-provider host. This file: drift, refresh and failures; engine.test.ts: plans, order and state.
 */
import * as fs from "node:fs";
import { copySpecs as copy, recordNames as names, recordsProjects, sampleOrg as org } from "./fixtures/records";

jest.setTimeout(120_000);

describe("local engine: drift and failures (records-fake provider)", () => {
  const projects = recordsProjects();
  const project = projects.project;
  afterAll(() => projects.removeAll());

  test("drift: preview --refresh --expect-no-changes fails naming each change without saving; up --refresh repairs", async () => {
    const p = project("drift");
    expect((await p.run(["up"], org)).code).toBe(0);
    const store = JSON.parse(fs.readFileSync(`${p.dir}/records.json`, "utf8"));
    const id = (name: string) => Object.keys(store.records).find((k) => store.records[k].name === name)!;
    store.records[id("a")].note = "edited in the console";
    delete store.records[id("b")];
    fs.writeFileSync(`${p.dir}/records.json`, JSON.stringify(store));
    const stateBefore = fs.readFileSync(p.stateFile, "utf8");

    const check = await p.run(["preview", "--refresh", "--expect-no-changes"], org);
    expect(check.code).not.toBe(0);
    expect(check.stdout).toContain("no changes were expected");
    expect(check.stdout).toContain(`~ pulumi-nodejs:dynamic/records:Record "a": note`);
    expect(check.stdout).toContain(`+ pulumi-nodejs:dynamic/records:Record "b": would be created`);
    expect(fs.readFileSync(p.stateFile, "utf8")).toBe(stateBefore);

    const repair = await p.run(["up", "--refresh"], org);
    expect(repair.code).toBe(0);
    expect(names(p)).toEqual(["a", "b", "org", "sub"]);
    expect(Object.values(p.store().records).find((r) => r.name === "a")!.note).toBe("first");
    expect((await p.run(["preview", "--refresh", "--expect-no-changes"], org)).code).toBe(0);
  });

  test("refresh drops a resource deleted outside and saves", async () => {
    const p = project("refresh");
    expect((await p.run(["up"], org)).code).toBe(0);
    const store = p.store();
    const subId = Object.keys(store.records).find((k) => store.records[k].name === "sub")!;
    delete store.records[subId];
    fs.writeFileSync(`${p.dir}/records.json`, JSON.stringify(store));
    const refresh = await p.run(["refresh"], org);
    expect(refresh.code).toBe(0);
    expect(refresh.stdout).toMatch(/sub\s+deleted outside Pulumi/);
    expect(refresh.state!.resources.some((r) => r.urn.endsWith("::sub"))).toBe(false);
  });

  test("invalid inputs stop the run with the property and the reason, before any request for it", async () => {
    const p = project("check");
    const bad = [...copy(org), { key: "bad", name: "Not Valid" }];
    const up = await p.run(["up"], bad);
    expect(up.code).not.toBe(0);
    expect(up.stdout).toContain(
      `error: pulumi-nodejs:dynamic/records:Record "bad": invalid inputs: name: must match ^[a-z0-9-]+$`,
    );
    expect(up.stdout).not.toMatch(/\n\s+at /);
    expect(names(p)).not.toContain("Not Valid");
  });

  test("a failed create keeps what was done in the state, and the next run finishes the job", async () => {
    const p = project("partial");
    const failing = copy(org);
    failing[3].note = "fail";
    const up = await p.run(["up"], failing);
    expect(up.code).not.toBe(0);
    expect(up.stdout).toContain(`record sub: the service refused it (note "fail")`);
    const saved = up
      .state!.resources.filter((r) => r.custom)
      .map((r) => r.urn.split("::").pop())
      .sort();
    expect(saved).toEqual(["a", "b", "org"]);
    // The summary counts what was done: the stack, org, a and b, not the refused sub.
    expect(up.stdout).toContain("+ 4 created");
    p.clearLog();
    expect((await p.run(["up"], org)).code).toBe(0);
    expect(p.store().log).toEqual(["create sub"]);
  });

  test("a program that throws fails with its message", async () => {
    const p = project("throws");
    const up = await p.run(["up", "--config", "records=not json"]);
    expect(up.code).not.toBe(0);
    expect(up.stdout).toMatch(/error: the program failed: .*JSON/);
  });
});
