/**
 * examples/org-hierarchy-go, the example organization as a Go program on the native provider's
 * generated Go SDK, under the REAL Pulumi CLI: the SDK generated from the schema the plugin answers
 * (tools/pulumi-cli/sdks.ts), the example built with Go against it (its go.mod and go.sum pin every
 * module, taken from the Go module proxy), and each operation run by the example itself as an inline
 * program through Go's Automation API (`org-hierarchy-go inline REQUEST.json`: no Go language host is
 * built). The plugin is the one installed from its archive, found by the version the SDK names, with
 * only the CLI on the CLI's PATH. The short proof of tests/support/nativeOrgStory.ts (up creates
 * the organization, destroy restores it; orgHierarchyYaml.test.ts tells the drift story).
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";
import { generateSdks } from "../../tools/pulumi-cli/sdks";
import { inlineProgram } from "../support/inlineProgram";
import { describeNativeOrgStory } from "../support/nativeOrgStory";

jest.setTimeout(900_000);

const PROJECT = "org-hierarchy-go";
const SDK_MODULE = "github.com/platform-pulumi/platform-pulumi/sdk/go";

function go(args: string[], cwd: string): void {
  const answer = spawnSync("go", args, {
    cwd,
    encoding: "utf8",
    timeout: 600_000,
    // go.sum must already hold every module: nothing is added to it here.
    env: { ...process.env, GOFLAGS: "-mod=readonly", GOWORK: "off", CGO_ENABLED: "0" },
  });
  if (answer.error || answer.status !== 0)
    throw new Error(`go ${args.join(" ")} failed: ${answer.error?.message ?? ""}${answer.stdout}${answer.stderr}`);
}

describeNativeOrgStory(
  "the example organization as a Go program on the native provider's Go SDK, under the real Pulumi CLI",
  {
    exampleDir: path.join(repoRoot, "examples", PROJECT),
    project: PROJECT,
    wholeStory: false,
    plugin: "archive",
    prepare(context) {
      const { programDir, scratch, cliDir } = context;
      const sdk = generateSdks(path.join(scratch, "sdk"), ["go"], cliDir).go;
      go(["mod", "edit", `-replace=${SDK_MODULE}=${sdk}`], programDir);
      const program = path.join(scratch, PROJECT);
      // -trimpath: the build cache then serves a later run from another scratch folder.
      go(["build", "-trimpath", "-o", program, "."], programDir);
      // The example runs its operations itself: `org-hierarchy-go inline REQUEST.json`.
      return Promise.resolve(inlineProgram(context, PROJECT, { command: program, script: "inline" }));
    },
  },
);
