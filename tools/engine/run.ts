import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { StackState } from "./state";

export interface EngineRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The state file after the run (undefined if none was written yet). */
  state: StackState | undefined;
}

export interface EngineRunOptions {
  /** The Pulumi project folder (holds Pulumi.yaml). */
  cwd: string;
  /** The state file; required so parallel tests never share one. */
  state: string;
  env?: NodeJS.ProcessEnv;
}

export const engineCli = path.join(__dirname, "cli.js");

/**
 * Runs one engine operation in a child process, like one `pulumi` command:
 * `runEngine(["up", "--config", "rootUid=x"], {cwd, state})`.
 */
export function runEngine(args: string[], options: EngineRunOptions): Promise<EngineRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [engineCli, ...args, "--cwd", options.cwd, "--state", options.state], {
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => {
      const state = fs.existsSync(options.state)
        ? (JSON.parse(fs.readFileSync(options.state, "utf8")) as StackState)
        : undefined;
      resolve({ code: code ?? -1, stdout, stderr, state });
    });
  });
}
