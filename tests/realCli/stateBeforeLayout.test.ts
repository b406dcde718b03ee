/**
 * A stack written by the package before provider/ became core/, in folders by role
 * (tests/programs/stateBeforeLayout: the program, its `pulumi stack export` with the token
 * removed, and the emulator's `--state` file with its signing key removed), imported with
 * `pulumi stack import` under the REAL Pulumi CLI: the provider modules its `__provider`s name
 * still load, so refresh finds every record unchanged and destroy deletes them.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RunningEmulator, startEmulator } from "../../emulator";
import { repoRoot } from "../../tools/host/stage";
import { ProgramProject, programProject } from "../support/programProject";

jest.setTimeout(420_000);

const FIXTURE = path.join(repoRoot, "tests", "programs", "stateBeforeLayout");
/** The API's URL in the committed state; the test puts the emulator's own in its place. */
const FIXTURE_URL = "http://api.example.invalid";

interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  outputs?: Record<string, unknown>;
}
interface Exported {
  deployment: { resources: StateResource[] };
}

const stateText = fs.readFileSync(path.join(FIXTURE, "stack.json"), "utf8");
const exported = JSON.parse(stateText) as Exported;
const dynamic = exported.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));

let scratch: string;
let emu: RunningEmulator;
let project: ProgramProject;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-state-before-layout-"));
  const emulatorState = path.join(scratch, "emulator.json");
  fs.copyFileSync(path.join(FIXTURE, "emulator.json"), emulatorState);
  emu = await startEmulator({ quiet: true, requirePatchFields: true, statePath: emulatorState });
  project = programProject({ name: "state-before-layout", program: { dir: FIXTURE }, api: emu });
  // The first operation makes the stack and writes its config; the state is empty until the import.
  const preview = await project.run("preview", { rootUid: emu.rootUid });
  expect([preview.code, preview.stderr]).toEqual([0, ""]);
  const file = path.join(scratch, "stack.json");
  fs.writeFileSync(file, stateText.split(FIXTURE_URL).join(emu.url));
  const imported = await project.stack.cli(["stack", "import", "--file", file]);
  expect([imported.code, imported.stderr]).toEqual([0, ""]);
});
afterAll(async () => {
  await emu?.close();
  project?.remove();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

test("the committed state names each resource's provider module by a bare require of its path in the package", () => {
  const modules = dynamic.map(
    (r) => /require\("platform-pulumi\/dist\/([^"]+)"\)/.exec(String(r.outputs?.__provider))?.[1],
  );
  expect(modules).not.toContain(undefined);
  expect(new Set(modules).size).toBeGreaterThanOrEqual(6);
  expect(project.resources().map((r) => r.urn)).toEqual(dynamic.map((r) => r.urn));
});

test("a state written before the layout change refreshes with no change and no write, then destroys every record", async () => {
  emu.clearRequests();
  // The committed state's provider holds no token: refresh takes it from the environment.
  const env = { PLATFORM_TOKEN: emu.token };
  const refreshed = await project.run("preview --refresh --expect-no-changes", { rootUid: emu.rootUid }, { env });
  expect([refreshed.code, refreshed.stderr]).toEqual([0, ""]);
  expect(refreshed.stdout).toContain(`${dynamic.length + 1} unchanged`);
  expect(emu.requests().filter((r) => r.method !== "GET")).toEqual([]);

  const destroyed = await project.run("destroy", { rootUid: emu.rootUid }, { env });
  expect([destroyed.code, destroyed.stderr]).toEqual([0, ""]);
  expect(project.resources()).toEqual([]);
  const deleted = emu.requests().filter((r) => r.method === "DELETE");
  expect(deleted).toHaveLength(dynamic.length);
});
