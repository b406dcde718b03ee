/**
 * A small Pulumi program (TypeScript source written to a scratch folder, or a folder of its own)
 * run by the real Pulumi CLI against an API: a stack of tools/pulumi-cli/stack.ts with the API's
 * URL as config and its token as secret config, as `pulumi config set [--secret]` would store them.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { programCommand } from "../../tools/pulumi-cli/command";
import { nodeProgramFolder } from "../../tools/pulumi-cli/programFolder";
import { CheckpointResource, RealCliRun, RealCliRunOptions, realCliStack, RealCliStack } from "./realCli";

export interface ProgramProject {
  /** The stack under the real CLI: its checkpoint, `cli` for commands that run no program. */
  stack: RealCliStack;
  /**
   * One command as a user types it after `pulumi` (`"up"`, `"preview --refresh --expect-no-changes"`),
   * with this run's config on top of what earlier runs set: keys without a namespace are the
   * program's own (`rootUid` is `<project>:rootUid`).
   */
  run(command: string, config?: Record<string, string>, options?: RealCliRunOptions): Promise<RealCliRun>;
  /** The program's custom resources in the stack's state (not the stack, not the default provider). */
  resources(): CheckpointResource[];
  /** The resource of that name in the state, if it is there. */
  resource(name: string): CheckpointResource | undefined;
  remove(): void;
}

export function programProject(options: {
  /** The Pulumi project name; it also names the scratch folders. */
  name: string;
  /** The program: its TypeScript source, or a folder holding Pulumi.yaml and index.ts (or index.js). */
  program: { source: string } | { dir: string };
  /** The API; without a token the program logs in some other way its config or environment says. */
  api: { url: string; token?: string };
  /** Secret config set with the stack (short keys are the program's own). */
  secretConfig?: Record<string, string>;
  /** Compile index.ts to an ES module (loaded with import()) instead of CommonJS. */
  esm?: boolean;
}): ProgramProject {
  let scratch: string | undefined;
  let programDir: string;
  if ("dir" in options.program) programDir = options.program.dir;
  else {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), `platform-pulumi-program-${options.name}-`));
    programDir = nodeProgramFolder(scratch, options.name, options.program.source);
  }
  const key = (name: string) => (name.includes(":") ? name : `${options.name}:${name}`);
  const qualified = (config: Record<string, string>) =>
    Object.fromEntries(Object.entries(config).map(([name, value]) => [key(name), value]));
  const stack = realCliStack({
    programDir,
    project: options.name,
    label: options.name,
    esm: options.esm,
    config: { "platform:apiUrl": options.api.url },
    secretConfig: {
      ...(options.api.token === undefined ? {} : { "platform:token": options.api.token }),
      ...qualified(options.secretConfig ?? {}),
    },
  });
  // What the stack's config holds: a run sets only what it changes (each set is one more CLI call).
  const set = new Map<string, string>();
  const resources = () =>
    (stack.checkpoint()?.checkpoint.latest?.resources ?? []).filter(
      (r) => r.custom && !r.type.startsWith("pulumi:providers:"),
    );
  return {
    stack,
    run: (command, config = {}, runOptions = {}) => {
      const { operation, refresh, expectNoChanges, diff } = programCommand(command.split(" "));
      const changed = Object.fromEntries(Object.entries(qualified(config)).filter(([name, v]) => set.get(name) !== v));
      for (const [name, value] of Object.entries(changed)) set.set(name, value);
      return stack.run(operation, {
        refresh,
        expectNoChanges,
        diff,
        ...runOptions,
        config: { ...changed, ...runOptions.config },
        secretConfig: runOptions.secretConfig && qualified(runOptions.secretConfig),
      });
    },
    resources,
    resource: (name) => resources().find((r) => r.urn.endsWith(`::${name}`)),
    remove: () => {
      stack.remove();
      if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}
