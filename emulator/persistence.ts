/**
 * The state file. Writes go to a temporary file that is fsynced and then renamed over the
 * old one, so a crash leaves either the previous state or the new one, never half of one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Kind, StoredRec } from "./store";

export interface EmulatorState {
  version: 1;
  rootUid: string;
  devToken: string;
  devIdentityUid: string;
  oidcPrivateJwk: object;
  records: Partial<Record<Kind, StoredRec[]>>;
}

export function readState(file: string): EmulatorState | null {
  if (!fs.existsSync(file)) return null;
  const text = fs.readFileSync(file, "utf8");
  let state: EmulatorState;
  try {
    state = JSON.parse(text) as EmulatorState;
  } catch (error) {
    throw new Error(
      `the emulator state file ${file} is not valid JSON (${(error as Error).message}); move it away to start fresh`,
    );
  }
  if (state?.version !== 1 || typeof state.rootUid !== "string")
    throw new Error(`the emulator state file ${file} has an unknown format; move it away to start fresh`);
  return state;
}

export function writeStateAtomically(file: string, state: EmulatorState): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, "w");
  try {
    fs.writeSync(fd, JSON.stringify(state));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

/** Coalesces bursts of writes into one file write; flush() writes what is pending now. */
export class StateWriter {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private file: string,
    private snapshot: () => EmulatorState,
    private delayMs = 25,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    writeStateAtomically(this.file, this.snapshot());
  }

  get pending(): boolean {
    return this.timer !== null;
  }
}
