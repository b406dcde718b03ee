/** Something that can be deleted: known by its URN, deleted before what it depends on. */
export interface Deletable {
  urn: string;
  dependencies: string[];
}

export interface DeleteOutcome<T> {
  deleted: T[];
  failed: { entry: T; error: unknown }[];
  /** Not attempted because something that depends on them failed to delete. */
  skipped: T[];
}

/**
 * Deletes every entry after all entries that depend on it (reverse dependency order), and
 * independent entries at the same time, as the engine does. When a delete fails, what that
 * entry depends on is kept: deleting a parent under a child that still exists would fail or orphan it.
 */
export async function deleteInReverseDependencyOrder<T extends Deletable>(
  entries: T[],
  deleteOne: (entry: T) => Promise<void>,
): Promise<DeleteOutcome<T>> {
  const outcome: DeleteOutcome<T> = { deleted: [], failed: [], skipped: [] };
  const dependentsOf = new Map<T, T[]>(entries.map((entry) => [entry, []]));
  for (const entry of entries) {
    for (const other of entries) {
      if (other !== entry && other.dependencies.includes(entry.urn)) dependentsOf.get(entry)!.push(other);
    }
  }
  assertAcyclic(entries, dependentsOf);
  const done = new Map<T, Promise<boolean>>();
  const run = (entry: T): Promise<boolean> => {
    let promise = done.get(entry);
    if (!promise) {
      promise = Promise.all(dependentsOf.get(entry)!.map(run)).then(async (dependentsGone) => {
        if (!dependentsGone.every(Boolean)) {
          outcome.skipped.push(entry);
          return false;
        }
        try {
          await deleteOne(entry);
          outcome.deleted.push(entry);
          return true;
        } catch (error) {
          outcome.failed.push({ entry, error });
          return false;
        }
      });
      done.set(entry, promise);
    }
    return promise;
  };
  await Promise.all(entries.map(run));
  return outcome;
}

function assertAcyclic<T extends Deletable>(entries: T[], dependentsOf: Map<T, T[]>): void {
  const state = new Map<T, "visiting" | "done">();
  const visit = (entry: T, trail: T[]) => {
    if (state.get(entry) === "done") return;
    if (state.get(entry) === "visiting") {
      throw new Error(`dependency cycle: ${[...trail, entry].map((e) => e.urn).join(" -> ")}`);
    }
    state.set(entry, "visiting");
    for (const dependent of dependentsOf.get(entry)!) visit(dependent, [...trail, entry]);
    state.set(entry, "done");
  };
  for (const entry of entries) visit(entry, []);
}
