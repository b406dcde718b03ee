/**
 * A user's shell lines (a guide's, a workflow step's) run against a stack under the real Pulumi
 * CLI, each the way it can run on this machine, and each run says how it ran:
 *
 * - `pulumi …` that does not run the program (login, stack init, config set, stack export, …) and
 *   `mkdir …`: as written, by bash, with the CLI first on PATH, in the program's folder;
 * - `pulumi preview|up|refresh|destroy …`: through the Automation API with the same flags
 *   (tools/pulumi-cli/command.ts), on the same stack, backend and environment, because a CLI built
 *   from its Go modules has no Node.js language host to run the program itself;
 * - `npx platform-pulumi …`: by bash, as npx runs the installed package's bin (`node
 *   node_modules/platform-pulumi/dist/cli.js …`), in the program's folder;
 * - `export NAME=…`: evaluated by bash, and the variables it sets are kept for the lines after it;
 * - `npm install`, `npm ci`, `npm run build` and `cd` into the program: what staging the program
 *   already did (tools/pulumi-cli/stageProgram.ts: its files, the built package installed as a copy).
 *
 * Any other line is an error naming it, so a documented line can never go unexercised unnoticed.
 */
import { spawnSync } from "node:child_process";
import { programCommand, runsProgram } from "../../tools/pulumi-cli/command";
import type { RealCliStack } from "../../tools/pulumi-cli/stack";
import { runProcess } from "../../tools/runProcess";

export type How = "bash, as written" | "Automation API, same flags" | "environment" | "staging";

export interface LineRun {
  line: string;
  how: How;
  code: number;
  stdout: string;
  stderr: string;
}

/** Variables bash sets by itself in every shell. */
const BASH_OWN = new Set(["_", "PWD", "OLDPWD", "SHLVL"]);

const NPX_PLATFORM_PULUMI = "npx platform-pulumi ";

const STAGED_PART = /^(npm (ci|install|run build)|cd \S+)$/;

/** The line without a trailing `# comment`; empty for a comment line. */
export function withoutComment(line: string): string {
  return line.replace(/(^|\s)#\s.*$/, "").trim();
}

export class UserShell {
  /** The variables set so far (the user's own, then what `export` lines set), given to every later line. */
  readonly exported: Record<string, string>;

  constructor(
    private readonly stack: RealCliStack,
    userEnv: Record<string, string> = {},
  ) {
    this.exported = { ...userEnv };
  }

  /** Runs one line; `env` adds variables for this line only (a workflow step's `env:`). */
  async run(text: string, env: Record<string, string> = {}): Promise<LineRun> {
    const line = withoutComment(text);
    const lineEnv = { ...this.stack.env, ...this.exported, ...env };
    if (line.startsWith("export ")) {
      this.exportFrom(line, lineEnv);
      return { line, how: "environment", code: 0, stdout: "", stderr: "" };
    }
    if (line.split(" && ").every((part) => STAGED_PART.test(part.trim()))) {
      return { line, how: "staging", code: 0, stdout: "", stderr: "" };
    }
    if (line.startsWith("mkdir ")) return this.asWritten(line, lineEnv);
    if (line.startsWith(NPX_PLATFORM_PULUMI)) {
      const bin = `node node_modules/platform-pulumi/dist/cli.js ${line.slice(NPX_PLATFORM_PULUMI.length)}`;
      // Not spawnSync: the command may ask a server in this process (a stand-in of GitHub's token endpoint).
      const answer = await runProcess("bash", ["-c", bin], { cwd: this.stack.programDir, env: lineEnv });
      return { line, how: "bash, as written", ...answer };
    }
    if (!line.startsWith("pulumi ")) throw new Error(`no way to run "${line}" here`);
    const argv = words(line.slice("pulumi ".length), lineEnv);
    if (runsProgram(argv)) {
      const command = programCommand(argv);
      if (command.stack !== undefined && command.stack !== this.stack.stack)
        throw new Error(`"${line}" names stack "${command.stack}", the test's is "${this.stack.stack}"`);
      const result = await this.stack.run(command.operation, { ...command, env: { ...this.exported, ...env } });
      return {
        line,
        how: "Automation API, same flags",
        code: result.code,
        stdout: result.stdout,
        stderr: result.stderr,
      };
    }
    return this.asWritten(line, lineEnv);
  }

  private asWritten(line: string, env: NodeJS.ProcessEnv): LineRun {
    const answer = spawnSync("bash", ["-c", line], { cwd: this.stack.programDir, env, encoding: "utf8" });
    if (answer.error) throw answer.error;
    return { line, how: "bash, as written", code: answer.status ?? -1, stdout: answer.stdout, stderr: answer.stderr };
  }

  /** Keeps what an `export` line sets, as bash sets it. */
  private exportFrom(line: string, env: NodeJS.ProcessEnv): void {
    const answer = spawnSync("bash", ["-c", `${line} && env -0`], { env, encoding: "utf8" });
    if (answer.status !== 0) throw new Error(`"${line}" failed: ${answer.stderr}`);
    for (const entry of answer.stdout.split("\0")) {
      const at = entry.indexOf("=");
      const [name, value] = [entry.slice(0, at), entry.slice(at + 1)];
      if (at > 0 && env[name] !== value && !BASH_OWN.has(name)) this.exported[name] = value;
    }
  }
}

/** The words bash makes of `text` (quotes removed, variables expanded). */
function words(text: string, env: NodeJS.ProcessEnv): string[] {
  const answer = spawnSync("bash", ["-c", `printf '%s\\0' ${text}`], { env, encoding: "utf8" });
  if (answer.status !== 0) throw new Error(`bash could not read "${text}": ${answer.stderr}`);
  return answer.stdout.split("\0").slice(0, -1);
}
