/**
 * A YAML project on the native provider `platform`, run with plain `pulumi` commands by the REAL
 * CLI (pulumi-yaml's language host is built beside it): a scratch folder with a file backend,
 * passphrase secrets and PULUMI_HOME, nothing fetched, the stack's default provider configured
 * with `platform:*` config. A command may also be started and killed mid-run (SIGKILL to every
 * process group below it: the CLI, the language host and the plugin), as a cancelled CI job ends.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as YAML from "yaml";
import { stateFile, stateWrites } from "../../tools/pulumi-cli/cliEnvironment";
import { pulumiCliDir } from "../../tools/pulumi-cli/find";
import { plainStack, StateResource } from "../../tools/pulumi-cli/plainStack";
import { processGroupsBelow } from "../../tools/pulumi-cli/stack";
import type { ProcessResult } from "../../tools/runProcess";
import { pluginFolder } from "./pluginFolder";

export type { StateResource };

const STACK = "dev";

export interface YamlStackOptions {
  /** The project's name, and the scratch folder's label. */
  name: string;
  /** `platform:*` and other stack config, set before the first command (keys as `pulumi config set` takes them). */
  config?: Record<string, string>;
  /** Stack config set with `--secret`. */
  secretConfig?: Record<string, string>;
  /**
   * Write the state after every step of every command. Otherwise only a command begun with `start`
   * (one that may be killed, whose state must show what was under way) does; the others write it
   * once, at their end.
   */
  checkpoints?: boolean;
}

export interface StartedCommand {
  result: Promise<ProcessResult>;
  /** SIGKILL to the command and everything it started; resolves once it has exited. */
  kill(): Promise<void>;
}

export interface YamlStack {
  dir: string;
  /** Runs `pulumi <args> --stack dev --non-interactive --color never` to its end. */
  cli(args: string[], env?: Record<string, string>): Promise<ProcessResult>;
  /** Starts the same, to be killed: it writes the state after every step. */
  start(args: string[], env?: Record<string, string>): StartedCommand;
  /** The program: `resources` (and anything else of a YAML program) below the project's header. */
  declare(program: Record<string, unknown>): void;
  /** `pulumi stack export`'s resources of the type prefix given (all by default). */
  resources(typePrefix?: string): Promise<StateResource[]>;
  /** The stack's state file as the backend holds it (text: what reaches the state). */
  stateText(): string;
  remove(): void;
}

const header = (project: string) =>
  `name: ${project}\nruntime: yaml\nplugins:\n  providers:\n    - name: platform\n      path: ${pluginFolder()}\n`;

export async function yamlStack(options: YamlStackOptions): Promise<YamlStack> {
  const cliDir = pulumiCliDir();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `platform-pulumi-${options.name}-`));
  const dir = path.join(scratch, "program");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), header(options.name));
  const { cli, pulumi, argv, env } = await plainStack({
    dir,
    scratch,
    cliDir,
    stack: STACK,
    config: options.config,
    secretConfig: options.secretConfig,
    checkpoints: options.checkpoints,
  });

  return {
    dir,
    cli,
    start(args, extra = {}) {
      const child = spawn(pulumi, argv(args), {
        cwd: dir,
        env: { ...env, ...stateWrites(true), ...extra },
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const pid = child.pid;
      if (pid === undefined) throw new Error("pulumi did not start");
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const result = new Promise<ProcessResult>((resolve, reject) => {
        child.once("error", reject);
        child.once("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
      });
      return {
        result,
        async kill() {
          for (const group of processGroupsBelow(pid))
            try {
              process.kill(-group, "SIGKILL");
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
            }
          await result;
        },
      };
    },
    declare(program) {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), header(options.name) + YAML.stringify(program));
    },
    async resources(typePrefix = "") {
      const answer = await cli(["stack", "export"]);
      if (answer.code !== 0) throw new Error(`pulumi stack export failed: ${answer.stderr}`);
      const exported = JSON.parse(answer.stdout) as { deployment: { resources?: StateResource[] } };
      return (exported.deployment.resources ?? []).filter((r) => r.type.startsWith(typePrefix));
    },
    stateText: () => fs.readFileSync(stateFile(scratch, options.name, STACK), "utf8"),
    remove: () => fs.rmSync(scratch, { recursive: true, force: true }),
  };
}
