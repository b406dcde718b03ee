/**
 * The state's journal: every change recorded is read back over the snapshot, a line cut short
 * by a crash is skipped, and lines a newer snapshot already holds are not applied twice.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { journalFile, loadState, readState, ResourceState, saveState, StateJournal } from "./state";

const entry = (name: string, id: string): ResourceState => ({
  urn: `urn:pulumi:dev::p::t::${name}`,
  type: "t",
  id,
  custom: true,
  inputs: { name },
  outputs: { name, uid: id },
  dependencies: [],
});

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-state-"));
  file = path.join(dir, "state.json");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("changes journaled after a snapshot are read back over it, in order", async () => {
  const state = loadState(file, "p", "dev");
  state.resources.push(entry("a", "1"));
  saveState(file, state);
  const journal = new StateJournal(file, state);
  const pending = { operation: "creating" as const, resource: entry("b", ""), startedAt: "2026-11-24T00:00:00.000Z" };
  await journal.append({ begin: pending });
  await journal.append({ put: entry("c", "3") });
  await journal.append({ markPendingDelete: { urn: entry("a", "1").urn, id: "1" } });
  await journal.append({ remove: { urn: entry("c", "3").urn, id: "3", pendingDelete: false } });
  await journal.append({ outputs: { x: 1 } });
  let read = readState(file)!;
  expect(read.pendingOperations).toEqual([pending]);
  await journal.append({
    end: { operation: "creating", urn: pending.resource.urn, startedAt: pending.startedAt },
    then: { put: entry("b", "2") },
  });
  journal.close();
  read = readState(file)!;
  expect(read.pendingOperations).toBeUndefined();
  expect(read.resources.map((r) => [r.id, !!r.pendingDelete])).toEqual([
    ["1", true],
    ["2", false],
  ]);
  expect(read.outputs).toEqual({ x: 1 });
  expect(read.project).toBe("p");
});

test("a journal without a snapshot (a first run interrupted) is read over an empty state", async () => {
  const state = loadState(file, "p", "dev");
  const journal = new StateJournal(file, state);
  await journal.append({ put: entry("a", "1") });
  journal.close();
  expect(fs.existsSync(file)).toBe(false);
  expect(loadState(file, "p", "dev").resources.map((r) => r.id)).toEqual(["1"]);
  expect(loadState(file, "p", "dev").stack).toBe("dev");
});

test("a last line cut short by a crash was never acknowledged: it is skipped, the rest kept", async () => {
  const state = loadState(file, "p", "dev");
  const journal = new StateJournal(file, state);
  await journal.append({ put: entry("a", "1") });
  journal.close();
  fs.appendFileSync(journalFile(file), JSON.stringify({ g: 0, c: { put: entry("b", "2") } }).slice(0, 40));
  expect(readState(file)!.resources.map((r) => r.id)).toEqual(["1"]);
});

test("a new snapshot starts a new journal; lines of an older generation left by a crash are not applied twice", async () => {
  const state = loadState(file, "p", "dev");
  const journal = new StateJournal(file, state);
  await journal.append({ put: entry("a", "1") });
  state.resources.push(entry("a", "1"));
  const staleJournal = fs.readFileSync(journalFile(file), "utf8");
  saveState(file, state);
  expect(fs.existsSync(journalFile(file))).toBe(false);
  // As if the run crashed after writing the snapshot and before removing the old journal.
  fs.writeFileSync(journalFile(file), staleJournal);
  expect(readState(file)!.resources.map((r) => r.id)).toEqual(["1"]);
  // The same journal object follows the new generation into a fresh file.
  await journal.append({ put: entry("b", "2") });
  journal.close();
  expect(readState(file)!.resources.map((r) => r.id)).toEqual(["1", "2"]);
});

test("appends made in one turn are synced together, and each resolves only once its line is in the file", async () => {
  const state = loadState(file, "p", "dev");
  const journal = new StateJournal(file, state);
  const appended = [journal.append({ put: entry("a", "1") }), journal.append({ put: entry("b", "2") })];
  expect(fs.existsSync(journalFile(file))).toBe(false);
  await Promise.all(appended);
  expect(readState(file)!.resources.map((r) => r.id)).toEqual(["1", "2"]);
  journal.close();
});
