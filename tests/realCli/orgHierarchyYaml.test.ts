/**
 * examples/org-hierarchy-yaml, the example organization as a YAML program on the native provider,
 * under the REAL Pulumi CLI by plain `pulumi` commands (pulumi-yaml's language host is built beside
 * the CLI): the story of tests/support/nativeOrgStory.ts.
 */
import * as path from "node:path";
import { call, OrgRecord } from "../../tools/engine/orgApi";
import { withoutPlatformEnv } from "../../tools/engine/orgProject";
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
    const cli = (args: string[]) =>
      runProcess(path.join(cliDir, "pulumi"), [...args, "--stack", "dev", "--non-interactive", "--color", "never"], {
        cwd: programDir,
        env: { ...withoutPlatformEnv(), ...env },
      });
    // The program takes the built-in role by its uid (its schema declares no getRole yet).
    const { roles } = await call<{ roles: OrgRecord[] }>(
      { url: emu.url, token: emu.token },
      "GET",
      "/iam/v2beta1/roles",
    );
    const viewer = roles.find((role) => role.name === "viewer")!;
    const setUp = [
      ["stack", "init", "--secrets-provider", "passphrase"],
      ["config", "set", "platform:apiUrl", emu.url],
      ["config", "set", "--secret", "platform:token", emu.token],
      ["config", "set", "rootUid", emu.rootUid],
      ["config", "set", "ciRoleUid", viewer.uid],
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
