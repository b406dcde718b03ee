import * as fs from "node:fs";
import * as path from "node:path";
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

export interface StackState {
  version: 1;
  project: string;
  stack: string;
  resources: ResourceState[];
  /** Stack outputs in wire form (secrets stay wrapped so they are never printed). */
  outputs: Props;
}

export function emptyState(project: string, stack: string): StackState {
  return { version: 1, project, stack, resources: [], outputs: {} };
}

export function loadState(file: string, project: string, stack: string): StackState {
  if (!fs.existsSync(file)) return emptyState(project, stack);
  const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as StackState;
  if (parsed.version !== 1 || !Array.isArray(parsed.resources)) {
    throw new Error(`${file} is not a state file of this engine (expected {"version": 1, "resources": [...]})`);
  }
  return parsed;
}

/**
 * Written after every step, whole, through a temporary file and a rename: a run that is
 * interrupted keeps everything done before the interruption, and a reader never sees half a file.
 */
export function saveState(file: string, state: StackState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(state, null, 2) + "\n");
  fs.renameSync(temp, file);
}
