import { descendantsRange, subtreeRange, uidKey } from "./ids";
import { Interval, intersectIntervals, ListEngine, ListSpec } from "./listEngine";
import { Collection, makeRec, OrderField, Rec, sortValue } from "./store";
import { compareKeys } from "./sortedIndex";

/** Deterministic pseudo-random numbers so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

function buildTree(count: number, random: () => number): Collection {
  const coll = new Collection("groups");
  const uids = ["r00t"];
  const recs: Rec[] = [makeRec({ uid: "r00t", parentUid: null, name: "root", createTime: 0, updateTime: 0, data: {} })];
  for (let i = 1; i < count; i++) {
    // Mostly flat under a few big teams, some deeper nesting.
    const parent =
      random() < 0.3 ? uids[Math.floor(random() * uids.length)] : uids[Math.floor(random() * Math.min(uids.length, 4))];
    const uid = `${parent}/${i.toString(16).padStart(4, "0")}`;
    uids.push(uid);
    recs.push(
      makeRec({
        uid,
        parentUid: parent,
        name: `n${Math.floor(random() * 500)}`,
        createTime: Math.floor(random() * 1000),
        updateTime: i,
        data: { odd: i % 2 === 1 },
      }),
    );
  }
  // Half bulk-loaded, half inserted one by one: both paths must keep the indexes sorted.
  coll.addMany(recs.slice(0, count / 2));
  for (const rec of recs.slice(count / 2)) coll.add(rec);
  return coll;
}

function naive(coll: Collection, spec: ListSpec): Rec[] {
  const inIntervals = (k: string) => spec.intervals === null || spec.intervals.some(([lo, hi]) => k >= lo && k < hi);
  const out = [...coll.byUid.values()].filter(
    (r) =>
      inIntervals(r.k) &&
      (spec.residual === null || spec.residual(r)) &&
      (spec.nameEq === undefined || r.name === spec.nameEq),
  );
  out.sort((a, b) => compareKeys(sortValue(a, spec.order), a.k, sortValue(b, spec.order), b.k));
  return spec.desc ? out.reverse() : out;
}

function pageThrough(
  engine: ListEngine,
  coll: Collection,
  spec: ListSpec,
  pageSize: number,
  skip: number,
): { items: Rec[]; totals: number[] } {
  const items: Rec[] = [];
  const totals: number[] = [];
  let after;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = engine.page(coll, spec, { pageSize, skip, after });
    items.push(...page.items);
    totals.push(page.total);
    if (!page.next) break;
    after = page.next;
  }
  return { items, totals };
}

describe("list engine agrees with a brute-force filter and sort", () => {
  const random = rng(42);
  const coll = buildTree(4000, random);
  const engine = new ListEngine();
  const uids = [...coll.byUid.keys()];
  const orders: OrderField[] = ["uid", "name", "createTime", "updateTime"];

  for (let caseNo = 0; caseNo < 60; caseNo++) {
    const scopeSize = Math.floor(random() * 3);
    const scope: Interval[] | null =
      scopeSize === 0
        ? null
        : Array.from({ length: scopeSize }, () => subtreeRange(uids[Math.floor(random() * uids.length)]));
    const descendantsOf = random() < 0.3 ? uids[Math.floor(random() * 20)] : undefined;
    const intervals = descendantsOf
      ? intersectIntervals(scope, [descendantsRange(descendantsOf)])
      : scope && intersectIntervals(scope, null);
    const residual = random() < 0.4 ? (r: Rec) => r.data.odd === true : null;
    const nameEq = random() < 0.15 ? `n${Math.floor(random() * 500)}` : undefined;
    const order = orders[Math.floor(random() * orders.length)];
    const desc = random() < 0.5;
    const pageSize = 1 + Math.floor(random() * 300);
    const skip = random() < 0.3 ? Math.floor(random() * 50) : 0;
    const spec: ListSpec = { intervals, residual, nameEq, order, desc, signature: `case-${caseNo}` };

    test(`case ${caseNo}: ${order}${desc ? " desc" : ""}, page ${pageSize}, skip ${skip}, scope ${scopeSize}, descendants ${Boolean(descendantsOf)}, residual ${Boolean(residual)}, name ${Boolean(nameEq)}`, () => {
      const expected = naive(coll, spec);
      const { items, totals } = pageThrough(engine, coll, spec, pageSize, skip);
      expect(items.map((r) => r.uid)).toEqual(expected.slice(skip).map((r) => r.uid));
      for (const total of totals) expect(total).toBe(expected.length);
    });
  }

  test("subtree ranges hold a group and its descendants and nothing else", () => {
    const [lo, hi] = subtreeRange("ab");
    for (const [uid, inside] of [
      ["ab", true],
      ["ab/c", true],
      ["ab/c/d", true],
      ["ab-c", false],
      ["abc", false],
      ["ab.c", false],
      ["a", false],
    ] as const) {
      const k = uidKey(uid);
      expect(k >= lo && k < hi).toBe(inside);
    }
  });

  test("updates move records in the name and update-time indexes", () => {
    const small = buildTree(50, rng(7));
    const target = small.get("r00t") as Rec;
    small.update(target, (r) => {
      r.name = "zzzz";
      r.updateTime = 10_000;
    });
    const page = new ListEngine().page(
      small,
      { intervals: null, residual: null, order: "name", desc: true, signature: "" },
      { pageSize: 1, skip: 0 },
    );
    expect(page.items[0].uid).toBe("r00t");
    expect(small.indexes.updateTime.items.at(-1)?.uid).toBe("r00t");
    expect(small.named("zzzz")).toEqual([target]);
  });
});
