/**
 * A project's stack driven by plain `pulumi` commands, as a user types them in the project's
 * folder: the stack made with passphrase secrets on the file backend of `cliEnvironment(scratch)`,
 * its config set, then `pulumi <args> --stack <stack> --non-interactive --color never` on demand.
 * No PLATFORM_* variable of this process reaches the CLI: a command sees only its stack's config.
 */
import * as path from "node:path";
import { withoutPlatformEnv } from "../orgProject";
import { ProcessResult, runProcess } from "../runProcess";
import { cliEnvironment } from "./cliEnvironment";

export interface PlainStackOptions {
  /** The project's folder (its Pulumi.yaml). */
  dir: string;
  /** Where the CLI's home and file backend live. */
  scratch: string;
  cliDir: string;
  /** The stack's name; `dev` unless said. */
  stack?: string;
  /** Stack config set before the first command (keys as `pulumi config set` takes them). */
  config?: Record<string, string>;
  /** Stack config set with `--secret`. */
  secretConfig?: Record<string, string>;
  /** Added to the CLI's environment for every command (a PATH of its own, say). */
  env?: Record<string, string>;
  /** Write the state after every step (see cliEnvironment); by default once, at each operation's end. */
  checkpoints?: boolean;
}

export interface PlainStack {
  /** Runs `pulumi <args>` on the stack to its end; `env` is added to the stack's environment. */
  cli(args: string[], env?: Record<string, string>): Promise<ProcessResult>;
  /** The CLI's executable, and the arguments and environment of `pulumi <args>`: for a run started to be killed. */
  pulumi: string;
  argv(args: string[]): string[];
  env: NodeJS.ProcessEnv;
}

/** One resource of a stack's state, as `pulumi stack export` and the file backend hold it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export async function plainStack(options: PlainStackOptions): Promise<PlainStack> {
  const env: NodeJS.ProcessEnv = {
    ...withoutPlatformEnv(),
    ...cliEnvironment(options.scratch, options.cliDir, { checkpoints: options.checkpoints }),
    ...options.env,
  };
  const pulumi = path.join(options.cliDir, "pulumi");
  const argv = (args: string[]) => [
    ...args,
    "--stack",
    options.stack ?? "dev",
    "--non-interactive",
    "--color",
    "never",
  ];
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    runProcess(pulumi, argv(args), { cwd: options.dir, env: { ...env, ...extra } });
  const init = await cli(["stack", "init", "--secrets-provider", "passphrase"]);
  if (init.code !== 0) throw new Error(`pulumi stack init failed: ${init.stderr}`);
  // All the config in one process (one CLI start, not one a key), as `pulumi config set` stores each.
  const pairs = [
    ...Object.entries(options.config ?? {}).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]),
    ...Object.entries(options.secretConfig ?? {}).flatMap(([key, value]) => ["--secret", `${key}=${value}`]),
  ];
  if (pairs.length > 0) {
    const answer = await cli(["config", "set-all", ...pairs]);
    // Never the values, which may be secrets: the keys only.
    const keys = [...Object.keys(options.config ?? {}), ...Object.keys(options.secretConfig ?? {})];
    if (answer.code !== 0) throw new Error(`pulumi config set-all (${keys.join(", ")}) failed: ${answer.stderr}`);
  }
  return { cli, pulumi, argv, env };
}
