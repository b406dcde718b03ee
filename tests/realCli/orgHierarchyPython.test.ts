/**
 * examples/org-hierarchy-python, the example organization as a Python program on the native
 * provider's generated Python SDK, under the REAL Pulumi CLI: the SDK is generated from the schema
 * the plugin answers and pip-installed (tools/pulumi-cli/sdks.ts), and each operation runs the
 * program inline through Python's Automation API (tools/pulumi-cli/inline_python.py: no Python
 * language host is built). The short proof of tests/support/nativeOrgStory.ts (up creates
 * the organization, destroy restores it; orgHierarchyYaml.test.ts tells the drift story).
 */
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";
import { pythonWithPulumiSdk } from "../../tools/pulumi-cli/pythonSdk";
import { generateSdks, installPythonSdk } from "../../tools/pulumi-cli/sdks";
import { inlineProgram } from "../support/inlineProgram";
import { describeNativeOrgStory } from "../support/nativeOrgStory";

jest.setTimeout(600_000);

const PROJECT = "org-hierarchy-python";
const RUNNER = path.join(repoRoot, "tools", "pulumi-cli", "inline_python.py");

describeNativeOrgStory(
  "the example organization as a Python program on the native provider's Python SDK, under the real Pulumi CLI",
  {
    exampleDir: path.join(repoRoot, "examples", PROJECT),
    project: PROJECT,
    wholeStory: false,
    prepare(context) {
      const { scratch, cliDir, programDir } = context;
      const python = pythonWithPulumiSdk();
      const site = path.join(scratch, "python-site");
      installPythonSdk(python, generateSdks(path.join(scratch, "sdk"), ["python"], cliDir).python, site);
      return Promise.resolve(
        inlineProgram(context, PROJECT, {
          command: python,
          script: RUNNER,
          request: { entry: path.join(programDir, "__main__.py") },
          env: { PYTHONPATH: site },
        }),
      );
    },
  },
);
