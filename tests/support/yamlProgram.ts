/**
 * A YAML program's stack under the real CLI, by plain `pulumi` commands in the staged program's
 * folder (pulumi-yaml's language host is built beside the CLI): the stack set up with the
 * provider's settings, rootUid and the secret, then one command per operation.
 */
import * as path from "node:path";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { runProcess } from "../../tools/runProcess";
import { EXAMPLE_SSO_CLIENT_SECRET, NativeOperation, NativeProgram, NativeStoryContext } from "./nativeOrgStory";

const FLAGS: Record<string, keyof NativeOperation> = {
  "--refresh": "refresh",
  "--expect-no-changes": "expectNoChanges",
  "--diff": "diff",
};

export async function yamlProgram({ emu, programDir, cliDir, env }: NativeStoryContext): Promise<NativeProgram> {
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
}
