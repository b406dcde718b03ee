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
  if (!fs.existsSync(file)) return emptyState(project, stack);
  let parsed: StackState;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8")) as StackState;
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); restore it or remove it to start afresh`);
  }
  if (parsed?.version !== 1 || !Array.isArray(parsed.resources)) {
    throw new Error(`${file} is not a state file of this engine (expected {"version": 1, "resources": [...]})`);
  }
  return parsed;
}

/**
 * Written after every step, whole and atomically: a run that is interrupted keeps everything
 * done before the interruption (and the pending operation it was in), and a reader never
 * sees half a file.
 */
export function saveState(file: string, state: StackState): void {
  if (state.pendingOperations?.length === 0) delete state.pendingOperations;
  writeFileAtomic(file, JSON.stringify(state, null, 2) + "\n");
}
