/**
 * examples/org-hierarchy-nodejs, the example organization as a TypeScript program on the classes of
 * the native provider's generated Node.js SDK (@platform-pulumi/platform: `platform.iam.Group`, …,
 * not CustomResources by token), under the REAL Pulumi CLI: the SDK generated from the schema the
 * plugin answers, compiled and packed by npm (tools/pulumi-cli/sdks.ts), its tarball installed into
 * the staged program as a copy, the program compiled against it, and each operation run through the
 * Automation API as an inline program (tools/pulumi-cli/automation.ts). The plugin is the one
 * installed from its archive, found by the name and version the SDK's package.json gives, with only
 * the CLI on the CLI's PATH. The short proof of tests/support/nativeOrgStory.ts (up creates
 * the organization, destroy restores it; orgHierarchyYaml.test.ts tells the drift story).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../tools/host/stage";
import { generateSdks, packNodejsSdk } from "../../tools/pulumi-cli/sdks";
import { inlineProgram } from "../support/inlineProgram";
import { describeNativeOrgStory } from "../support/nativeOrgStory";

jest.setTimeout(900_000);

const PROJECT = "org-hierarchy-nodejs";
const RUNNER = path.join(repoRoot, "dist", "tools", "pulumi-cli", "automation.js");

function run(file: string, args: string[], cwd: string): void {
  const answer = spawnSync(file, args, { cwd, encoding: "utf8", timeout: 600_000 });
  if (answer.error || answer.status !== 0)
    throw new Error(
      `${path.basename(file)} ${args.join(" ")} failed: ${answer.error?.message ?? ""}${answer.stdout}${answer.stderr}`,
    );
}

describeNativeOrgStory(
  "the example organization as a TypeScript program on the native provider's Node.js SDK classes, under the real Pulumi CLI",
  {
    exampleDir: path.join(repoRoot, "examples", PROJECT),
    project: PROJECT,
    wholeStory: false,
    plugin: "archive",
    prepare(context) {
      const { programDir, scratch, cliDir } = context;
      const tarball = packNodejsSdk(generateSdks(path.join(scratch, "sdk"), ["nodejs"], cliDir).nodejs, scratch);
      // The SDK installed from its tarball as a copy (what npm install does with it); the Pulumi SDK
      // and the type declarations are the repository's, one runtime for the program and the runner.
      const modules = path.join(programDir, "node_modules");
      const sdk = path.join(modules, "@platform-pulumi", "platform");
      fs.mkdirSync(sdk, { recursive: true });
      run("tar", ["-xzf", tarball, "-C", sdk, "--strip-components=1"], scratch);
      for (const scope of ["@pulumi", "@types"])
        fs.symlinkSync(path.join(repoRoot, "node_modules", scope), path.join(modules, scope));
      run(
        process.execPath,
        [path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", programDir],
        programDir,
      );
      return Promise.resolve(
        inlineProgram(context, PROJECT, {
          command: process.execPath,
          script: RUNNER,
          request: { entry: path.join(programDir, "bin", "index.js"), esm: false },
        }),
      );
    },
  },
);
