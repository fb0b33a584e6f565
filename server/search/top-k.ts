/**
 * The first `k` of `n` row numbers in sort order, without sorting all `n`: a page of 12 out of
 * 50,000 results needs 50,000 comparisons against the worst kept row, not a full sort.
 */

/** Negative when row a sorts before row b. Must be a total order (ties broken by id). */
export type RowComparator = (a: number, b: number) => number;

/** Below this share of n, a bounded heap (n log k) beats sorting everything (n log n). */
const HEAP_SHARE = 0.25;

/** Buffers selectTop may keep its heap in (a query's scratch), replaced by longer ones when short. */
export interface TopRoom {
  top: Uint32Array;
  topKeys: Float64Array;
}

/**
 * Returns the best `k` rows of `rows[0..n)`, best first. May reorder `rows[0..n)` (it is a
 * scratch buffer of the caller). With `room`, the answer is a view on room.top, valid until the
 * next call with the same room: a typed array of its own per query would be memory outside the
 * heap, which brings full garbage collections on a busy instance.
 *
 * `keys[i]`, when given, is a number for rows[i] that never orders two rows against `compare`
 * (compare(a, b) < 0 implies key(a) <= key(b)): two rows with different keys are ordered by their
 * keys alone, and a row whose key is above the worst kept row's is passed over with one
 * comparison of numbers, read in order; only equal keys go to `compare`.
 */
export function selectTop(
  rows: Uint32Array,
  n: number,
  k: number,
  compare: RowComparator,
  keys?: Float64Array,
  room?: TopRoom,
): Uint32Array {
  const want = Math.max(0, Math.min(k, n));
  if (want === 0) return new Uint32Array(0);
  if (want >= n * HEAP_SHARE) {
    const all = rows.subarray(0, n).sort(compare);
    return all.slice(0, want);
  }
  if (room && room.top.length < want) {
    room.top = new Uint32Array(Math.max(want, 2 * room.top.length));
    room.topKeys = new Float64Array(room.top.length);
  }
  // A max-heap on sort order: the root is the worst row kept so far.
  const heap = room ? room.top.subarray(0, want) : new Uint32Array(want);
  // The key of each kept row, moved with it.
  const heapKeys = room ? room.topKeys : new Float64Array(want);
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
        if (after(heapKeys[parent]!, heap[parent]!, key, row, compare) >= 0) break;
        heap[at] = heap[parent]!;
        heapKeys[at] = heapKeys[parent]!;
        at = parent;
      }
      heap[at] = row;
      heapKeys[at] = key;
      if (size === want && keys !== undefined) worstKey = heapKeys[0]!;
    } else if (after(key, row, heapKeys[0]!, heap[0]!, compare) < 0) {
      siftDown(heap, heapKeys, size, row, key, compare);
      if (keys !== undefined) worstKey = heapKeys[0]!;
    }
  }
  // Best first: the worst kept row goes to the end, the next worst before it, and so on (heapsort,
  // by keys first like the heap, rather than a typed array sort calling `compare` for every pair).
  for (let end = size - 1; end > 0; end--) {
    const row = heap[end]!;
    const key = heapKeys[end]!;
    heap[end] = heap[0]!;
    heapKeys[end] = heapKeys[0]!;
    siftDown(heap, heapKeys, end, row, key, compare);
  }
  return heap;
}

/** Negative when (key a, row a) sorts before (key b, row b): keys first, `compare` on a tie. */
function after(keyA: number, a: number, keyB: number, b: number, compare: RowComparator): number {
  return keyA < keyB ? -1 : keyA > keyB ? 1 : compare(a, b);
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
    const worse =
      right < size && after(heapKeys[right]!, heap[right]!, heapKeys[left]!, heap[left]!, compare) > 0 ? right : left;
    if (after(heapKeys[worse]!, heap[worse]!, key, row, compare) <= 0) break;
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
