/**
 * A `pulumi` command that runs the program (preview, up, refresh, destroy), read as the Automation
 * API call that stands for it: the same operation with the same flags. Only flags whose meaning
 * the Automation API keeps are accepted; any other is an error naming it, so a command in the
 * docs, the demo or the GitHub Actions example can never be mapped to something it does not say.
 */
import type { RealCliOperation } from "./automation";

export interface ProgramCommand {
  operation: RealCliOperation;
  refresh: boolean;
  expectNoChanges: boolean;
  diff: boolean;
  /** `--stack`/`-s`, when given. */
  stack?: string;
}

const OPERATIONS: readonly RealCliOperation[] = ["preview", "up", "refresh", "destroy"];

/** Flags the Automation API gives by itself: it always confirms (`--yes`; `up` skips its preview), never prompts. */
const IMPLIED = new Set(["--yes", "-y", "--skip-preview", "--non-interactive"]);

/** Whether `argv` (the words after `pulumi`) runs the program, so needs a language runtime. */
export function runsProgram(argv: readonly string[]): boolean {
  return OPERATIONS.includes(argv[0] as RealCliOperation);
}

/** `["preview", "--refresh", "--expect-no-changes"]` → `{ operation: "preview", refresh: true, … }`. */
export function programCommand(argv: readonly string[]): ProgramCommand {
  const [operation, ...flags] = argv;
  if (!runsProgram(argv)) throw new Error(`"pulumi ${argv.join(" ")}" does not run the program`);
  const command: ProgramCommand = {
    operation: operation as RealCliOperation,
    refresh: false,
    expectNoChanges: false,
    diff: false,
  };
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i];
    if (flag === "--refresh" && ["preview", "up"].includes(command.operation)) command.refresh = true;
    else if (flag === "--expect-no-changes" && ["preview", "refresh"].includes(command.operation))
      command.expectNoChanges = true;
    else if (flag === "--diff" && ["preview", "up"].includes(command.operation)) command.diff = true;
    else if (flag === "--stack" || flag === "-s") command.stack = flags[++i];
    else if (flag.startsWith("--stack=")) command.stack = flag.slice("--stack=".length);
    else if (!IMPLIED.has(flag))
      throw new Error(`"pulumi ${argv.join(" ")}": ${flag} has no Automation API equivalent here`);
  }
  return command;
}
