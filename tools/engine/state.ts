/**
 * The engine's state between runs: a snapshot (`state.json`) and, beside it, an append-only
 * journal (`state.json.journal`) of the changes made since, one JSON line each, synced before the
 * step it records goes on. A run records each provider call in one line before the call and one
 * after (its result and the end of the pending operation together), so a run of N resources
 * writes O(N) bytes; rewriting the whole file around every call wrote O(N²) (1,000 groups: ~1 MB
 * × 2,000 writes). Reading replays the journal over the snapshot; a full save (at the start and
 * end of each phase of a run) writes a new snapshot and starts an empty journal.
 */
import * as fs from "node:fs";
import { writeFileAtomic } from "../files";
import { Props } from "./wire";

/** One resource as the engine remembers it between runs. */
export interface ResourceState {
  urn: string;
  type: string;
  /** Provider-assigned id; empty for component resources (the stack itself, components). */
  id: string;
  custom: boolean;
  /** The checked inputs the resource was last created or updated with. */
  inputs: Props;
  /** What the provider returned (for dynamic resources this includes `__provider`). */
  outputs: Props;
  /** URNs this resource depends on (its parent included): they are deleted after it. */
  dependencies: string[];
  parent?: string;
  /** Read with `Resource.get`: tracked, refreshed, never deleted. */
  external?: boolean;
  protect?: boolean;
  retainOnDelete?: boolean;
  /** Top-level properties the program marked secret: never printed. */
  secretProperties?: string[];
  /** Replaced (create-before-delete) and waiting for its delete at the end of the run. */
  pendingDelete?: boolean;
}

/**
 * A provider call the engine started and has not seen finish, as the real engine's checkpoint
 * records it: written before the call, removed in the same save that records its result. One
 * left behind means the run was interrupted and the service may hold a change the state lacks.
 */
export interface PendingOperation {
  operation: "creating" | "updating" | "deleting";
  /** The resource as it will be stored once the call succeeds (for a create: everything but id and outputs). */
  resource: Omit<ResourceState, "id" | "outputs"> & { id?: string; outputs?: Props };
  /** When the call was sent (ISO 8601). */
  startedAt: string;
}

export interface StackState {
  version: 1;
  project: string;
  stack: string;
  /**
   * Which journal lines belong to this snapshot: those written with the same generation. A crash
   * after a new snapshot and before the old journal is removed leaves lines of an older
   * generation, which are skipped (the snapshot already holds them).
   */
  generation?: number;
  resources: ResourceState[];
  /** Provider calls under way; see PendingOperation. Absent when there are none. */
  pendingOperations?: PendingOperation[];
  /** Stack outputs in wire form (secrets stay wrapped so they are never printed). */
  outputs: Props;
}

export function emptyState(project: string, stack: string): StackState {
  return { version: 1, project, stack, resources: [], outputs: {} };
}

export function loadState(file: string, project: string, stack: string): StackState {
  return readState(file, emptyState(project, stack)) ?? emptyState(project, stack);
}

/**
 * The state `file` and its journal hold, or undefined when there is neither. A journal without
 * a snapshot (a first run interrupted) is replayed over `empty`.
 */
export function readState(file: string, empty: StackState = emptyState("", "")): StackState | undefined {
  const journal = journalLines(file);
  if (!fs.existsSync(file) && journal.length === 0) return undefined;
  let parsed: StackState;
  try {
    parsed = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as StackState) : empty;
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); restore it or remove it to start afresh`);
  }
  if (parsed?.version !== 1 || !Array.isArray(parsed.resources)) {
    throw new Error(`${file} is not a state file of this engine (expected {"version": 1, "resources": [...]})`);
  }
  const generation = parsed.generation ?? 0;
  for (const line of journal) if (line.g === generation) applyChange(parsed, line.c);
  if (parsed.pendingOperations?.length === 0) delete parsed.pendingOperations;
  return parsed;
}

/**
 * Written whole and atomically, as a new generation: a reader never sees half a file. The
 * journal of the previous generation is removed after the snapshot that holds its changes.
 */
export function saveState(file: string, state: StackState): void {
  if (state.pendingOperations?.length === 0) delete state.pendingOperations;
  state.generation = (state.generation ?? 0) + 1;
  writeFileAtomic(file, JSON.stringify(state, null, 2) + "\n");
  fs.rmSync(journalFile(file), { force: true });
}

export const journalFile = (stateFile: string) => `${stateFile}.journal`;

/** A pending operation's identity in the journal: one resource has one call of a kind under way. */
export interface PendingKey {
  operation: PendingOperation["operation"];
  urn: string;
  startedAt: string;
}

/** One change to the state, as the journal records it and as a run makes it. */
export type StateChange =
  /** The live entry with this URN is replaced by `put`, or `put` is appended. */
  | { put: ResourceState }
  /** The live entry with this URN and id is marked replaced and waiting for its delete. */
  | { markPendingDelete: { urn: string; id: string } }
  | { remove: { urn: string; id: string; pendingDelete: boolean } }
  | { outputs: Props }
  /** A provider call starts. */
  | { begin: PendingOperation }
  /** A provider call answered: the pending operation ends, and `then` records its result (in the same line). */
  | { end: PendingKey; then?: StateChange };

const live = (r: ResourceState) => !r.pendingDelete;

/**
 * Where each URN's live entry sits in `state.resources`, so a run of N puts costs O(N), not
 * O(N²). Built on the first put and kept by applyChange; the array's length when it was last in
 * step, and a look at the entry it points to, tell when someone else changed the array (a
 * refresh drops what is gone), and it is rebuilt then.
 */
const liveIndexes = new WeakMap<StackState, { urns: Map<string, number>; length: number }>();

function liveIndexOf(state: StackState, urn: string): number {
  const resources = state.resources;
  let index = liveIndexes.get(state);
  const at = index?.urns.get(urn);
  if (at !== undefined && resources[at]?.urn === urn && live(resources[at])) return at;
  if (index && at === undefined && index.length === resources.length) return -1;
  index = { urns: new Map(), length: resources.length };
  resources.forEach((r, i) => live(r) && index.urns.set(r.urn, i));
  liveIndexes.set(state, index);
  return index.urns.get(urn) ?? -1;
}

/** Makes `change` on `state` in memory; the same function replays the journal. */
export function applyChange(state: StackState, change: StateChange): void {
  const resources = state.resources;
  if ("put" in change) {
    const at = liveIndexOf(state, change.put.urn);
    if (at >= 0) resources[at] = change.put;
    else {
      resources.push(change.put);
      const index = liveIndexes.get(state);
      if (index) {
        index.urns.set(change.put.urn, resources.length - 1);
        index.length = resources.length;
      }
    }
  } else if ("markPendingDelete" in change) {
    const { urn, id } = change.markPendingDelete;
    const entry = resources.find((r) => r.urn === urn && r.id === id && live(r));
    if (entry) entry.pendingDelete = true;
    liveIndexes.get(state)?.urns.delete(urn);
  } else if ("remove" in change) {
    const { urn, id, pendingDelete } = change.remove;
    const at = resources.findIndex((r) => r.urn === urn && r.id === id && !!r.pendingDelete === pendingDelete);
    if (at >= 0) resources.splice(at, 1);
    liveIndexes.delete(state);
  } else if ("outputs" in change) {
    state.outputs = change.outputs;
  } else if ("begin" in change) {
    (state.pendingOperations ??= []).push(change.begin);
  } else {
    const { operation, urn, startedAt } = change.end;
    const pending = state.pendingOperations ?? [];
    const at = pending.findIndex(
      (op) => op.operation === operation && op.resource.urn === urn && op.startedAt === startedAt,
    );
    if (at >= 0) pending.splice(at, 1);
    if (change.then) applyChange(state, change.then);
  }
}

export const pendingKey = (op: PendingOperation): PendingKey => ({
  operation: op.operation,
  urn: op.resource.urn,
  startedAt: op.startedAt,
});

/**
 * Appends changes to `file`'s journal. `append` resolves once its line is synced: only then is
 * the step it records acknowledged (a provider call starts, a result is given to the program),
 * so a crash loses nothing acknowledged. The lines appended in one turn of the event loop are
 * written and synced together (one fdatasync, ~2 ms here, for all the calls a program starts at
 * once). A line cut short by a crash was never acknowledged; reading skips it.
 */
export class StateJournal {
  private fd: number | undefined;
  /** The generation the open journal belongs to: a full save since starts a new journal file. */
  private openedFor = -1;
  private waiting: string[] = [];
  private flushed: Promise<void> | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly stateFile: string,
    private readonly state: StackState,
  ) {}

  append(change: StateChange): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    this.waiting.push(JSON.stringify({ g: this.state.generation ?? 0, c: change }) + "\n");
    this.flushed ??= new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        this.flushed = undefined;
        try {
          this.flush();
          resolve();
        } catch (error) {
          this.failure = error as Error;
          reject(this.failure);
        }
      }),
    );
    return this.flushed;
  }

  private flush(): void {
    const lines = this.waiting.join("");
    this.waiting = [];
    const generation = this.state.generation ?? 0;
    if (this.fd === undefined || this.openedFor !== generation) {
      this.closeFile();
      this.fd = fs.openSync(journalFile(this.stateFile), "a");
      this.openedFor = generation;
    }
    fs.writeSync(this.fd, lines);
    fs.fdatasyncSync(this.fd);
  }

  /** Writes what is still waiting and closes the file. */
  close(): void {
    if (this.waiting.length > 0 && !this.failure) this.flush();
    this.closeFile();
  }

  private closeFile(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

function journalLines(file: string): { g: number; c: StateChange }[] {
  let text: string;
  try {
    text = fs.readFileSync(journalFile(file), "utf8");
  } catch {
    return [];
  }
  const lines: { g: number; c: StateChange }[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      lines.push(JSON.parse(line) as { g: number; c: StateChange });
    } catch {
      // The last line, cut short by a crash while it was written: never acknowledged.
      break;
    }
  }
  return lines;
}
