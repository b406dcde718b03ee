/**
 * A YAML program's stack under the real CLI, by plain `pulumi` commands in the staged program's
 * folder (pulumi-yaml's language host is built beside the CLI): the stack set up with the
 * provider's settings, rootUid and the secret, then one command per operation.
 */
import { plainStack } from "../../tools/pulumi-cli/plainStack";
import { EXAMPLE_SSO_CLIENT_SECRET, NativeOperation, NativeProgram, NativeStoryContext } from "./nativeOrgStory";

const FLAGS: Record<string, keyof NativeOperation> = {
  "--refresh": "refresh",
  "--expect-no-changes": "expectNoChanges",
  "--diff": "diff",
};

export async function yamlProgram({
  emu,
  scratch,
  programDir,
  cliDir,
  env,
}: NativeStoryContext): Promise<NativeProgram> {
  const { cli } = await plainStack({
    dir: programDir,
    scratch,
    cliDir,
    env,
    config: { "platform:apiUrl": emu.url, rootUid: emu.rootUid },
    secretConfig: { "platform:token": emu.token, ssoClientSecret: EXAMPLE_SSO_CLIENT_SECRET },
  });
  return {
    run: (operation) =>
      cli([
        operation.operation,
        ...(operation.operation === "preview" ? [] : ["--yes"]),
        ...Object.entries(FLAGS).flatMap(([flag, key]) => (operation[key] ? [flag] : [])),
      ]),
  };
}
