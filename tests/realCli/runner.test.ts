/**
 * The Automation API runner of tools/pulumi-cli/stack.ts: a stack's operations share one runner
 * process, and each still meets only its own environment, loads the program afresh and reports only
 * what was printed during it; an operation begun with `start`, and every operation of a stack made
 * with `runnerPerOperation`, runs in a process of its own; outputs holding no secret are read from
 * the state, and equal what `pulumi stack output --json` prints.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";
import { pulumiCliDir } from "../../tools/pulumi-cli/find";
import { RealCliRun, RealCliStack, realCliStack } from "../../tools/pulumi-cli/stack";

jest.setTimeout(120_000);

const stacks: RealCliStack[] = [];
afterAll(() => stacks.forEach((stack) => stack.remove()));

function storyStack(label: string, runnerPerOperation?: boolean, cliDir?: string): RealCliStack {
  const stack = realCliStack({
    cliDir,
    programDir: path.join(repoRoot, "tests", "programs", "runner"),
    project: "runner",
    label,
    config: {},
    runnerPerOperation,
  });
  stacks.push(stack);
  return stack;
}

const told = (run: RealCliRun) => ({
  code: run.code,
  mark: run.outputs.mark?.value,
  printed: run.runnerOutput.match(/runner story mark: \S+/g),
});

test("a stack's operations share one runner; each meets its own environment, its program loaded afresh, its own output", async () => {
  const stack = storyStack("shared");
  const first = await stack.run("up", { env: { RUNNER_STORY_MARK: "first" } });
  expect(told(first)).toEqual({ code: 0, mark: "first", printed: ["runner story mark: first"] });
  // No variable of the first operation is left for the second.
  const second = await stack.run("up");
  expect(told(second)).toEqual({ code: 0, mark: "(unset)", printed: ["runner story mark: (unset)"] });
  const third = await stack.run("up", { env: { RUNNER_STORY_MARK: "third" } });
  expect(told(third)).toEqual({ code: 0, mark: "third", printed: ["runner story mark: third"] });
  expect(new Set([first, second, third].map((run) => run.outputs.pid.value)).size).toBe(1);

  // An operation one may kill runs alone, in its own process group.
  const started = stack.start("up", { env: { RUNNER_STORY_MARK: "started" } });
  const alone = await started.result;
  expect(told(alone)).toEqual({ code: 0, mark: "started", printed: ["runner story mark: started"] });
  expect(alone.outputs.pid.value).toBe(started.pid);
  expect(alone.outputs.pid.value).not.toBe(first.outputs.pid.value);
  expect((await stack.run("destroy")).code).toBe(0);
});

test("runnerPerOperation: every operation in a runner process of its own, as the benchmarks measure one", async () => {
  const stack = storyStack("per-operation", true);
  const runs = [await stack.run("up"), await stack.run("up", { env: { RUNNER_STORY_MARK: "again" } })];
  expect(runs.map(told)).toEqual([
    { code: 0, mark: "(unset)", printed: ["runner story mark: (unset)"] },
    { code: 0, mark: "again", printed: ["runner story mark: again"] },
  ]);
  expect(runs[0].outputs.pid.value).not.toBe(runs[1].outputs.pid.value);
});

test("outputs without a secret come from the state as `pulumi stack output --json` prints them, with no process for it", async () => {
  // The CLI's folder with a `pulumi` that writes down each command it is asked before running it.
  const cli = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-runner-cli-"));
  const asked = path.join(cli, "asked.log");
  for (const name of fs.readdirSync(pulumiCliDir()))
    if (name !== "pulumi") fs.symlinkSync(path.join(pulumiCliDir(), name), path.join(cli, name));
  fs.writeFileSync(
    path.join(cli, "pulumi"),
    `#!/bin/sh\necho "$*" >> '${asked}'\nexec '${path.join(pulumiCliDir(), "pulumi")}' "$@"\n`,
    { mode: 0o755 },
  );
  try {
    const stack = storyStack("outputs", false, cli);
    const up = await stack.run("up", { env: { RUNNER_STORY_MARK: "outputs" } });
    expect(up.code).toBe(0);
    const commands = fs.readFileSync(asked, "utf8");
    expect(commands).toMatch(/^up /m);
    expect(commands).not.toMatch(/^stack output/m);
    const printed = await stack.cli(["stack", "output", "--json", "--show-secrets"]);
    expect(printed.code).toBe(0);
    const values = Object.fromEntries(Object.entries(up.outputs).map(([key, output]) => [key, output.value]));
    expect(values).toEqual(JSON.parse(printed.stdout));
    expect(values.shapes).toMatchObject({ count: 3, none: null, list: ["a", { nested: "b" }] });
    expect(Object.values(up.outputs).map((output) => output.secret)).toEqual([false, false, false]);
    expect((await stack.run("destroy")).code).toBe(0);
  } finally {
    fs.rmSync(cli, { recursive: true, force: true });
  }
});
