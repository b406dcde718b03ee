/**
 * A program run inline through an Automation API runner (Node.js: tools/pulumi-cli/automation.ts;
 * Python: inline_python.py; Go: the example's own `inline` command), one runner process per
 * operation: the stack's settings (the provider's, rootUid, the secret) set with the first one, the
 * CLI found at a release's layout (<root>/bin/pulumi) in the scratch folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { withoutPlatformEnv } from "../../tools/orgProject";
import { runnerRequest } from "../../tools/pulumi-cli/runnerRequest";
import { EXAMPLE_SSO_CLIENT_SECRET, NativeProgram, NativeRun, NativeStoryContext } from "./nativeOrgStory";

export function inlineProgram(
  { emu, programDir, scratch, cliDir, env }: NativeStoryContext,
  project: string,
  runner: {
    /** The runner's command and its first argument; the request file follows. */
    command: string;
    script: string;
    /** What this runner's request carries besides the operation and the stack (the program's entry, …). */
    request?: Record<string, unknown>;
    /** The runner process's own environment, beside the CLI's. */
    env?: Record<string, string>;
  },
): NativeProgram {
  const cliRoot = path.join(scratch, "cli");
  fs.mkdirSync(cliRoot);
  fs.symlinkSync(cliDir, path.join(cliRoot, "bin"));
  let config: Record<string, { value: string; secret: boolean }> = {
    "platform:apiUrl": { value: emu.url, secret: false },
    "platform:token": { value: emu.token, secret: true },
    [`${project}:rootUid`]: { value: emu.rootUid, secret: false },
    [`${project}:ssoClientSecret`]: { value: EXAMPLE_SSO_CLIENT_SECRET, secret: true },
  };
  let runs = 0;
  return {
    async run(operation): Promise<NativeRun> {
      const request = {
        ...operation,
        ...runner.request,
        programDir,
        project,
        stack: "dev",
        cliRoot,
        envVars: env,
        config,
        resultFile: path.join(scratch, `result-${++runs}.json`),
      };
      const result = await runnerRequest<NativeRun>(runner.command, runner.script, request, {
        cwd: programDir,
        env: { ...withoutPlatformEnv(), ...env, ...runner.env },
      });
      // The stack keeps its config (Pulumi.dev.yaml): set once.
      config = {};
      return result;
    },
  };
}
