/**
 * The native provider `platform` under the REAL Pulumi CLI, on the emulator: the CLI finds the
 * plugin through Pulumi.yaml `plugins.providers` (a path to native/, whose executable
 * `pulumi-resource-platform` needs no language host) and runs it; the program (an Automation API
 * inline program, by tools/pulumi-cli/automation.ts) declares a group by its type token with an
 * explicit provider resource. Up creates it with one POST, a refresh finds nothing changed, the
 * state holds no `__provider` and the token only encrypted, destroy deletes it.
 *
 * Then a YAML program, run by plain `pulumi` commands (pulumi-yaml's language host is built
 * beside the CLI), declares the same through the provider's schema; `pulumi import
 * platform:iam:Group` takes an existing record over through the default provider, configured by
 * the stack's `platform:*` config, and generates its YAML. (The drift check and its repair on a YAML
 * program and native/ are tests/realCli/orgHierarchyYaml.test.ts's.)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { withoutPlatformEnv } from "../tools/orgProject";
import { repoRoot } from "../tools/host/stage";
import type { RealCliOperation, RealCliRequest, RealCliResult } from "../tools/pulumi-cli/automation";
import { runnerRequest } from "../tools/pulumi-cli/runnerRequest";
import { cliEnvironment, stateFile } from "../tools/pulumi-cli/cliEnvironment";
import { pulumiCliDir } from "../tools/pulumi-cli/find";
import { plainStack, PlainStack } from "../tools/pulumi-cli/plainStack";
import { versionOfCli } from "../tools/pulumi-cli/stack";

jest.setTimeout(600_000);

const PROJECT = "native-group";
const STACK = "dev";
const PLUGIN_DIR = path.join(repoRoot, "native");
const RUNNER = path.join(repoRoot, "dist", "tools", "pulumi-cli", "automation.js");

const INLINE_PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const provider = new pulumi.ProviderResource("platform", "api", {
  apiUrl: config.require("apiUrl"),
  token: config.requireSecret("token"),
});
const team = new pulumi.CustomResource(
  "platform:iam:Group",
  "team",
  { parentUid: config.require("rootUid"), name: "native team", description: "made by the native provider", uid: undefined },
  { provider },
);
exports.uid = team.id;
`;

interface Checkpoint {
  checkpoint: {
    latest?: {
      resources?: Array<{
        urn: string;
        type: string;
        id?: string;
        inputs?: Record<string, unknown>;
        outputs?: Record<string, unknown>;
      }>;
    };
  };
}

describe("the native provider under the real Pulumi CLI (plugins.providers path, Automation API, file backend)", () => {
  let emu: RunningEmulator;
  let scratch: string;
  let programDir: string;
  let cliDir: string;
  let env: Record<string, string>;
  let cliVersion: string | undefined;
  const writes = () => emu.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    cliDir = pulumiCliDir();
    // Asked once a test process, not by the runner at every operation (as realCliStack's).
    cliVersion = versionOfCli(cliDir);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-native-"));
    programDir = path.join(scratch, "program");
    fs.mkdirSync(programDir);
    fs.writeFileSync(
      path.join(programDir, "Pulumi.yaml"),
      `name: ${PROJECT}\nruntime: nodejs\nplugins:\n  providers:\n    - name: platform\n      path: ${PLUGIN_DIR}\n`,
    );
    fs.writeFileSync(path.join(programDir, "index.js"), INLINE_PROGRAM);
    // The program and the runner load @pulumi/pulumi from the program's folder.
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(programDir, "node_modules"));
    fs.mkdirSync(path.join(scratch, "cli"));
    fs.symlinkSync(cliDir, path.join(scratch, "cli", "bin"));
    env = cliEnvironment(scratch, cliDir);
  });
  afterAll(async () => {
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  let configured = false;
  let runs = 0;
  async function run(operation: RealCliOperation, options: { expectNoChanges?: boolean } = {}): Promise<RealCliResult> {
    const resultFile = path.join(scratch, `result-${operation}-${++runs}.json`);
    const config: RealCliRequest["config"] = configured
      ? {}
      : {
          [`${PROJECT}:apiUrl`]: { value: emu.url, secret: false },
          [`${PROJECT}:token`]: { value: emu.token, secret: true },
          [`${PROJECT}:rootUid`]: { value: emu.rootUid, secret: false },
        };
    const request: RealCliRequest = {
      operation,
      expectNoChanges: options.expectNoChanges,
      programDir,
      entry: path.join(programDir, "index.js"),
      esm: false,
      project: PROJECT,
      stack: STACK,
      cliRoot: path.join(scratch, "cli"),
      cliVersion,
      // After the first operation made the stack, the runner neither tries to make it nor selects it.
      stackExists: configured,
      checkpointFile: stateFile(scratch, PROJECT, STACK),
      envVars: env,
      config,
      resultFile,
    };
    const result = await runnerRequest<RealCliResult>(process.execPath, RUNNER, request, {
      cwd: programDir,
      env: { ...withoutPlatformEnv(), ...env },
    });
    configured = true;
    return result;
  }

  const checkpoint = () => checkpointOf(scratch, PROJECT);
  const groupsNamed = (name: string) => groupsUnder(emu, name);

  test("up creates the group with one POST, refresh is clean, the state has no __provider, destroy deletes it", async () => {
    const up = await run("up");
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    const [group] = await groupsNamed("native team");
    expect(group.description).toBe("made by the native provider");
    expect(up.outputs.uid.value).toBe(group.uid);
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([`POST /iam/v2beta1/groups/${emu.rootUid}`]);

    const state = checkpoint().checkpoint.latest!.resources!;
    const stored = state.find((r) => r.type === "platform:iam:Group")!;
    expect(stored.id).toBe(group.uid);
    expect(stored.outputs).not.toHaveProperty("__provider");
    expect(stored.outputs).toMatchObject({ uid: group.uid, name: "native team", parentUid: emu.rootUid });
    const providerState = state.find((r) => r.type === "pulumi:providers:platform")!;
    expect(JSON.stringify(providerState)).not.toContain(emu.token);
    expect(JSON.stringify(checkpoint())).not.toContain(emu.token);

    const refresh = await run("refresh", { expectNoChanges: true });
    expect(refresh.code).toBe(0);
    const noChanges = await run("preview", { expectNoChanges: true });
    expect(noChanges.code).toBe(0);
    expect(writes()).toHaveLength(1);

    const destroy = await run("destroy");
    expect(destroy.code).toBe(0);
    expect(await groupsNamed("native team")).toEqual([]);
    expect(writes().map((r) => r.method)).toEqual(["POST", "DELETE"]);
  });
});

const YAML_PROJECT = "native-yaml";

const YAML_PROGRAM = `name: ${YAML_PROJECT}
runtime: yaml
plugins:
  providers:
    - name: platform
      path: ${PLUGIN_DIR}
config:
  apiUrl:
    type: string
  token:
    type: string
    secret: true
  rootUid:
    type: string
resources:
  api:
    type: pulumi:providers:platform
    properties:
      apiUrl: \${apiUrl}
      token: \${token}
  team:
    type: platform:iam:Group
    properties:
      parentUid: \${rootUid}
      name: yaml team
      description: declared in YAML
    options:
      provider: \${api}
outputs:
  uid: \${team.id}
`;

describe("the native provider from a YAML program under the real Pulumi CLI (pulumi-yaml's language host)", () => {
  let emu: RunningEmulator;
  let scratch: string;
  let programDir: string;
  let cliDir: string;
  let cli: PlainStack["cli"];
  const writes = () => emu.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    cliDir = pulumiCliDir();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-native-yaml-"));
    programDir = path.join(scratch, "program");
    fs.mkdirSync(programDir);
    fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), YAML_PROGRAM);
    ({ cli } = await plainStack({
      dir: programDir,
      scratch,
      cliDir,
      stack: STACK,
      config: {
        apiUrl: emu.url,
        rootUid: emu.rootUid,
        // The default provider (pulumi import) reads the stack's platform:* config.
        "platform:apiUrl": emu.url,
      },
      secretConfig: { token: emu.token, "platform:token": emu.token },
    }));
  });
  afterAll(async () => {
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  // The drift check and its repair on a YAML program and this plugin folder are the organization
  // story's (tests/realCli/orgHierarchyYaml.test.ts); a clean preview on an explicit provider, the test above's.
  test("up creates the group through an explicit provider, import takes another over through the default provider, destroy deletes both", async () => {
    const up = await cli(["up", "--yes"]);
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    const [group] = await groupsUnder(emu, "yaml team");
    expect(group.description).toBe("declared in YAML");
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([`POST /iam/v2beta1/groups/${emu.rootUid}`]);
    expect(JSON.stringify(checkpointOf(scratch, YAML_PROJECT))).not.toContain(emu.token);

    const made = await fetch(`${emu.url}/iam/v2beta1/groups/${emu.rootUid}`, {
      method: "POST",
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "imported", description: "made elsewhere" }),
    });
    const { uid } = (await made.json()) as { uid: string };
    emu.clearRequests();
    const imported = await cli(["import", "platform:iam:Group", "imported", uid, "--yes", "--protect=false"]);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    // The generated YAML declares the record as it is.
    expect(imported.stdout).toContain(
      "resources:\n  imported:\n    type: platform:iam:Group\n    properties:\n" +
        `      description: made elsewhere\n      name: imported\n      parentUid: ${emu.rootUid}\n`,
    );
    const stored = checkpointOf(scratch, YAML_PROJECT).checkpoint.latest!.resources!.find((r) => r.id === uid)!;
    expect(stored.type).toBe("platform:iam:Group");
    expect(stored.inputs).toMatchObject({ name: "imported", description: "made elsewhere", parentUid: emu.rootUid });
    expect(stored.outputs).not.toHaveProperty("__provider");
    expect(writes()).toEqual([]);

    // The imported group is not in the program: destroy deletes both.
    const destroy = await cli(["destroy", "--yes"]);
    expect(destroy.stderr).toBe("");
    expect(destroy.code).toBe(0);
    expect(await groupsUnder(emu, "yaml team")).toEqual([]);
    expect(await groupsUnder(emu, "imported")).toEqual([]);
  });
});

function checkpointOf(scratch: string, project: string): Checkpoint {
  return JSON.parse(fs.readFileSync(stateFile(scratch, project, STACK), "utf8")) as Checkpoint;
}

async function groupsUnder(emu: RunningEmulator, name: string) {
  const answer = await fetch(`${emu.url}/iam/v2beta1/groups?uidp.children_of=${emu.rootUid}`, {
    headers: { authorization: `Bearer ${emu.token}` },
  });
  const body = (await answer.json()) as { groups: Array<{ uid: string; name: string; description?: string }> };
  return body.groups.filter((g) => g.name === name);
}
