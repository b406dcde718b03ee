/**
 * examples/org-hierarchy-yaml, the example organization as a YAML program on the native provider,
 * under the REAL Pulumi CLI by plain `pulumi` commands (pulumi-yaml's language host is built beside
 * the CLI): the story of tests/support/nativeOrgStory.ts. The CI role is looked up by the
 * program with `fn::invoke` of the schema's platform:iam:getRole.
 */
import * as path from "node:path";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { repoRoot } from "../../tools/host/stage";
import { runProcess } from "../../tools/runProcess";
import { describeNativeOrgStory, EXAMPLE_SSO_CLIENT_SECRET, NativeOperation } from "../support/nativeOrgStory";

jest.setTimeout(600_000);

const FLAGS: Record<string, keyof NativeOperation> = {
  "--refresh": "refresh",
  "--expect-no-changes": "expectNoChanges",
  "--diff": "diff",
};

describeNativeOrgStory("the example organization as a YAML program on the native provider, under the real Pulumi CLI", {
  exampleDir: path.join(repoRoot, "examples", "org-hierarchy-yaml"),
  project: "org-hierarchy-yaml",
  async prepare({ emu, programDir, cliDir, env }) {
    // The program looks the built-in role up by name itself (fn::invoke platform:iam:getRole).
    const cli = (args: string[]) =>
      runProcess(path.join(cliDir, "pulumi"), [...args, "--stack", "dev", "--non-interactive", "--color", "never"], {
        cwd: programDir,
        env: { ...withoutPlatformEnv(), ...env },
      });
    const setUp = [
      ["stack", "init", "--secrets-provider", "passphrase"],
      ["config", "set", "platform:apiUrl", emu.url],
      ["config", "set", "--secret", "platform:token", emu.token],
      ["config", "set", "rootUid", emu.rootUid],
      ["config", "set", "--secret", "ssoClientSecret", EXAMPLE_SSO_CLIENT_SECRET],
    ];
    for (const args of setUp) {
      const answer = await cli(args);
      if (answer.code !== 0) throw new Error(`pulumi ${args.slice(0, 3).join(" ")} failed: ${answer.stderr}`);
    }
    return {
      run: (operation) =>
        cli([
          operation.operation,
          ...(operation.operation === "preview" ? [] : ["--yes"]),
          ...Object.entries(FLAGS).flatMap(([flag, key]) => (operation[key] ? [flag] : [])),
        ]),
    };
  },
});
