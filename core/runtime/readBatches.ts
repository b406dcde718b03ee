/**
 * Reads of one kind answered together. The engine sends a refresh's reads to the provider
 * concurrently (`--parallel`), all into one process; every List of the API takes `uidp.ids`, the
 * exact uids of the records wanted. So a read that arrives while another read of its kind is in
 * flight waits, and the reads waiting when nothing of their kind is in flight any more go as one
 * List of their uids (several, when their uids would make a URL too long). A read alone is one
 * GET. 1,000 records refreshed at `--parallel 64` are a few dozen requests.
 *
 * What a batch never changes: a read is never worse off for it, whatever the service does.
 * - A record a List does not answer is not taken for gone: its read sends its own GET, and only
 *   that GET's NOT_FOUND drops it (a List leaves out what the caller may not list, and a record
 *   may have been deleted, or created again, between the two).
 * - A List that fails (any error, or an answer that is not a List's) answers nothing: each read
 *   sends its own GET, so one record's error never becomes another's.
 * - A record a List answers twice with different contents, or without a field every GET of the
 *   kind in the process carried, or that its reader does not take as in its place, is read by
 *   its own GET. Until a GET of the kind has answered, one read goes alone first.
 * - A read waits behind a request of its kind (a GET or List that is slow, or never answers) at
 *   most a short bound of its own (MIN_WAIT_MS to MAX_WAIT_MS, a quarter of its time left), then
 *   sends its own GET.
 * - A List is a call of its own: at most a quarter of its earliest read's time left (MAX_LIST_MS
 *   at most), one repeat (MAX_LIST_SENDS), and a Retry-After it is answered pauses only itself.
 *   A List hung, refused or rate-limited beyond that gives its reads back to their own GETs with
 *   most of their deadline left.
 * - Each record answered goes through the same read as a GET's answer (core/runtime/operations/read.ts):
 *   its outputs, uid and parent checked against that resource's own state.
 *
 * When the waiting reads go: once nothing of their kind is in flight, and either the engine has
 * sent a read for every read answered to it (the workers a batch frees take the next resources,
 * which are mostly of the same kind: a state lists records in the order they were made), or the
 * kind's last round trip has passed again (at most MAX_GATHER_MS). A read that comes while the
 * engine owes reads waits for them the same way, though nothing of its kind is in flight: at
 * `--parallel 8` against a service 50 ms away, a GET of 1 and a List of 7 become a List of 8.
 *
 * `platform:batchReads false` (PLATFORM_BATCH_READS) turns batching off: one GET per read.
 */
import type { ApiClient, Query } from "../transport/client";
import { Clock, Timer, systemClock } from "../common/clock";
import { CallScope, callBudgetMs, currentCall, withCallDeadlineAt } from "../transport/deadline";
import type { Kind } from "../model/kind";
import { MAX_PAGE_SIZE } from "../transport/pagination";

/**
 * The `uidp.ids` parameters of one List at most, in characters: the URL stays well under 8 KB
 * (what proxies and servers commonly accept) with the base URL and a page token beside them.
 * Uids three segments deep are about 45 to a List.
 */
export const MAX_IDS_QUERY_CHARS = 3000;

/** The longest waiting reads wait for the engine's next reads once their kind has nothing in flight. */
export const MAX_GATHER_MS = 250;

/**
 * The reads still to come soon: reads answered whose engine worker has not sent another read
 * since. One per process (the engine's workers are shared: a worker freed by a group's read may
 * take an identity next), and the kinds whose waiting reads go as soon as nothing is owed.
 */
export interface ReadGathering {
  readonly owed: number;
  /** A read arrived: one owed fewer; at none, the kinds gathering send their reads. */
  arrived(): void;
  /** A read was answered: its worker will send another. */
  answered(): void;
  /** The engine did not come back in time: what it owed is not waited for again. */
  forget(): void;
  gather(go: () => void): void;
  stop(go: () => void): void;
}

export function readGathering(): ReadGathering {
  let owed = 0;
  const gathering = new Set<() => void>();
  return {
    get owed() {
      return owed;
    },
    arrived() {
      if (owed === 0) return;
      owed--;
      if (owed === 0) for (const go of [...gathering]) go();
    },
    answered: () => void owed++,
    forget: () => void (owed = 0),
    gather: (go) => void gathering.add(go),
    stop: (go) => void gathering.delete(go),
  };
}

const processGathering = readGathering();

export interface ReadBatches {
  /**
   * The record `uid` names, as its GET answers it: read alone, or answered with others of its
   * kind by one List. A List's record that `accepts` refuses (its place is not the one the
   * caller expects) is read again by its own GET, whose answer is the caller's to judge.
   */
  read(uid: string, accepts?: (record: unknown) => boolean): Promise<unknown>;
}

/** What became of a read that waited: its record, or undefined to send its own GET. */
type Outcome = { record: unknown } | undefined;

interface Waiting {
  uid: string;
  scope?: CallScope;
  accepts?: (record: unknown) => boolean;
  settle(outcome: Outcome): void;
  /** Taken into a List: from now on the List's own deadline bounds the wait. */
  taken(): void;
}

/**
 * The longest a List may take, and its share of the time its earliest read has left: a List
 * that hangs or is refused leaves its reads most of their deadline for their own GETs.
 */
export const MAX_LIST_MS = 10_000;
export const LIST_SHARE = 1 / 4;
/** Sends of one List at most: one repeat, then its reads go by their own GETs. */
export const MAX_LIST_SENDS = 2;
/**
 * How long a read waits behind a request of its kind before it goes alone: a few of the kind's
 * round trips, at least MIN_WAIT_MS, at most MAX_WAIT_MS and a quarter of the time it has left.
 */
export const MIN_WAIT_MS = 2_000;
export const MAX_WAIT_MS = 10_000;

/** The length `uidp.ids=<uid>&` takes in a query. */
const idChars = (uid: string) => "uidp.ids=&".length + encodeURIComponent(uid).length;

/** Reads waiting together, cut where the next uid would make the List's query too long, and at a page's size. */
function chunks(waiting: Waiting[]): Waiting[][] {
  const out: Waiting[][] = [];
  let current: Waiting[] = [];
  let uids = new Set<string>();
  let chars = 0;
  for (const one of waiting) {
    const fresh = !uids.has(one.uid);
    if (fresh && current.length > 0 && (chars + idChars(one.uid) > MAX_IDS_QUERY_CHARS || uids.size >= MAX_PAGE_SIZE)) {
      out.push(current);
      current = [];
      uids = new Set();
      chars = 0;
    }
    if (!uids.has(one.uid)) {
      uids.add(one.uid);
      chars += idChars(one.uid);
    }
    current.push(one);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** The records of a List's answer, or an error when it is not one. */
function recordsOf(body: unknown, collection: string): { records: unknown[]; next?: string } {
  const envelope = body as Record<string, unknown> | null | undefined;
  const records = envelope?.[collection] ?? [];
  if (typeof envelope !== "object" || envelope === null || !Array.isArray(records))
    throw new Error(`the answer is not a List of ${collection}`);
  const next = envelope.nextPageToken;
  return { records, next: typeof next === "string" && next !== "" ? next : undefined };
}

/** What one List answered of the uids asked: each record by its uid, marked when it came twice different. */
type ListAnswers = Map<string, { record: unknown; text: string; twice?: boolean }>;

/**
 * Walks the pages of one List of `uids` into `answered`. A page that brings nothing new asked for,
 * or more pages than uids, ends the walk: the rest are read alone.
 */
async function listPages(
  kind: Pick<Kind, "domain" | "collection" | "listEveryRecord">,
  client: () => ApiClient,
  uids: string[],
  answered: ListAnswers,
): Promise<void> {
  const asked = new Set(uids);
  let pageToken: string | undefined;
  for (let page = 0; page <= uids.length && answered.size < uids.length; page++) {
    const query: Query = {
      ...kind.listEveryRecord,
      "uidp.ids": uids,
      page_size: uids.length,
      ...(pageToken === undefined ? {} : { page_token: pageToken }),
    };
    const body = await client().request({ method: "GET", domain: kind.domain, path: kind.collection, query });
    const { records, next } = recordsOf(body, kind.collection);
    let found = 0;
    for (const record of records) {
      const uid = (record as { uid?: unknown } | null)?.uid;
      if (typeof uid !== "string" || !asked.has(uid)) continue;
      const text = JSON.stringify(record);
      const earlier = answered.get(uid);
      if (earlier) {
        // The same record twice with different contents: neither copy is taken at its word.
        if (earlier.text !== text) earlier.twice = true;
        continue;
      }
      answered.set(uid, { record, text });
      found++;
    }
    if (next === undefined || found === 0) break;
    pageToken = next;
  }
}

/**
 * The reads of one kind's records through `client`, each by `get` when it goes alone. One per
 * kind's provider: the reads of every resource of the kind in the process meet here.
 */
export function readBatches(
  kind: Pick<Kind, "domain" | "collection" | "noun" | "listEveryRecord">,
  client: () => ApiClient,
  get: (uid: string) => Promise<unknown>,
  { clock = systemClock, gathering = processGathering }: { clock?: Clock; gathering?: ReadGathering } = {},
): ReadBatches {
  /** Requests of this kind's reads in flight: GETs and Lists. */
  let busy = 0;
  const queue: Waiting[] = [];
  /** The time the kind's last request took, from its send to its answer. */
  let lastRoundTripMs = 0;
  /** Set while the waiting reads are about to go: sends them. */
  let pending: (() => void) | undefined;

  const track = async <T>(request: () => Promise<T>): Promise<T> => {
    busy++;
    const started = clock.now();
    try {
      return await request();
    } finally {
      lastRoundTripMs = clock.now() - started;
      busy--;
      if (busy === 0) schedule();
    }
  };

  // Once nothing of the kind is in flight: at once, or, while the engine still owes reads, when
  // it has sent them or the kind's last round trip has passed.
  const schedule = () => {
    if (pending || queue.length === 0) return;
    const gather: { timer?: Timer } = {};
    const go = () => {
      if (pending !== go) return;
      pending = undefined;
      gather.timer?.cancel();
      gathering.stop(go);
      if (busy === 0) flush();
    };
    pending = go;
    // After the current turn: the reads just answered are owed by then, and reads whose calls
    // arrived in the same turn have joined.
    setImmediate(() => {
      if (pending !== go) return;
      if (gathering.owed === 0) return go();
      gathering.gather(go);
      gather.timer = clock.timer(Math.min(MAX_GATHER_MS, lastRoundTripMs), () => {
        gathering.forget();
        go();
      });
    });
  };

  /** The fields every GET of the kind answered so far carried: a List's record lacking one is read by its own GET. */
  let carried: Set<string> | undefined;
  const getAlone = async (uid: string): Promise<unknown> => {
    const record = await track(() => get(uid));
    if (record !== null && typeof record === "object") {
      const keys = Object.keys(record).filter((key) => (record as Record<string, unknown>)[key] !== undefined);
      carried = carried ? new Set(keys.filter((key) => carried!.has(key))) : new Set(keys);
    }
    return record;
  };
  const lacksCarried = (record: unknown) =>
    record === null || typeof record !== "object" || [...(carried ?? [])].some((key) => !Object.hasOwn(record, key));

  /** Whether the reader takes the List's record; one it cannot judge goes to its own GET, which reports it. */
  const accepted = (one: Waiting, record: unknown) => {
    try {
      return one.accepts?.(record) ?? true;
    } catch {
      return false;
    }
  };

  const flush = () => {
    const waiting = queue.splice(0);
    if (waiting.length === 1) return waiting[0].settle(undefined);
    if (carried === undefined) {
      // No GET of the kind has shown which fields a record carries: one goes alone first, the others wait for it.
      waiting[0].settle(undefined);
      queue.push(...waiting.slice(1));
      return;
    }
    for (const one of waiting) one.taken();
    for (const chunk of chunks(waiting)) void track(() => list(chunk));
  };

  /**
   * One List of the chunk's uids (every page it answers), within a short deadline of its own and
   * one repeat at most; its reads get their records once its last page is in. What it does not
   * answer, answers twice differently, or answers lacking a field its GETs carry is read alone.
   */
  const list = async (chunk: Waiting[]): Promise<void> => {
    const unanswered = new Map<string, Waiting[]>();
    for (const one of chunk) unanswered.set(one.uid, [...(unanswered.get(one.uid) ?? []), one]);
    const uids = [...unanswered.keys()];
    const now = clock.now();
    const deadlineOf = (one: Waiting) => one.scope?.deadline ?? now + callBudgetMs();
    const budgetMs = Math.max(1, Math.min(MAX_LIST_MS, (Math.min(...chunk.map(deadlineOf)) - now) * LIST_SHARE));
    const answered: ListAnswers = new Map();
    try {
      await withCallDeadlineAt(
        `reading ${uids.length} ${kind.collection} by their uids`,
        now + budgetMs,
        budgetMs,
        () => listPages(kind, client, uids, answered),
        () => clock.now(),
        { maxSends: MAX_LIST_SENDS, pausesOnlyItself: true },
      );
    } catch {
      // The List failed: it answers nothing, and every read it was to answer sends its own GET.
      answered.clear();
    }
    for (const [uid, readers] of unanswered) {
      const answer = answered.get(uid);
      const sound = answer !== undefined && !answer.twice && !lacksCarried(answer.record);
      for (const one of readers)
        one.settle(sound && accepted(one, answer.record) ? { record: answer.record } : undefined);
    }
  };

  const wait = (uid: string, accepts?: (record: unknown) => boolean): Promise<Outcome> =>
    new Promise<Outcome>((resolve) => {
      const scope = currentCall();
      const bound: { timer?: Timer } = {};
      let done = false;
      const one: Waiting = {
        uid,
        scope,
        accepts,
        settle(outcome) {
          if (done) return;
          done = true;
          bound.timer?.cancel();
          resolve(outcome);
        },
        taken: () => bound.timer?.cancel(),
      };
      // Behind a request of its kind that is slow or hung, a read goes alone once its own short bound passes.
      const left = scope ? scope.deadline - scope.now() : callBudgetMs();
      const boundMs = Math.min(Math.max(MIN_WAIT_MS, 4 * lastRoundTripMs), MAX_WAIT_MS, left / 4);
      bound.timer = clock.timer(Math.max(0, boundMs), () => {
        const at = queue.indexOf(one);
        if (at >= 0) queue.splice(at, 1);
        one.settle(undefined);
      });
      queue.push(one);
      if (busy === 0) schedule();
    });

  const readOne = async (uid: string, accepts?: (record: unknown) => boolean): Promise<unknown> => {
    let waited: Promise<Outcome>;
    if (busy === 0 && queue.length === 0) {
      gathering.arrived();
      // Alone, unless the engine owes more reads: the workers a batch just freed, coming back.
      if (gathering.owed === 0) return getAlone(uid);
      waited = wait(uid, accepts);
    } else {
      // Waiting first: if it was the last read owed, the reads go with it.
      waited = wait(uid, accepts);
      gathering.arrived();
    }
    const outcome = await waited;
    return outcome ? outcome.record : getAlone(uid);
  };

  return {
    async read(uid, accepts) {
      if (client().batchReads?.() === false) return get(uid);
      try {
        return await readOne(uid, accepts);
      } finally {
        // Answered: the engine's worker is free to send the next read.
        gathering.answered();
      }
    },
  };
}
