/**
 * The native provider from a Python program under the REAL Pulumi CLI, on the emulator: Pulumi's
 * Python SDK from PyPI (tools/pulumi-cli/pythonSdk.ts) runs native/python/group.py as an
 * Automation API inline program (tools/pulumi-cli/inline_python.py: no Python language host is
 * built), one operation a run; the program declares a group by its
 * type token with an explicit provider resource; the CLI finds the plugin through Pulumi.yaml
 * `plugins.providers`. Up creates the group with one POST, preview --refresh --expect-no-changes is
 * clean, destroy deletes it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { withoutPlatformEnv } from "../tools/orgProject";
import { repoRoot } from "../tools/host/stage";
import { cliEnvironment } from "../tools/pulumi-cli/cliEnvironment";
import { pulumiCliDir } from "../tools/pulumi-cli/find";
import { runnerRequest } from "../tools/pulumi-cli/runnerRequest";
import { pythonWithPulumiSdk } from "../tools/pulumi-cli/pythonSdk";

jest.setTimeout(600_000);

const PROJECT = "native-python";
const PROGRAM = path.join(repoRoot, "native", "python", "group.py");
const RUNNER = path.join(repoRoot, "tools", "pulumi-cli", "inline_python.py");

interface Answer {
  operation: string;
  code: number;
  stdout: string;
  stderr: string;
  outputs?: Record<string, { value: unknown; secret: boolean }>;
}

describe("the native provider from a Python program under the real Pulumi CLI (Automation API, file backend)", () => {
  let emu: RunningEmulator;
  let scratch: string;

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-native-python-"));
  });
  afterAll(async () => {
    await emu?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  test("up creates the group with one POST, preview --refresh --expect-no-changes is clean, destroy deletes it", async () => {
    const python = pythonWithPulumiSdk();
    const cliDir = pulumiCliDir();
    const programDir = path.join(scratch, "program");
    fs.mkdirSync(programDir);
    fs.writeFileSync(
      path.join(programDir, "Pulumi.yaml"),
      `name: ${PROJECT}\nruntime: python\nplugins:\n  providers:\n    - name: platform\n      path: ${path.join(repoRoot, "native")}\n`,
    );
    fs.mkdirSync(path.join(scratch, "cli"));
    fs.symlinkSync(cliDir, path.join(scratch, "cli", "bin"));
    const envVars = cliEnvironment(scratch, cliDir);
    const config = {
      [`${PROJECT}:apiUrl`]: { value: emu.url, secret: false },
      [`${PROJECT}:token`]: { value: emu.token, secret: true },
      [`${PROJECT}:rootUid`]: { value: emu.rootUid, secret: false },
      [`${PROJECT}:groupName`]: { value: "python team", secret: false },
    };
    const operations = [
      { name: "up", operation: "up" },
      { name: "preview --refresh --expect-no-changes", operation: "preview", refresh: true, expectNoChanges: true },
      { name: "destroy", operation: "destroy" },
    ];
    const answers: Answer[] = [];
    for (const [index, { name, ...operation }] of operations.entries()) {
      const request = {
        ...operation,
        stack: "dev",
        project: PROJECT,
        programDir,
        entry: PROGRAM,
        cliRoot: path.join(scratch, "cli"),
        envVars,
        // The stack keeps its config (Pulumi.dev.yaml): set by the first run.
        config: index === 0 ? config : {},
        resultFile: path.join(scratch, `result-${index}.json`),
      };
      const answer = await runnerRequest<Omit<Answer, "operation">>(python, RUNNER, request, {
        cwd: programDir,
        env: { ...withoutPlatformEnv(), ...envVars },
      });
      answers.push({ operation: name, ...answer });
      if (answer.code !== 0) break;
    }
    const [up, clean, destroy] = answers;

    expect(up).toMatchObject({ operation: "up", code: 0, stderr: "" });
    expect(up.stdout).toContain("+ 3 created");
    const uid = String(up.outputs?.uid.value);
    expect(uid.startsWith(`${emu.rootUid}/`)).toBe(true);

    expect(clean).toMatchObject({ operation: "preview --refresh --expect-no-changes", code: 0, stderr: "" });
    expect(destroy).toMatchObject({ operation: "destroy", code: 0, stderr: "" });
    // One POST (up), nothing (the clean preview), one DELETE (destroy).
    expect(
      emu
        .requests()
        .filter((r) => r.method !== "GET")
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([`POST /iam/v2beta1/groups/${emu.rootUid}`, `DELETE /iam/v2beta1/groups/${uid}`]);
  });
});
