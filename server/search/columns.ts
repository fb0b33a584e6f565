/**
 * The index's data: one typed array per numeric field (a few bytes per location, scanned without
 * touching objects) and plain arrays for the strings a result card shows. Rows are stored in the
 * k-d tree's order, so the candidates of one radius query sit close together in memory.
 */
import KDBush from "kdbush";
import { freshUntilTime, isOpenStatus } from "../../domain/availability";
import { AVAILABILITIES, type Availability } from "../../domain/listings";
import { TIER_WEIGHT, TIERS, type Tier } from "../../domain/tiers";
import { isValidLatLng } from "../geo/coordinates";
import { NO_PRICE } from "./price";
import { blockRowDied, summariseBlocks, type RowBlocks } from "./blocks";
import { longestLengthOf, sizeLabelsOf, sizeMaskOf } from "./masks";
import type { SearchSourceRow } from "./source-row";
import { room, RowText, type Numbers } from "./text";

const RAD = Math.PI / 180;

/** Tier by weight (TIER_WEIGHT: Pro 4 ... Free 1). */
export const TIER_BY_WEIGHT: readonly Tier[] = (() => {
  const byWeight: Tier[] = [];
  for (const tier of TIERS) byWeight[TIER_WEIGHT[tier]] = tier;
  return byWeight;
})();

export { NO_PRICE } from "./price";

/**
 * The columns are built once from the whole catalogue (the "base", in the k-d tree) and then
 * changed in place (docs/operations.md, "What instances share"): a changed or deleted listing's row is
 * marked dead, and its new version is appended after the base, where queries scan it without the
 * tree. Queries run synchronously between changes, so each sees one consistent state. The arrays
 * grow by half when an append needs room, so they may be longer than `size`.
 */
export interface IndexColumns {
  /** Rows stored, dead ones included: the base's, then the appended ones. */
  size: number;
  /** Rows in the tree: rows 0 .. baseSize - 1. */
  readonly baseSize: number;
  /** Rows not dead. */
  live: number;
  /** 1 for a row superseded by a newer version or deleted. */
  dead: Uint8Array;
  /** The base rows in id order, for finding a listing's row without a map of a million keys. */
  readonly idOrder: Uint32Array;
  /** Appended rows by listing id (the live one of each). */
  readonly tailIds: Map<string, number>;
  lat: Float64Array;
  lng: Float64Array;
  /**
   * The point on the unit sphere, (x, y, z) per row: the distance test is then a few
   * multiplications instead of trigonometry (see query.ts).
   */
  unit: Float64Array;
  tierWeight: Uint8Array;
  /** NaN when the location has no rating. */
  rating: Float32Array;
  /** The rating sort key: the rating, or -1 when there is none (sorts last). */
  ratingKey: Float32Array;
  reviewCount: Uint32Array;
  amenityMask: Uint32Array;
  sizeMask: Uint16Array;
  /** The longest of the location's sizes in feet (My RV), 0 without a usable size. */
  longestFeet: Float64Array;
  /** `covered_clearance_feet` (stored as `real`, so float32 loses nothing); NaN when not stated. */
  clearance: Float32Array;
  /** The lowest owner price in whole dollars a month, NO_PRICE when none is given. */
  minPrice: Uint32Array;
  /**
   * The priced sizes of row p are entries offerStart[p] .. offerStart[p + 1] - 1 of offerLength
   * and offerPrice, cheapest first: the price for an RV is the first entry long enough for it.
   */
  offerStart: Uint32Array;
  offerLength: Float64Array;
  offerPrice: Uint32Array;
  /**
   * "Available now" (docs/product.md section 17): the sizes of row p marked available or few left
   * are entries openStart[p] .. openStart[p + 1] - 1 of openLength and openUntil, where openUntil
   * is the instant (ms) the status stops counting (domain/availability.ts `freshUntil`).
   */
  openStart: Uint32Array;
  openLength: Float64Array;
  openUntil: Float64Array;
  /**
   * The latest openUntil of row p's entries long enough for any RV (length >= 0), 0 when none:
   * without an RV, row p is available at `now` exactly when now < openLatest[p], one read instead
   * of a walk of its entries (the walk was the largest part of a large search's filter loop).
   */
  openLatest: Float64Array;
  /**
   * Every size with a stated status, for the card's availability line: entries statusStart[p] ..
   * statusStart[p + 1] - 1 of statusKind (the index in AVAILABILITIES) and statusAt (ms, NaN when
   * the time is missing or unreadable). Typed arrays: a few bytes a size, no object per row.
   */
  statusStart: Uint32Array;
  statusKind: Uint8Array;
  statusAt: Float64Array;
  isDemo: Uint8Array;
  /**
   * Row p's strings are entry entry[p] of `text` (text.ts), which keeps them in the order rows were
   * added: only a page's rows are decoded, and the build does not move them.
   */
  entry: Uint32Array;
  readonly text: RowText;
  /** Over (lng, lat) of the base rows; its ids are the row numbers, which equal the tree positions. */
  readonly tree: KDBush;
  /** Base row numbers per two-letter state code, ascending. */
  readonly byState: ReadonlyMap<string, Uint32Array>;
  /** The base rows summarised by blocks of 64 (blocks.ts), for large searches. */
  readonly blocks: RowBlocks;
}

/** Writes (x, y, z) on the unit sphere for rows from .. to - 1 of (lat, lng) into `unit`, interleaved. */
export function unitVectorsInto(
  unit: Float64Array,
  lat: Float64Array,
  lng: Float64Array,
  from: number,
  to: number,
): Float64Array {
  for (let p = from; p < to; p++) {
    const phi = lat[p]! * RAD;
    const lambda = lng[p]! * RAD;
    unit[3 * p] = Math.cos(phi) * Math.cos(lambda);
    unit[3 * p + 1] = Math.cos(phi) * Math.sin(lambda);
    unit[3 * p + 2] = Math.sin(phi);
  }
  return unit;
}

/**
 * The owner's priced sizes as [length, price] pairs, cheapest first (then longest first): entries
 * without a usable size or a whole, non-negative price are left out.
 */
export function pricedOffersOf(offers: readonly unknown[] | null | undefined): [number, number][] {
  if (!Array.isArray(offers)) return [];
  const priced: [number, number][] = [];
  for (const offer of offers) {
    if (typeof offer !== "object" || offer === null) continue;
    const { width, length, monthlyPrice } = offer as { width?: unknown; length?: unknown; monthlyPrice?: unknown };
    if (typeof width !== "number" || !(Number.isFinite(width) && width > 0)) continue;
    if (typeof length !== "number" || !(Number.isFinite(length) && length > 0)) continue;
    if (typeof monthlyPrice !== "number" || !Number.isInteger(monthlyPrice)) continue;
    if (monthlyPrice < 0 || monthlyPrice >= NO_PRICE) continue;
    priced.push([length, monthlyPrice]);
  }
  return priced.sort((a, b) => a[1] - b[1] || b[0] - a[0]);
}

/** What the availability line needs of one size: its status (index in AVAILABILITIES) and time (ms or NaN). */
export type StatedSize = [kind: number, at: number];

const isAvailability = (value: unknown): value is Availability =>
  typeof value === "string" && (AVAILABILITIES as readonly string[]).includes(value);

/** The sizes with a status, and of those the open ones with a readable date as [length, until]. */
export function statedSizesOf(offers: readonly unknown[] | null | undefined): {
  stated: StatedSize[];
  open: [number, number][];
} {
  const stated: StatedSize[] = [];
  const open: [number, number][] = [];
  if (!Array.isArray(offers)) return { stated, open };
  // A listing's sizes usually share one time: it is read once (a million rows, several sizes each).
  let lastAt: string | null = null;
  let lastTime = NaN;
  for (const offer of offers) {
    if (typeof offer !== "object" || offer === null) continue;
    const { length, availability, statusAt } = offer as {
      length?: unknown;
      availability?: unknown;
      statusAt?: unknown;
    };
    if (!isAvailability(availability)) continue;
    const at = typeof statusAt === "string" ? statusAt : null;
    if (at !== lastAt) {
      lastAt = at;
      lastTime = at === null ? NaN : Date.parse(at);
    }
    const time = lastTime;
    stated.push([AVAILABILITIES.indexOf(availability), time]);
    const until = freshUntilTime(time);
    if (isOpenStatus(availability) && until !== null && typeof length === "number" && Number.isFinite(length)) {
      open.push([length, until]);
    }
  }
  return { stated, open };
}

/** Whether a row's point is usable: finite, in range, and not exactly (0, 0) (see ColumnBuilder). */
function usablePoint(lat: unknown, lng: unknown): lat is number {
  return typeof lat === "number" && typeof lng === "number" && isValidLatLng(lat, lng) && !(lat === 0 && lng === 0);
}

/** A row's values as the columns store them; null without a usable point. */
function rowValues(row: SearchSourceRow) {
  const { lat, lng, rating, clearanceFeet } = row;
  if (!usablePoint(lat, lng)) return null;
  const { stated, open } = statedSizesOf(row.offers);
  return {
    lat,
    lng: lng as number,
    tierWeight: TIER_WEIGHT[row.tier] ?? TIER_WEIGHT.Free,
    rating: typeof rating === "number" && Number.isFinite(rating) ? rating : NaN,
    reviewCount: Math.max(0, Math.min(0xffffffff, Math.floor(row.reviewCount) || 0)),
    amenityMask: row.amenityMask >>> 0,
    sizeMask: sizeMaskOf(row.dimensions),
    longestFeet: longestLengthOf(row.dimensions),
    clearance: typeof clearanceFeet === "number" && Number.isFinite(clearanceFeet) ? clearanceFeet : NaN,
    offers: pricedOffersOf(row.offers),
    open,
    stated,
    isDemo: row.isDemo ? 1 : 0,
    sizeLabels: sizeLabelsOf(row.dimensions).join(","),
  };
}

/** Spare rows the columns are built with, so that changes applied in place rarely copy them (see `room`). */
export function spareRows(rows: number): number {
  return Math.min(50_000, Math.max(1_000, Math.floor(rows / 20))) + 16;
}

/**
 * Accumulates rows, then builds the columns. Rows without usable coordinates are dropped here:
 * null, non-finite, out of range, or exactly (0, 0), the usual placeholder of a missing point
 * (nothing the directory lists lies in the Gulf of Guinea).
 */
export class ColumnBuilder {
  /** Rows added (in the order they came: "entries"), and room for this many. */
  private n = 0;
  private capacity: number;
  private lat: Float64Array;
  private lng: Float64Array;
  private tierWeight: Uint8Array;
  private rating: Float32Array;
  private reviewCount: Uint32Array;
  private amenityMask: Uint32Array;
  private sizeMask: Uint16Array;
  private longestFeet: Float64Array;
  private clearance: Float32Array;
  private isDemo: Uint8Array;
  /** Each entry's pairs (columns.ts `packPairs`), in entry order: its priced, open and stated sizes. */
  private readonly offers = new PairList(Float64Array, Uint32Array);
  private readonly open = new PairList(Float64Array, Float64Array);
  private readonly statuses = new PairList(Uint8Array, Float64Array);
  /** The previous row's id, to tell whether rows come in id order (the database loader reads by id). */
  private lastId: string | undefined;
  private idsAscending = true;
  private readonly text: RowText;
  skipped = 0;

  /** `expectedRows`: room to start with (it grows as needed). */
  constructor(expectedRows = 1024) {
    this.capacity = Math.max(16, expectedRows);
    this.text = new RowText(this.capacity);
    this.lat = new Float64Array(this.capacity);
    this.lng = new Float64Array(this.capacity);
    this.tierWeight = new Uint8Array(this.capacity);
    this.rating = new Float32Array(this.capacity);
    this.reviewCount = new Uint32Array(this.capacity);
    this.amenityMask = new Uint32Array(this.capacity);
    this.sizeMask = new Uint16Array(this.capacity);
    this.longestFeet = new Float64Array(this.capacity);
    this.clearance = new Float32Array(this.capacity);
    this.isDemo = new Uint8Array(this.capacity);
  }

  /** Adds a row; false (and counted in `skipped`) when it has no usable coordinates. */
  add(row: SearchSourceRow): boolean {
    const v = rowValues(row);
    if (!v) {
      this.skipped++;
      return false;
    }
    const i = this.n;
    if (i === this.capacity) this.grow();
    this.lat[i] = v.lat;
    this.lng[i] = v.lng;
    this.tierWeight[i] = v.tierWeight;
    this.rating[i] = v.rating;
    this.reviewCount[i] = v.reviewCount;
    this.amenityMask[i] = v.amenityMask;
    this.sizeMask[i] = v.sizeMask;
    this.longestFeet[i] = v.longestFeet;
    this.clearance[i] = v.clearance;
    this.isDemo[i] = v.isDemo;
    this.offers.add(i, v.offers);
    this.open.add(i, v.open);
    this.statuses.add(i, v.stated);
    if (this.lastId !== undefined && compareIds(this.lastId, row.id) >= 0) this.idsAscending = false;
    this.lastId = row.id;
    this.text.push({ ...row, sizeLabels: v.sizeLabels });
    this.n = i + 1;
    return true;
  }

  private grow(): void {
    const capacity = Math.ceil(this.capacity * 1.5) + 16;
    this.lat = room(this.lat, capacity);
    this.lng = room(this.lng, capacity);
    this.tierWeight = room(this.tierWeight, capacity);
    this.rating = room(this.rating, capacity);
    this.reviewCount = room(this.reviewCount, capacity);
    this.amenityMask = room(this.amenityMask, capacity);
    this.sizeMask = room(this.sizeMask, capacity);
    this.longestFeet = room(this.longestFeet, capacity);
    this.clearance = room(this.clearance, capacity);
    this.isDemo = room(this.isDemo, capacity);
    this.capacity = capacity;
  }

  get count(): number {
    return this.n;
  }

  build(): IndexColumns {
    const n = this.n;
    const capacity = n + spareRows(n);
    const tree = new KDBush(n, 64, Float64Array);
    for (let i = 0; i < n; i++) tree.add(this.lng[i]!, this.lat[i]!);
    tree.finish();
    // Re-number the rows in tree order; the tree's ids then become the identity. Row p's strings
    // stay where they are: entry order[p].
    const order = new Uint32Array(capacity);
    order.set(tree.ids);
    for (let p = 0; p < n; p++) tree.ids[p] = p;

    /** A column in row order, with spare room for appended rows. */
    const column = <T extends Numbers>(source: T): T => {
      const out = new (source.constructor as new (length: number) => T)(capacity);
      for (let p = 0; p < n; p++) out[p] = source[order[p]!]!;
      return out;
    };
    const lat = column(this.lat);
    const lng = column(this.lng);
    const rating = column(this.rating);
    const ratingKey = new Float32Array(capacity);
    for (let p = 0; p < n; p++) ratingKey[p] = Number.isNaN(rating[p]!) ? -1 : rating[p]!;
    const offers = this.offers.pack(order, n, capacity);
    const minPrice = new Uint32Array(capacity).fill(NO_PRICE);
    for (let p = 0; p < n; p++) if (offers.start[p + 1]! > offers.start[p]!) minPrice[p] = offers.b[offers.start[p]!]!;
    const open = this.open.pack(order, n, capacity);
    const openLatest = new Float64Array(capacity);
    for (let p = 0; p < n; p++) openLatest[p] = latestOpen(open.start, open.a, open.b, p);
    const statuses = this.statuses.pack(order, n, capacity);
    // Row p came in as row order[p]: in id order already, the id order is the inverse permutation.
    let idOrder: Uint32Array;
    if (this.idsAscending) {
      idOrder = new Uint32Array(n);
      for (let p = 0; p < n; p++) idOrder[order[p]!] = p;
    } else {
      const ids = Array.from({ length: n }, (_, p) => this.text.id.get(order[p]!)!);
      idOrder = Uint32Array.from({ length: n }, (_, p) => p).sort((a, b) => compareIds(ids[a]!, ids[b]!));
    }
    const columns: Omit<IndexColumns, "blocks"> = {
      size: n,
      baseSize: n,
      live: n,
      dead: new Uint8Array(capacity),
      idOrder,
      tailIds: new Map(),
      lat,
      lng,
      unit: unitVectorsInto(new Float64Array(3 * capacity), lat, lng, 0, n),
      tierWeight: column(this.tierWeight),
      rating,
      ratingKey,
      reviewCount: column(this.reviewCount),
      amenityMask: column(this.amenityMask),
      sizeMask: column(this.sizeMask),
      longestFeet: column(this.longestFeet),
      clearance: column(this.clearance),
      minPrice,
      offerStart: offers.start,
      offerLength: offers.a,
      offerPrice: offers.b,
      openStart: open.start,
      openLength: open.a,
      openUntil: open.b,
      openLatest,
      statusStart: statuses.start,
      statusKind: statuses.a,
      statusAt: statuses.b,
      isDemo: column(this.isDemo),
      entry: order,
      text: this.text,
      tree,
      byState: stateLists(this.text, order, n),
    };
    return { ...columns, blocks: summariseBlocks(columns) };
  }
}

/**
 * Pairs of numbers per entry (a size's length and price, say) while the builder collects rows:
 * entry i's are items start[i] .. start[i + 1] - 1 of `a` and `b`, with no array per entry.
 */
class PairList<A extends Numbers, B extends Numbers> {
  private a: A;
  private b: B;
  private start = new Uint32Array(1025);
  private used = 0;

  constructor(
    private readonly A: new (n: number) => A,
    private readonly B: new (n: number) => B,
  ) {
    this.a = new A(1024);
    this.b = new B(1024);
  }

  /** Entry i's pairs; entries are added in order, from 0. */
  add(i: number, pairs: readonly (readonly [number, number])[]): void {
    this.start = room(this.start, i + 2);
    this.a = room(this.a, this.used + pairs.length);
    this.b = room(this.b, this.used + pairs.length);
    for (const [x, y] of pairs) {
      this.a[this.used] = x;
      this.b[this.used++] = y;
    }
    this.start[i + 1] = this.used;
  }

  /**
   * The pairs in row order (row p is entry order[p]): row p's are items start[p] .. start[p + 1] - 1,
   * with spare room after `rows` rows for about as many pairs per row again.
   */
  pack(order: Uint32Array, rows: number, capacity: number): { start: Uint32Array; a: A; b: B } {
    const room = this.used + Math.ceil((this.used / Math.max(1, rows)) * (capacity - rows)) + 16;
    const a = new this.A(room);
    const b = new this.B(room);
    const start = new Uint32Array(capacity + 1);
    let next = 0;
    for (let p = 0; p < rows; p++) {
      start[p] = next;
      const i = order[p]!;
      for (let k = this.start[i]!, end = this.start[i + 1]!; k < end; k++) {
        a[next] = this.a[k]!;
        b[next++] = this.b[k]!;
      }
    }
    start[rows] = next;
    return { start, a, b };
  }
}

/** The states' row lists of the base rows (rebuilt when a snapshot is read). */
export function stateLists(text: RowText, entry: Uint32Array, baseSize: number): Map<string, Uint32Array> {
  const rowsByCode = new Map<number, number[]>();
  for (let p = 0; p < baseSize; p++) {
    const code = text.state.code(entry[p]!);
    if (code === 0) continue;
    const list = rowsByCode.get(code);
    if (list) list.push(p);
    else rowsByCode.set(code, [p]);
  }
  const byState = new Map<string, Uint32Array>();
  for (const [code, value] of text.state.table()) {
    const rows = rowsByCode.get(code);
    if (!rows || value === "") continue;
    const key = value.toUpperCase();
    // Two spellings of one code ("tx", "TX") share a list, still ascending.
    const known = byState.get(key);
    byState.set(key, known ? Uint32Array.from([...known, ...rows]).sort() : Uint32Array.from(rows));
  }
  return byState;
}

/** Plain code-unit order, the same everywhere (not the locale's). */
export const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Row p's listing id. */
export function idAt(cols: IndexColumns, p: number): string {
  return cols.text.id.get(cols.entry[p]!)!;
}

/** Rows p and q in their listings' id order (the last tie-breaker of every sort). */
export function compareRowIds(cols: IndexColumns, p: number, q: number): number {
  return compareIds(idAt(cols, p), idAt(cols, q));
}

/** The live row of listing `id`, or undefined. */
export function rowOf(cols: IndexColumns, id: string): number | undefined {
  const tail = cols.tailIds.get(id);
  if (tail !== undefined) return cols.dead[tail] ? undefined : tail;
  const { idOrder } = cols;
  let lo = 0;
  let hi = idOrder.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const p = idOrder[mid]!;
    const order = compareIds(idAt(cols, p), id);
    if (order === 0) return cols.dead[p] ? undefined : p;
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Marks listing `id`'s row dead; false when it had none. */
export function removeRow(cols: IndexColumns, id: string): boolean {
  const p = rowOf(cols, id);
  if (p === undefined) return false;
  cols.dead[p] = 1;
  if (p < cols.baseSize) blockRowDied(cols.blocks, p);
  cols.live--;
  if (p >= cols.baseSize) cols.tailIds.delete(id);
  return true;
}

/** Row p's pairs written after the last row's (p is the new last row); `a` and `b` grown as needed. */
function appendPairs<A extends Numbers, B extends Numbers>(
  start: Uint32Array,
  a: A,
  b: B,
  p: number,
  pairs: readonly (readonly [number, number])[],
): [A, B] {
  let end = start[p]!;
  const grownA = room(a, end + pairs.length);
  const grownB = room(b, end + pairs.length);
  for (const [x, y] of pairs) {
    grownA[end] = x;
    grownB[end++] = y;
  }
  start[p + 1] = end;
  return [grownA, grownB];
}

/** IndexColumns.openLatest of row p, from its open entries. */
function latestOpen(start: Uint32Array, length: Float64Array, until: Float64Array, p: number): number {
  let latest = 0;
  for (let k = start[p]!, end = start[p + 1]!; k < end; k++) {
    if (length[k]! >= 0 && until[k]! > latest) latest = until[k]!;
  }
  return latest;
}

/**
 * Appends a row (a listing's new version, after `removeRow` of its old one) past the base, where
 * queries scan it without the tree. Returns its row number, or null when it has no usable point
 * (then it is simply not in the index, as at a build).
 */
export function appendRow(cols: IndexColumns, row: SearchSourceRow): number | null {
  const v = rowValues(row);
  if (!v) return null;
  const p = cols.size;
  const rows = p + 1;
  cols.dead = room(cols.dead, rows);
  cols.lat = room(cols.lat, rows);
  cols.lng = room(cols.lng, rows);
  cols.unit = room(cols.unit, 3 * rows);
  cols.tierWeight = room(cols.tierWeight, rows);
  cols.rating = room(cols.rating, rows);
  cols.ratingKey = room(cols.ratingKey, rows);
  cols.reviewCount = room(cols.reviewCount, rows);
  cols.amenityMask = room(cols.amenityMask, rows);
  cols.sizeMask = room(cols.sizeMask, rows);
  cols.longestFeet = room(cols.longestFeet, rows);
  cols.clearance = room(cols.clearance, rows);
  cols.minPrice = room(cols.minPrice, rows);
  cols.isDemo = room(cols.isDemo, rows);
  cols.entry = room(cols.entry, rows);
  cols.offerStart = room(cols.offerStart, rows + 1);
  cols.openStart = room(cols.openStart, rows + 1);
  cols.openLatest = room(cols.openLatest, rows);
  cols.statusStart = room(cols.statusStart, rows + 1);

  cols.dead[p] = 0;
  cols.lat[p] = v.lat;
  cols.lng[p] = v.lng;
  unitVectorsInto(cols.unit, cols.lat, cols.lng, p, rows);
  cols.tierWeight[p] = v.tierWeight;
  cols.rating[p] = v.rating;
  cols.ratingKey[p] = Number.isNaN(cols.rating[p]!) ? -1 : cols.rating[p]!;
  cols.reviewCount[p] = v.reviewCount;
  cols.amenityMask[p] = v.amenityMask;
  cols.sizeMask[p] = v.sizeMask;
  cols.longestFeet[p] = v.longestFeet;
  cols.clearance[p] = v.clearance;
  cols.minPrice[p] = v.offers[0]?.[1] ?? NO_PRICE;
  cols.isDemo[p] = v.isDemo;

  [cols.offerLength, cols.offerPrice] = appendPairs(cols.offerStart, cols.offerLength, cols.offerPrice, p, v.offers);
  [cols.openLength, cols.openUntil] = appendPairs(cols.openStart, cols.openLength, cols.openUntil, p, v.open);
  cols.openLatest[p] = latestOpen(cols.openStart, cols.openLength, cols.openUntil, p);
  [cols.statusKind, cols.statusAt] = appendPairs(cols.statusStart, cols.statusKind, cols.statusAt, p, v.stated);

  cols.entry[p] = cols.text.push({ ...row, sizeLabels: v.sizeLabels });
  cols.size = rows;
  cols.live++;
  cols.tailIds.set(row.id, p);
  return p;
}

/** Bytes the columns hold, spare room included (the benchmark's and the health check's figure). */
export function columnBytes(cols: IndexColumns): number {
  let bytes = cols.text.byteLength + cols.tree.data.byteLength;
  for (const value of Object.values(cols)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  for (const rows of cols.byState.values()) bytes += rows.byteLength;
  for (const value of Object.values(cols.blocks)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  return bytes;
}
