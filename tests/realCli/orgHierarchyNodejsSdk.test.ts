/**
 * examples/org-hierarchy-nodejs, the example organization as a TypeScript program on the classes of
 * the native provider's generated Node.js SDK (@platform-pulumi/platform: `platform.iam.Group`, …,
 * not CustomResources by token), under the REAL Pulumi CLI: the SDK generated from the schema the
 * plugin answers, compiled and packed by npm (tools/pulumi-cli/sdks.ts), its tarball installed into
 * the staged program as a copy, the program compiled against it, and each operation run through the
 * Automation API as an inline program (tools/pulumi-cli/automation.ts). The plugin is the one
 * installed from its archive, found by the name and version the SDK's package.json gives, with only
 * the CLI on the CLI's PATH. The story of tests/support/nativeOrgStory.ts.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { withoutPlatformEnv } from "../../tools/engine/orgProject";
import { repoRoot } from "../../tools/host/stage";
import { runnerRequest } from "../../tools/pulumi-cli/runnerRequest";
import { generateSdks, packNodejsSdk } from "../../tools/pulumi-cli/sdks";
import { describeNativeOrgStory, EXAMPLE_SSO_CLIENT_SECRET, NativeRun } from "../support/nativeOrgStory";

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
    plugin: "archive",
    prepare({ emu, programDir, scratch, cliDir, env }) {
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
      // A release's layout, <root>/bin/pulumi, for PulumiCommand.get({ root }).
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
          const request = {
            ...operation,
            programDir,
            entry: path.join(programDir, "bin", "index.js"),
            esm: false,
            project: PROJECT,
            stack: "dev",
            cliRoot: path.join(scratch, "cli"),
            envVars: env,
            config,
            resultFile: path.join(scratch, `result-${++runs}.json`),
          };
          const result = await runnerRequest<NativeRun>(process.execPath, RUNNER, request, {
            cwd: programDir,
            env: { ...withoutPlatformEnv(), ...env },
          });
          // The stack keeps its config (Pulumi.dev.yaml): set once.
          config = {};
          return result;
        },
      });
    },
  },
);
