/**
 * examples/org-hierarchy-python, the example organization as a Python program on the native
 * provider's generated Python SDK, under the REAL Pulumi CLI: the SDK is generated from the schema
 * the plugin answers and pip-installed (tools/pulumi-cli/sdks.ts), and each operation runs the
 * program inline through Python's Automation API (tools/pulumi-cli/inline_python.py: no Python
 * language host is built). The story of tests/support/nativeOrgStory.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { repoRoot } from "../../tools/host/stage";
import { runnerRequest } from "../../tools/pulumi-cli/runnerRequest";
import { pythonWithPulumiSdk } from "../../tools/pulumi-cli/pythonSdk";
import { generateSdks, installPythonSdk } from "../../tools/pulumi-cli/sdks";
import { describeNativeOrgStory, EXAMPLE_SSO_CLIENT_SECRET, NativeRun } from "../support/nativeOrgStory";

jest.setTimeout(600_000);

const PROJECT = "org-hierarchy-python";
const RUNNER = path.join(repoRoot, "tools", "pulumi-cli", "inline_python.py");

describeNativeOrgStory(
  "the example organization as a Python program on the native provider's Python SDK, under the real Pulumi CLI",
  {
    exampleDir: path.join(repoRoot, "examples", PROJECT),
    project: PROJECT,
    prepare({ emu, programDir, scratch, cliDir, env }) {
      const python = pythonWithPulumiSdk();
      const site = path.join(scratch, "python-site");
      installPythonSdk(python, generateSdks(path.join(scratch, "sdk"), ["python"], cliDir).python, site);
      // A release's layout, <root>/bin/pulumi, for PulumiCommand(root=…).
      fs.mkdirSync(path.join(scratch, "cli"));
      fs.symlinkSync(cliDir, path.join(scratch, "cli", "bin"));
      let config: Record<string, { value: string; secret: boolean }> = {
        "platform:apiUrl": { value: emu.url, secret: false },
        "platform:token": { value: emu.token, secret: true },
        [`${PROJECT}:rootUid`]: { value: emu.rootUid, secret: false },
        [`${PROJECT}:ssoClientSecret`]: { value: EXAMPLE_SSO_CLIENT_SECRET, secret: true },
      };
      let runs = 0;
      return Promise.resolve({
        async run(operation): Promise<NativeRun> {
          const resultFile = path.join(scratch, `result-${++runs}.json`);
          const request = {
            ...operation,
            programDir,
            entry: path.join(programDir, "__main__.py"),
            project: PROJECT,
            stack: "dev",
            cliRoot: path.join(scratch, "cli"),
            envVars: env,
            config,
            resultFile,
          };
          const result = await runnerRequest<NativeRun>(python, RUNNER, request, {
            cwd: programDir,
            env: { ...withoutPlatformEnv(), ...env, PYTHONPATH: site },
          });
          // The stack keeps its config (Pulumi.dev.yaml): set once.
          config = {};
          return result;
        },
      });
    },
  },
);
