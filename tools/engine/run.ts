import { spawn } from "node:child_process";
import * as path from "node:path";
import { readState, StackState } from "./state";

export interface EngineRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The state file after the run (undefined if none was written yet). */
  state: StackState | undefined;
  /** Set when the run was killed on purpose (see killAfter). */
  killed?: boolean;
}

export interface EngineRunOptions {
  /** The Pulumi project folder (holds Pulumi.yaml). */
  cwd: string;
  /** The state file; required so parallel tests never share one. */
  state: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Test-only: `"creating:<name>"` (or `updating:`, `deleting:`) kills the engine and its
   * provider host with SIGKILL right after that provider call answered and before the engine
   * saved its result, as a power cut or `kill -9` would.
   */
  killAfter?: string;
}

export const engineCli = path.join(__dirname, "cli.js");

/** The line the engine prints when LOCAL_ENGINE_HOLD_AFTER stops it (see cli.ts). */
const HELD = /^held after \S+ \S+ \(engine pid (\d+), host pid (\d+)\)$/m;

/**
 * Runs one engine operation in a child process, like one `pulumi` command:
 * `runEngine(["up", "--config", "rootUid=x"], {cwd, state})`.
 */
export function runEngine(args: string[], options: EngineRunOptions): Promise<EngineRun> {
  return new Promise((resolve, reject) => {
    const env = { ...(options.env ?? process.env) };
    if (options.killAfter) env.LOCAL_ENGINE_HOLD_AFTER = options.killAfter;
    else delete env.LOCAL_ENGINE_HOLD_AFTER;
    const child = spawn(process.execPath, [engineCli, ...args, "--cwd", options.cwd, "--state", options.state], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let killed = false;
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const held = options.killAfter && !killed ? HELD.exec(stdout) : null;
      if (held) {
        killed = true;
        process.kill(Number(held[1]), "SIGKILL");
        // The host is the engine's child: like a plugin after its CLI is killed, it would linger.
        process.kill(Number(held[2]), "SIGKILL");
      }
    });
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => {
      const state = readState(options.state);
      resolve({ code: code ?? -1, stdout, stderr, state, ...(killed ? { killed } : {}) });
    });
  });
}
