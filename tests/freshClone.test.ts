/**
 * The repository stands on its own: a clone of the committed HEAD into an empty folder, with
 * nothing beside it (no ../shared, no node_modules above it), runs the README's first command,
 * `npm install && npm run demo`, whose first step is `npm run build` (the whole project, tests
 * included, from a clean dist/), then the tests that read the API documents, as a new user or a CI
 * machine without the team's folders would. npm may take packages from its local cache
 * (--prefer-offline); the registry is asked only for what the cache lacks.
 */
import { execFileSync, spawnSync, SpawnSyncReturns } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../tools/host/stage";
import { emptyFolderOutsideRepository, userEnvironment } from "./support/outsideRepository";

jest.setTimeout(900_000);

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let folder: string;
let clone: string;
let head: string;

/** A command in the clone, as a user's shell runs it; its output is kept for the failure message. */
function inClone(command: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd: clone,
    env: userEnvironment(),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}

const outcome = (run: SpawnSyncReturns<string>) => ({
  status: run.status,
  // The end of the output says what failed, if anything did.
  tail: run.status === 0 ? "" : `${run.stdout}\n${run.stderr}`.slice(-4000),
});

beforeAll(() => {
  head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim();
  folder = emptyFolderOutsideRepository("platform-pulumi-clone-");
  clone = path.join(folder, "platform-pulumi");
  // The committed HEAD, whatever branch or worktree the tests run in.
  execFileSync("git", ["clone", "--quiet", "--no-checkout", repoRoot, clone], { stdio: "ignore" });
  execFileSync("git", ["checkout", "--quiet", "--detach", head], { cwd: clone, stdio: "ignore" });
});
afterAll(() => {
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

test("a clone of HEAD into an empty folder, with nothing beside it, passes `npm install && npm run demo`, `npm run build` and the API-document tests", () => {
  // Nothing beside the clone: no shared reference, no other checkout.
  expect(fs.readdirSync(folder)).toEqual(["platform-pulumi"]);
  expect(execFileSync("git", ["rev-parse", "HEAD"], { cwd: clone, encoding: "utf8" }).trim()).toBe(head);

  expect(outcome(inClone(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund"]))).toEqual({
    status: 0,
    tail: "",
  });

  const demo = inClone(npm, ["run", "demo"]);
  expect(outcome(demo)).toEqual({ status: 0, tail: "" });
  // The demo builds the clone with `npm run build` first: that build is the clone's, so it is not run twice.
  const { scripts } = JSON.parse(fs.readFileSync(path.join(clone, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  expect(scripts.demo.startsWith("npm run build && ")).toBe(true);
  expect(demo.stdout).toContain(`> ${scripts.build}\n`);
  expect(demo.stdout).toContain("exactly as in step 0");
  // The console's drift as platform-pulumi drift names it: the edit, the deleted identity, the binding made by hand.
  expect(demo.stdout).toMatch(/\$ platform-pulumi drift --under \S+ --stack dev --ignore drift-ignore\.json/);
  expect(demo.stdout).toMatch(/~ platform:iam:Group \S+ +changed since stack dev \S+::platform\n/);
  expect(demo.stdout).toMatch(/- platform:iam:Identity \S+ +deleted, managed by stack dev \S+::gitlab-ci\n/);
  expect(demo.stdout).toMatch(/demo-org\/engineering\/platform\n(.*\n)*.*\+ platform:iam:RoleBinding .*, unmanaged\n/);
  expect(demo.stdout).toContain("Done. The program: examples/org-hierarchy/index.ts.");

  expect(fs.existsSync(path.join(clone, "dist", "emulator", "api-v2-schema.json"))).toBe(true);

  // The tests that used to read the API documents from beside the repository, from the test build.
  const tests = inClone(process.execPath, [
    "tests/run-jest.js",
    "dist/tests/selfContained.test.js",
    "dist/resources/kinds.test.js",
    "dist/resources/enums.test.js",
    "dist/emulator/schemaCore.test.js",
  ]);
  expect(outcome(tests)).toEqual({ status: 0, tail: "" });
  expect(tests.stdout).toMatch(/^\d+ passed, 0 failed$/m);
  expect(fs.readdirSync(folder)).toEqual(["platform-pulumi"]);
});
