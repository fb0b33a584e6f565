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
import { longestLengthOf, sizeLabelsOf, sizeMaskOf } from "./masks";
import type { SearchSourceRow } from "./source-row";

const RAD = Math.PI / 180;

/** Tier by weight (TIER_WEIGHT: Pro 4 ... Free 1). */
export const TIER_BY_WEIGHT: readonly Tier[] = (() => {
  const byWeight: Tier[] = [];
  for (const tier of TIERS) byWeight[TIER_WEIGHT[tier]] = tier;
  return byWeight;
})();

/** The price key of a row without a known price: above every price, so it sorts last. */
export const NO_PRICE = 0xffffffff;

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
   * Every size with a stated status, for the card's availability line: entries statusStart[p] ..
   * statusStart[p + 1] - 1 of statusKind (the index in AVAILABILITIES) and statusAt (ms, NaN when
   * the time is missing or unreadable). Typed arrays: a few bytes a size, no object per row.
   */
  statusStart: Uint32Array;
  statusKind: Uint8Array;
  statusAt: Float64Array;
  isDemo: Uint8Array;
  id: string[];
  slug: string[];
  name: string[];
  address: (string | null)[];
  state: (string | null)[];
  photo: (string | null)[];
  /** The location's sizes as "WxL", comma-joined (split only for the rows of a page). */
  sizeLabels: string[];
  /** Lower-cased name, address and state, separated by NUL so that a needle never spans two fields. */
  haystack: string[];
  /** Over (lng, lat) of the base rows; its ids are the row numbers, which equal the tree positions. */
  readonly tree: KDBush;
  /** Base row numbers per two-letter state code, ascending. */
  readonly byState: ReadonlyMap<string, Uint32Array>;
}

/** (x, y, z) on the unit sphere for each (lat, lng), interleaved. */
export function unitVectors(lat: Float64Array, lng: Float64Array): Float64Array {
  const unit = new Float64Array(lat.length * 3);
  for (let p = 0; p < lat.length; p++) {
    const phi = lat[p]! * RAD;
    const lambda = lng[p]! * RAD;
    unit[3 * p] = Math.cos(phi) * Math.cos(lambda);
    unit[3 * p + 1] = Math.cos(phi) * Math.sin(lambda);
    unit[3 * p + 2] = Math.sin(phi);
  }
  return unit;
}

/** The text-filter form of a row; the query lower-cases its needle the same way. */
export function haystackOf(name: string, address: string | null, state: string | null): string {
  return `${name}\u0000${address ?? ""}\u0000${state ?? ""}`.toLowerCase();
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

/**
 * Accumulates rows, then builds the columns. Rows without usable coordinates are dropped here:
 * null, non-finite, out of range, or exactly (0, 0), the usual placeholder of a missing point
 * (nothing the directory lists lies in the Gulf of Guinea).
 */
export class ColumnBuilder {
  private readonly lat: number[] = [];
  private readonly lng: number[] = [];
  private readonly tierWeight: number[] = [];
  private readonly rating: number[] = [];
  private readonly reviewCount: number[] = [];
  private readonly amenityMask: number[] = [];
  private readonly sizeMask: number[] = [];
  private readonly longestFeet: number[] = [];
  private readonly clearance: number[] = [];
  /** Per row: its priced sizes (pricedOffersOf), or null without any. */
  private readonly offers: ([number, number][] | null)[] = [];
  private offerCount = 0;
  /** Per row: its open sizes as [length, until], or null without any. */
  private readonly open: ([number, number][] | null)[] = [];
  private openCount = 0;
  private readonly statuses: (StatedSize[] | null)[] = [];
  private statusCount = 0;
  private readonly isDemo: number[] = [];
  private readonly id: string[] = [];
  /** Whether rows came in id order (the database loader reads by id): the id order is then free. */
  private idsAscending = true;
  private readonly slug: string[] = [];
  private readonly name: string[] = [];
  private readonly address: (string | null)[] = [];
  private readonly state: (string | null)[] = [];
  private readonly photo: (string | null)[] = [];
  private readonly sizeLabels: string[] = [];
  /** Many rows share a state or a size list: keep one string of each. */
  private readonly interned = new Map<string, string>();
  skipped = 0;

  private intern(value: string): string {
    const known = this.interned.get(value);
    if (known !== undefined) return known;
    this.interned.set(value, value);
    return value;
  }

  /** Adds a row; false (and counted in `skipped`) when it has no usable coordinates. */
  add(row: SearchSourceRow): boolean {
    const v = rowValues(row);
    if (!v) {
      this.skipped++;
      return false;
    }
    this.lat.push(v.lat);
    this.lng.push(v.lng);
    this.tierWeight.push(v.tierWeight);
    this.rating.push(v.rating);
    this.reviewCount.push(v.reviewCount);
    this.amenityMask.push(v.amenityMask);
    this.sizeMask.push(v.sizeMask);
    this.longestFeet.push(v.longestFeet);
    this.clearance.push(v.clearance);
    this.offers.push(v.offers.length > 0 ? v.offers : null);
    this.offerCount += v.offers.length;
    this.open.push(v.open.length > 0 ? v.open : null);
    this.openCount += v.open.length;
    this.statuses.push(v.stated.length > 0 ? v.stated : null);
    this.statusCount += v.stated.length;
    this.isDemo.push(v.isDemo);
    const previous = this.id[this.id.length - 1];
    if (previous !== undefined && compareIds(previous, row.id) >= 0) this.idsAscending = false;
    this.id.push(row.id);
    this.slug.push(row.slug);
    this.name.push(row.name);
    this.address.push(row.address);
    this.state.push(row.state === null ? null : this.intern(row.state));
    this.photo.push(row.photo);
    this.sizeLabels.push(this.intern(v.sizeLabels));
    return true;
  }

  get count(): number {
    return this.id.length;
  }

  build(): IndexColumns {
    const n = this.id.length;
    const tree = new KDBush(n, 64, Float64Array);
    for (let i = 0; i < n; i++) tree.add(this.lng[i]!, this.lat[i]!);
    tree.finish();
    // Re-number the rows in tree order; the tree's ids then become the identity.
    const order = Uint32Array.from(tree.ids);
    for (let p = 0; p < n; p++) tree.ids[p] = p;

    const floats = (source: readonly number[]) => Float64Array.from(order, (i) => source[i]!);
    const lat = floats(this.lat);
    const lng = floats(this.lng);
    const pick = <T>(source: readonly T[]): T[] => Array.from(order, (i) => source[i]!);
    const name = pick(this.name);
    const address = pick(this.address);
    const state = pick(this.state);

    const stateRows = new Map<string, number[]>();
    for (let p = 0; p < n; p++) {
      const code = state[p];
      if (!code) continue;
      const key = code.toUpperCase();
      const list = stateRows.get(key) ?? [];
      list.push(p);
      stateRows.set(key, list);
    }
    const rating = Float32Array.from(order, (i) => this.rating[i]!);
    const offerLength = new Float64Array(this.offerCount);
    const offerPrice = new Uint32Array(this.offerCount);
    const offerStart = packPairs(this.offers, order, offerLength, offerPrice);
    const minPrice = new Uint32Array(n).fill(NO_PRICE);
    for (let p = 0; p < n; p++) if (offerStart[p + 1]! > offerStart[p]!) minPrice[p] = offerPrice[offerStart[p]!]!;
    const openLength = new Float64Array(this.openCount);
    const openUntil = new Float64Array(this.openCount);
    const openStart = packPairs(this.open, order, openLength, openUntil);
    const statusKind = new Uint8Array(this.statusCount);
    const statusAt = new Float64Array(this.statusCount);
    const statusStart = packPairs(this.statuses, order, statusKind, statusAt);
    const id = pick(this.id);
    // Row p came in as row order[p]: in id order already, the id order is the inverse permutation.
    let idOrder: Uint32Array;
    if (this.idsAscending) {
      idOrder = new Uint32Array(n);
      for (let p = 0; p < n; p++) idOrder[order[p]!] = p;
    } else idOrder = Uint32Array.from({ length: n }, (_, p) => p).sort((a, b) => compareIds(id[a]!, id[b]!));
    return {
      size: n,
      baseSize: n,
      live: n,
      dead: new Uint8Array(n),
      idOrder,
      tailIds: new Map(),
      lat,
      lng,
      unit: unitVectors(lat, lng),
      tierWeight: Uint8Array.from(order, (i) => this.tierWeight[i]!),
      rating,
      ratingKey: rating.map((r) => (Number.isNaN(r) ? -1 : r)),
      reviewCount: Uint32Array.from(order, (i) => this.reviewCount[i]!),
      amenityMask: Uint32Array.from(order, (i) => this.amenityMask[i]!),
      sizeMask: Uint16Array.from(order, (i) => this.sizeMask[i]!),
      longestFeet: floats(this.longestFeet),
      clearance: Float32Array.from(order, (i) => this.clearance[i]!),
      minPrice,
      offerStart,
      offerLength,
      offerPrice,
      openStart,
      openLength,
      openUntil,
      statusStart,
      statusKind,
      statusAt,
      isDemo: Uint8Array.from(order, (i) => this.isDemo[i]!),
      id,
      slug: pick(this.slug),
      name,
      address,
      state,
      photo: pick(this.photo),
      sizeLabels: pick(this.sizeLabels),
      haystack: name.map((nm, p) => haystackOf(nm, address[p] ?? null, state[p] ?? null)),
      tree,
      byState: new Map([...stateRows].map(([code, rows]) => [code, Uint32Array.from(rows)])),
    };
  }
}

/** Plain code-unit order, the same everywhere (not the locale's). */
const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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
    const order = compareIds(cols.id[p]!, id);
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
  cols.live--;
  if (p >= cols.baseSize) cols.tailIds.delete(id);
  return true;
}

type Numbers = Float64Array | Float32Array | Uint32Array | Uint16Array | Uint8Array;

/** `array`, or a copy half as long again when it is shorter than `length`. */
function room<T extends Numbers>(array: T, length: number): T {
  if (array.length >= length) return array;
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(length, Math.ceil(array.length * 1.5) + 16));
  bigger.set(array);
  return bigger;
}

/**
 * Each row's pairs (a size's length and price, say) packed in tree order: row p's are entries
 * start[p] .. start[p + 1] - 1 of `a` and `b`, which hold exactly all of them. Returns `start`.
 */
function packPairs(
  perRow: readonly (readonly (readonly [number, number])[] | null)[],
  order: Uint32Array,
  a: Numbers,
  b: Numbers,
): Uint32Array {
  const start = new Uint32Array(order.length + 1);
  let next = 0;
  for (let p = 0; p < order.length; p++) {
    start[p] = next;
    for (const [x, y] of perRow[order[p]!] ?? []) {
      a[next] = x;
      b[next++] = y;
    }
  }
  start[order.length] = next;
  return start;
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
  cols.offerStart = room(cols.offerStart, rows + 1);
  cols.openStart = room(cols.openStart, rows + 1);
  cols.statusStart = room(cols.statusStart, rows + 1);

  cols.dead[p] = 0;
  cols.lat[p] = v.lat;
  cols.lng[p] = v.lng;
  const [x, y, z] = unitVectors(Float64Array.of(v.lat), Float64Array.of(v.lng));
  cols.unit[3 * p] = x!;
  cols.unit[3 * p + 1] = y!;
  cols.unit[3 * p + 2] = z!;
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
  [cols.statusKind, cols.statusAt] = appendPairs(cols.statusStart, cols.statusKind, cols.statusAt, p, v.stated);

  cols.id.push(row.id);
  cols.slug.push(row.slug);
  cols.name.push(row.name);
  cols.address.push(row.address);
  cols.state.push(row.state);
  cols.photo.push(row.photo);
  cols.sizeLabels.push(v.sizeLabels);
  cols.haystack.push(haystackOf(row.name, row.address, row.state));
  cols.size = rows;
  cols.live++;
  cols.tailIds.set(row.id, p);
  return p;
}
