/**
 * The first `k` of `n` row numbers in sort order, without sorting all `n`: a page of 12 out of
 * 50,000 results needs 50,000 comparisons against the worst kept row, not a full sort.
 */

/** Negative when row a sorts before row b. Must be a total order (ties broken by id). */
export type RowComparator = (a: number, b: number) => number;

/** Below this share of n, a bounded heap (n log k) beats sorting everything (n log n). */
const HEAP_SHARE = 0.25;

/**
 * Returns the best `k` rows of `rows[0..n)`, best first. May reorder `rows[0..n)` (it is a
 * scratch buffer of the caller).
 *
 * `keys[i]`, when given, is a number for rows[i] that never orders two rows against `compare`
 * (compare(a, b) < 0 implies key(a) <= key(b)): a row whose key is above the worst kept row's is
 * passed over with one comparison of numbers, read in order; equal keys go to `compare`.
 */
export function selectTop(
  rows: Uint32Array,
  n: number,
  k: number,
  compare: RowComparator,
  keys?: Float64Array,
): Uint32Array {
  const want = Math.max(0, Math.min(k, n));
  if (want === 0) return new Uint32Array(0);
  if (want >= n * HEAP_SHARE) {
    const all = rows.subarray(0, n).sort(compare);
    return all.slice(0, want);
  }
  // A max-heap on sort order: the root is the worst row kept so far.
  const heap = new Uint32Array(want);
  // The key of each kept row, moved with it.
  const heapKeys = new Float64Array(want);
  let size = 0;
  let worstKey = Infinity;
  for (let i = 0; i < n; i++) {
    const key = keys === undefined ? 0 : keys[i]!;
    if (key > worstKey) continue;
    const row = rows[i]!;
    if (size < want) {
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (compare(heap[parent]!, row) >= 0) break;
        heap[at] = heap[parent]!;
        heapKeys[at] = heapKeys[parent]!;
        at = parent;
      }
      heap[at] = row;
      heapKeys[at] = key;
      if (size === want && keys !== undefined) worstKey = heapKeys[0]!;
    } else if (compare(row, heap[0]!) < 0) {
      siftDown(heap, heapKeys, size, row, key, compare);
      if (keys !== undefined) worstKey = heapKeys[0]!;
    }
  }
  return heap.sort(compare);
}

/** Puts `row` (with its key) at the root and sinks it to its place. */
function siftDown(
  heap: Uint32Array,
  heapKeys: Float64Array,
  size: number,
  row: number,
  key: number,
  compare: RowComparator,
): void {
  let at = 0;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= size) break;
    const right = left + 1;
    const worse = right < size && compare(heap[right]!, heap[left]!) > 0 ? right : left;
    if (compare(heap[worse]!, row) <= 0) break;
    heap[at] = heap[worse]!;
    heapKeys[at] = heapKeys[worse]!;
    at = worse;
  }
  heap[at] = row;
  heapKeys[at] = key;
}

/**
 * The `k` smallest numbers pushed so far, in a max-heap: `worst` is the largest of them once `k`
 * were pushed (Infinity before), so that anything above it cannot be among the first k.
 */
export class SmallestKeys {
  private readonly heap: Float64Array;
  private size = 0;

  /** `room.heap` is used when long enough (and replaced by a longer one when not). */
  constructor(
    private readonly k: number,
    room?: { heap: Float64Array },
  ) {
    if (room && room.heap.length < k) room.heap = new Float64Array(Math.max(k, 2 * room.heap.length));
    this.heap = room ? room.heap : new Float64Array(Math.max(0, k));
  }

  get worst(): number {
    if (this.k === 0) return -Infinity;
    return this.size < this.k ? Infinity : this.heap[0]!;
  }

  push(key: number): void {
    const { heap, k } = this;
    if (this.size < k) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (heap[parent]! >= key) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = key;
      return;
    }
    if (k === 0 || key >= heap[0]!) return;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= k) break;
      const right = left + 1;
      const larger = right < k && heap[right]! > heap[left]! ? right : left;
      if (heap[larger]! <= key) break;
      heap[at] = heap[larger]!;
      at = larger;
    }
    heap[at] = key;
  }
}
