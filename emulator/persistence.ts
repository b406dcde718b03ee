/**
 * Durable state: a snapshot file plus a journal beside it (`<file>.journal`). Every change is
 * appended to the journal and synced to disk before the request that made it is answered, so
 * an acknowledged write survives a crash (even `kill -9`). Now and then, and on close, the
 * journal is compacted: the whole state goes to a temporary file that is synced and renamed
 * over the snapshot, then the journal is emptied. At start the snapshot is read, the journal
 * replayed on top (a torn last line from a crash is dropped), every record validated, and
 * temporary files a crash left behind are removed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadApiDocument } from "./apiDocument";
import { kindsOf } from "./kinds/registry";
import { CollectionName, StoredRec } from "./store";

export interface EmulatorState {
  version: 1;
  rootUid: string;
  devToken: string;
  devIdentityUid: string;
  oidcPrivateJwk: object;
  records: Partial<Record<CollectionName, StoredRec[]>>;
}

export type JournalEntry =
  { kind: CollectionName; op: "put"; rec: StoredRec } | { kind: CollectionName; op: "del"; uid: string };

const journalOf = (file: string) => `${file}.journal`;
const TEMP = /\.\d+\.tmp$/;

export function stateFileError(file: string, why: string): Error {
  return new Error(`the emulator state file ${file} ${why}; move it away to start fresh`);
}

function fail(file: string, why: string): never {
  throw stateFileError(file, why);
}

/** Why a stored record is not one, or null. */
function recordProblem(rec: unknown): string | null {
  if (!rec || typeof rec !== "object" || Array.isArray(rec)) return "is not an object";
  const r = rec as Record<string, unknown>;
  if (typeof r.uid !== "string" || r.uid === "") return "has no uid";
  if (r.parentUid !== null && typeof r.parentUid !== "string")
    return `("${r.uid}") has a parentUid that is not a string`;
  if (typeof r.name !== "string") return `("${r.uid}") has a name that is not a string`;
  if (!Number.isFinite(r.createTime) || !Number.isFinite(r.updateTime)) return `("${r.uid}") has invalid times`;
  if (!r.data || typeof r.data !== "object" || Array.isArray(r.data)) return `("${r.uid}") has no data object`;
  return null;
}

function removeLeftoverTemps(file: string): void {
  const dir = path.dirname(path.resolve(file));
  if (!fs.existsSync(dir)) return;
  const base = path.basename(file);
  for (const name of fs.readdirSync(dir))
    if (name.startsWith(`${base}.`) && TEMP.test(name)) fs.rmSync(path.join(dir, name), { force: true });
}

function readJournal(file: string, isKind: (kind: unknown) => boolean): JournalEntry[] {
  const journal = journalOf(file);
  if (!fs.existsSync(journal)) return [];
  const lines = fs.readFileSync(journal, "utf8").split("\n");
  const entries: JournalEntry[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let entry: JournalEntry;
    try {
      entry = JSON.parse(line) as JournalEntry;
    } catch {
      // Only the last line can be torn (the process died while appending it); it was never acknowledged.
      if (lines.slice(i + 1).every((rest) => rest.trim() === "")) return;
      fail(file, `has a journal with an unreadable line ${i + 1}`);
    }
    if (!isKind(entry?.kind)) fail(file, `has a journal line ${i + 1} of an unknown kind`);
    if (entry.op === "put") {
      const problem = recordProblem(entry.rec);
      if (problem) fail(file, `has a journal line ${i + 1} whose record ${problem}`);
    } else if (entry.op !== "del" || typeof entry.uid !== "string")
      fail(file, `has a journal line ${i + 1} that is neither a put nor a delete`);
    entries.push(entry);
  });
  return entries;
}

/**
 * The snapshot with the journal replayed on top, every record checked; null when there is no state
 * yet. `kinds`: the collections records may be of (the default API document's).
 */
export function readState(
  file: string,
  kinds: readonly CollectionName[] = Object.keys(kindsOf(loadApiDocument())),
): EmulatorState | null {
  const isKind = (kind: unknown): boolean => typeof kind === "string" && kinds.includes(kind);
  removeLeftoverTemps(file);
  if (!fs.existsSync(file)) {
    if (fs.existsSync(journalOf(file))) fail(file, `is missing but its journal ${journalOf(file)} exists`);
    return null;
  }
  const text = fs.readFileSync(file, "utf8");
  let state: EmulatorState;
  try {
    state = JSON.parse(text) as EmulatorState;
  } catch (error) {
    return fail(file, `is not valid JSON (${(error as Error).message})`);
  }
  if (state?.version !== 1 || typeof state.rootUid !== "string" || typeof state.records !== "object")
    fail(file, "has an unknown format");
  const byKind = new Map<CollectionName, Map<string, StoredRec>>();
  for (const [kind, recs] of Object.entries(state.records ?? {})) {
    if (!isKind(kind)) fail(file, `holds records of an unknown kind "${kind}"`);
    if (!Array.isArray(recs)) fail(file, `holds ${kind} that are not a list`);
    const map = new Map<string, StoredRec>();
    recs.forEach((rec, i) => {
      const problem = recordProblem(rec);
      if (problem) fail(file, `has a record ${kind}[${i}] that ${problem}`);
      map.set(rec.uid, rec);
    });
    byKind.set(kind, map);
  }
  for (const entry of readJournal(file, isKind)) {
    const map = byKind.get(entry.kind) ?? new Map<string, StoredRec>();
    byKind.set(entry.kind, map);
    if (entry.op === "put") map.set(entry.rec.uid, entry.rec);
    else map.delete(entry.uid);
  }
  state.records = Object.fromEntries([...byKind].map(([kind, map]) => [kind, [...map.values()]]));
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

/** Appends changes and syncs them (commit) before a request is answered; compacts into the snapshot. */
export class Journal {
  private fd: number;
  private pending: string[] = [];
  private sinceCompaction = 0;

  constructor(
    private file: string,
    private snapshot: () => EmulatorState,
    private compactEvery = 5000,
  ) {
    writeStateAtomically(file, snapshot());
    // Appending mode: every write lands at the end, also after the journal is truncated.
    this.fd = fs.openSync(journalOf(file), "a");
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
  }

  append(entry: JournalEntry): void {
    this.pending.push(`${JSON.stringify(entry)}\n`);
  }

  /** Everything appended is on disk when this returns. */
  commit(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join("");
    this.sinceCompaction += this.pending.length;
    this.pending = [];
    fs.writeSync(this.fd, text);
    fs.fdatasyncSync(this.fd);
    if (this.sinceCompaction >= this.compactEvery) this.compact();
  }

  /** The snapshot takes in the journal (written whole, then renamed), and the journal starts empty. */
  compact(): void {
    writeStateAtomically(this.file, this.snapshot());
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.sinceCompaction = 0;
  }

  close(): void {
    this.commit();
    this.compact();
    fs.closeSync(this.fd);
    fs.rmSync(journalOf(this.file), { force: true });
  }
}
