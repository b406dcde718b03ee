import { deleteInReverseDependencyOrder } from "./graph";

const entry = (urn: string, ...dependencies: string[]) => ({ urn, dependencies });

describe("deleteInReverseDependencyOrder", () => {
  test("deletes dependents before what they depend on", async () => {
    const order: string[] = [];
    const entries = [entry("org"), entry("team", "org"), entry("sub", "team"), entry("binding", "sub", "team")];
    const outcome = await deleteInReverseDependencyOrder(entries, async (e) => {
      order.push(e.urn);
    });
    expect(order.indexOf("binding")).toBeLessThan(order.indexOf("sub"));
    expect(order.indexOf("sub")).toBeLessThan(order.indexOf("team"));
    expect(order.indexOf("team")).toBeLessThan(order.indexOf("org"));
    expect(outcome.deleted).toHaveLength(4);
  });

  test("starts independent deletes together", async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const run = deleteInReverseDependencyOrder([entry("a"), entry("b"), entry("c")], async (e) => {
      started.push(e.urn);
      await gate;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.sort()).toEqual(["a", "b", "c"]);
    release();
    await run;
  });

  test("keeps what a failed delete depends on, and reports both", async () => {
    const entries = [entry("org"), entry("team", "org"), entry("other", "org"), entry("solo")];
    const outcome = await deleteInReverseDependencyOrder(entries, async (e) => {
      if (e.urn === "team") throw new Error("still has repos");
    });
    expect(outcome.failed.map((f) => f.entry.urn)).toEqual(["team"]);
    expect(outcome.skipped.map((e) => e.urn)).toEqual(["org"]);
    expect(outcome.deleted.map((e) => e.urn).sort()).toEqual(["other", "solo"]);
  });

  test("ignores dependencies on resources outside the set", async () => {
    const outcome = await deleteInReverseDependencyOrder([entry("team", "kept-org")], async () => undefined);
    expect(outcome.deleted.map((e) => e.urn)).toEqual(["team"]);
  });

  test("refuses a dependency cycle instead of hanging", async () => {
    await expect(
      deleteInReverseDependencyOrder([entry("a", "b"), entry("b", "a")], async () => undefined),
    ).rejects.toThrow(/dependency cycle/);
  });
});
