/**
 * Records kept sorted by (value, uid key) so a page is found by binary search and read
 * in order: the cost of a page does not grow with the collection.
 */

export type SortValue = string | number;

export interface Keyed {
  k: string;
}

export function compareKeys(av: SortValue, ak: string, bv: SortValue, bk: string): number {
  if (av < bv) return -1;
  if (av > bv) return 1;
  return ak < bk ? -1 : ak > bk ? 1 : 0;
}

export class SortedIndex<T extends Keyed> {
  items: T[] = [];

  constructor(readonly valueOf: (item: T) => SortValue) {}

  /** First position whose (value, key) is >= the given pair. */
  lowerBound(value: SortValue, key: string): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const item = this.items[mid];
      if (compareKeys(this.valueOf(item), item.k, value, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position whose (value, key) is > the given pair. */
  upperBound(value: SortValue, key: string): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const item = this.items[mid];
      if (compareKeys(this.valueOf(item), item.k, value, key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(item: T): void {
    this.items.splice(this.lowerBound(this.valueOf(item), item.k), 0, item);
  }

  /** Must be called before the item's sort value changes. */
  remove(item: T): void {
    const at = this.lowerBound(this.valueOf(item), item.k);
    if (this.items[at] === item) this.items.splice(at, 1);
  }

  /** Bulk load: append, then sort once (inserting 100,000 one by one would be quadratic). */
  addMany(items: T[]): void {
    for (const item of items) this.items.push(item);
    this.items.sort((a, b) => compareKeys(this.valueOf(a), a.k, this.valueOf(b), b.k));
  }

  get length(): number {
    return this.items.length;
  }
}
