/**
 * Finds one page of an ordered, filtered collection in time proportional to the page.
 *
 * Where a record may be is described by uid-key intervals (subtree scoping, descendants_of,
 * ids): each interval is one contiguous run of the uid-sorted index. Everything else is a
 * residual predicate tested while walking. The walk reads the index of the requested order
 * from the position after the cursor, so pages stay ordered when records are inserted
 * between them. Small or sparse candidate sets are sorted once and cached per collection
 * version instead of scanning a large index.
 */
import { Collection, OrderField, Rec, sortValue } from "./store";
import { SortedIndex } from "./sortedIndex";
import { PageCursor } from "./pageTokens";

export type Interval = [string, string];

export interface ListSpec {
  /** Where records may be, by uid key; null = anywhere. */
  intervals: Interval[] | null;
  /** Further conditions; null = none. */
  residual: ((rec: Rec) => boolean) | null;
  /** Exact name filter, served from the name index. */
  nameEq?: string;
  order: OrderField;
  desc: boolean;
  /** Canonical text of every filter (not the order): cache key for counts and sorted sets. */
  signature: string;
}

export interface PageRequest {
  pageSize: number;
  skip: number;
  after?: PageCursor;
}

export interface PageResult {
  items: Rec[];
  total: number;
  next?: PageCursor;
}

/** Sorted, merged, non-empty intervals. */
export function normalizeIntervals(intervals: Interval[]): Interval[] {
  const sorted = intervals.filter(([lo, hi]) => lo < hi).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Interval[] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1]) {
      if (hi > last[1]) last[1] = hi;
    } else out.push([lo, hi]);
  }
  return out;
}

export function intersectIntervals(a: Interval[] | null, b: Interval[] | null): Interval[] | null {
  if (a === null) return b === null ? null : normalizeIntervals(b);
  if (b === null) return normalizeIntervals(a);
  const out: Interval[] = [];
  for (const [alo, ahi] of a) {
    for (const [blo, bhi] of b) {
      const lo = alo > blo ? alo : blo;
      const hi = ahi < bhi ? ahi : bhi;
      if (lo < hi) out.push([lo, hi]);
    }
  }
  return normalizeIntervals(out);
}

function inIntervals(intervals: Interval[], key: string): boolean {
  let lo = 0;
  let hi = intervals.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const [a, b] = intervals[mid];
    if (key < a) hi = mid - 1;
    else if (key >= b) lo = mid + 1;
    else return true;
  }
  return false;
}

type Run = [number, number];

interface Plan {
  seq: SortedIndex<Rec>;
  runs: Run[];
  pred: ((rec: Rec) => boolean) | null;
  total: () => number;
}

/** Below this many candidates (or one eighth of the collection) sorting them beats scanning. */
const SMALL_SET = 2000;
const CACHE_LIMIT = 64;

export class ListEngine {
  private cache = new Map<string, unknown>();

  private cached<T>(coll: Collection, key: string, compute: () => T): T {
    const full = `${coll.kind}|${coll.version}|${key}`;
    if (this.cache.has(full)) return this.cache.get(full) as T;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    const value = compute();
    this.cache.set(full, value);
    return value;
  }

  private sortedSet(coll: Collection, spec: ListSpec, candidates: () => Rec[]): SortedIndex<Rec> {
    return this.cached(coll, `sorted|${spec.order}|${spec.signature}|${JSON.stringify(spec.intervals)}`, () => {
      const index = new SortedIndex<Rec>((r) => sortValue(r, spec.order));
      index.addMany(candidates());
      return index;
    });
  }

  private plan(coll: Collection, spec: ListSpec): Plan {
    const { intervals, residual } = spec;
    const whole: Run[] = [[0, coll.size]];
    const keep = (r: Rec) => (intervals === null || inIntervals(intervals, r.k)) && (residual === null || residual(r));

    if (spec.nameEq !== undefined) {
      const seq = this.sortedSet(coll, spec, () => coll.named(spec.nameEq as string).filter(keep));
      return { seq, runs: [[0, seq.length]], pred: null, total: () => seq.length };
    }
    const countMatching = (runs: Run[], seq: SortedIndex<Rec>) =>
      this.cached(coll, `count|${spec.signature}|${JSON.stringify(intervals)}`, () => {
        let n = 0;
        for (const [a, b] of runs) for (let i = a; i < b; i++) if (residual === null || residual(seq.items[i])) n++;
        return n;
      });
    const ordered = coll.indexes[spec.order];
    if (intervals === null) {
      return {
        seq: ordered,
        runs: whole,
        pred: residual,
        total: () => (residual === null ? coll.size : countMatching(whole, ordered)),
      };
    }
    const uidIndex = coll.indexes.uid;
    const uidRuns: Run[] = intervals.map(([lo, hi]) => [uidIndex.lowerBound(lo, ""), uidIndex.lowerBound(hi, "")]);
    const candidates = uidRuns.reduce((n, [a, b]) => n + (b - a), 0);
    const total = () => (residual === null ? candidates : countMatching(uidRuns, uidIndex));
    if (spec.order === "uid") return { seq: uidIndex, runs: uidRuns, pred: residual, total };
    if (candidates <= SMALL_SET || candidates * 8 <= coll.size) {
      const seq = this.sortedSet(coll, spec, () => {
        const out: Rec[] = [];
        for (const [a, b] of uidRuns)
          for (let i = a; i < b; i++) if (residual === null || residual(uidIndex.items[i])) out.push(uidIndex.items[i]);
        return out;
      });
      return { seq, runs: [[0, seq.length]], pred: null, total: () => seq.length };
    }
    return { seq: ordered, runs: whole, pred: keep, total };
  }

  page(coll: Collection, spec: ListSpec, request: PageRequest): PageResult {
    const { seq, runs, pred, total } = this.plan(coll, spec);
    const items: Rec[] = [];
    const want = request.pageSize + 1;
    let toSkip = request.after ? 0 : request.skip;
    let more = false;

    const visit = (rec: Rec): boolean => {
      if (pred !== null && !pred(rec)) return true;
      if (toSkip > 0) {
        toSkip--;
        return true;
      }
      items.push(rec);
      return items.length < want;
    };

    if (!spec.desc) {
      const start = request.after ? seq.upperBound(request.after.v, request.after.k) : 0;
      outer: for (const [a, b] of runs) {
        let i = Math.max(a, start);
        if (pred === null && toSkip > 0) {
          const jump = Math.min(toSkip, Math.max(0, b - i));
          i += jump;
          toSkip -= jump;
        }
        for (; i < b; i++) if (!visit(seq.items[i])) break outer;
      }
    } else {
      const start = request.after ? seq.lowerBound(request.after.v, request.after.k) : seq.length;
      outer: for (let r = runs.length - 1; r >= 0; r--) {
        const [a, b] = runs[r];
        let i = Math.min(b, start) - 1;
        if (pred === null && toSkip > 0) {
          const jump = Math.min(toSkip, Math.max(0, i - a + 1));
          i -= jump;
          toSkip -= jump;
        }
        for (; i >= a; i--) if (!visit(seq.items[i])) break outer;
      }
    }
    if (items.length > request.pageSize) {
      items.length = request.pageSize;
      more = true;
    }
    const last = items[items.length - 1];
    return { items, total: total(), next: more && last ? { v: sortValue(last, spec.order), k: last.k } : undefined };
  }
}
