/**
 * The index's data: one typed array per numeric field (a few bytes per location, scanned without
 * touching objects) and plain arrays for the strings a result card shows. Rows are stored in the
 * k-d tree's order, so the candidates of one radius query sit close together in memory.
 */
import KDBush from "kdbush";
import { freshUntil, isOpenStatus } from "../../domain/availability";
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

export interface IndexColumns {
  readonly size: number;
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  /**
   * The point on the unit sphere, (x, y, z) per row: the distance test is then a few
   * multiplications instead of trigonometry (see query.ts).
   */
  readonly unit: Float64Array;
  readonly tierWeight: Uint8Array;
  /** NaN when the location has no rating. */
  readonly rating: Float32Array;
  /** The rating sort key: the rating, or -1 when there is none (sorts last). */
  readonly ratingKey: Float32Array;
  readonly reviewCount: Uint32Array;
  readonly amenityMask: Uint32Array;
  readonly sizeMask: Uint16Array;
  /** The longest of the location's sizes in feet (My RV), 0 without a usable size. */
  readonly longestFeet: Float64Array;
  /** `covered_clearance_feet` (stored as `real`, so float32 loses nothing); NaN when not stated. */
  readonly clearance: Float32Array;
  /** The lowest owner price in whole dollars a month, NO_PRICE when none is given. */
  readonly minPrice: Uint32Array;
  /**
   * The priced sizes of row p are entries offerStart[p] .. offerStart[p + 1] - 1 of offerLength
   * and offerPrice, cheapest first: the price for an RV is the first entry long enough for it.
   */
  readonly offerStart: Uint32Array;
  readonly offerLength: Float64Array;
  readonly offerPrice: Uint32Array;
  /**
   * "Available now" (docs/product.md section 17): the sizes of row p marked available or few left
   * are entries openStart[p] .. openStart[p + 1] - 1 of openLength and openUntil, where openUntil
   * is the instant (ms) the status stops counting (domain/availability.ts `freshUntil`).
   */
  readonly openStart: Uint32Array;
  readonly openLength: Float64Array;
  readonly openUntil: Float64Array;
  /**
   * Every size with a stated status, for the card's availability line: entries statusStart[p] ..
   * statusStart[p + 1] - 1 of statusKind (the index in AVAILABILITIES) and statusAt (ms, NaN when
   * the time is missing or unreadable). Typed arrays: a few bytes a size, no object per row.
   */
  readonly statusStart: Uint32Array;
  readonly statusKind: Uint8Array;
  readonly statusAt: Float64Array;
  readonly isDemo: Uint8Array;
  readonly id: readonly string[];
  readonly slug: readonly string[];
  readonly name: readonly string[];
  readonly address: readonly (string | null)[];
  readonly state: readonly (string | null)[];
  readonly photo: readonly (string | null)[];
  /** The location's sizes as "WxL", comma-joined (split only for the rows of a page). */
  readonly sizeLabels: readonly string[];
  /** Lower-cased name, address and state, separated by NUL so that a needle never spans two fields. */
  readonly haystack: readonly string[];
  /** Over (lng, lat); its ids are the row numbers, which equal the tree positions. */
  readonly tree: KDBush;
  /** Row numbers per two-letter state code, ascending. */
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

/** What the availability line needs of one size: its status and the time it was set (ms or NaN). */
export interface StatedSize {
  kind: number;
  at: number;
}

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
  for (const offer of offers) {
    if (typeof offer !== "object" || offer === null) continue;
    const { length, availability, statusAt } = offer as {
      length?: unknown;
      availability?: unknown;
      statusAt?: unknown;
    };
    if (!isAvailability(availability)) continue;
    const at = typeof statusAt === "string" ? statusAt : null;
    const time = at === null ? NaN : Date.parse(at);
    stated.push({ kind: AVAILABILITIES.indexOf(availability), at: time });
    const until = freshUntil(at);
    if (isOpenStatus(availability) && until !== null && typeof length === "number" && Number.isFinite(length)) {
      open.push([length, until]);
    }
  }
  return { stated, open };
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
    const { lat, lng } = row;
    if (typeof lat !== "number" || typeof lng !== "number" || !isValidLatLng(lat, lng) || (lat === 0 && lng === 0)) {
      this.skipped++;
      return false;
    }
    const rating = row.rating;
    this.lat.push(lat);
    this.lng.push(lng);
    this.tierWeight.push(TIER_WEIGHT[row.tier] ?? TIER_WEIGHT.Free);
    this.rating.push(typeof rating === "number" && Number.isFinite(rating) ? rating : NaN);
    this.reviewCount.push(Math.max(0, Math.min(0xffffffff, Math.floor(row.reviewCount) || 0)));
    this.amenityMask.push(row.amenityMask >>> 0);
    this.sizeMask.push(sizeMaskOf(row.dimensions));
    this.longestFeet.push(longestLengthOf(row.dimensions));
    const clearance = row.clearanceFeet;
    this.clearance.push(typeof clearance === "number" && Number.isFinite(clearance) ? clearance : NaN);
    const offers = pricedOffersOf(row.offers);
    this.offers.push(offers.length > 0 ? offers : null);
    this.offerCount += offers.length;
    const { stated, open } = statedSizesOf(row.offers);
    this.open.push(open.length > 0 ? open : null);
    this.openCount += open.length;
    this.statuses.push(stated.length > 0 ? stated : null);
    this.statusCount += stated.length;
    this.isDemo.push(row.isDemo ? 1 : 0);
    this.id.push(row.id);
    this.slug.push(row.slug);
    this.name.push(row.name);
    this.address.push(row.address);
    this.state.push(row.state === null ? null : this.intern(row.state));
    this.photo.push(row.photo);
    this.sizeLabels.push(this.intern(sizeLabelsOf(row.dimensions).join(",")));
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
    const offerStart = new Uint32Array(n + 1);
    const offerLength = new Float64Array(this.offerCount);
    const offerPrice = new Uint32Array(this.offerCount);
    const minPrice = new Uint32Array(n).fill(NO_PRICE);
    let next = 0;
    for (let p = 0; p < n; p++) {
      offerStart[p] = next;
      const offers = this.offers[order[p]!];
      if (offers) {
        minPrice[p] = offers[0]![1];
        for (const [length, price] of offers) {
          offerLength[next] = length;
          offerPrice[next++] = price;
        }
      }
    }
    offerStart[n] = next;
    const openStart = new Uint32Array(n + 1);
    const openLength = new Float64Array(this.openCount);
    const openUntil = new Float64Array(this.openCount);
    next = 0;
    for (let p = 0; p < n; p++) {
      openStart[p] = next;
      for (const [length, until] of this.open[order[p]!] ?? []) {
        openLength[next] = length;
        openUntil[next++] = until;
      }
    }
    openStart[n] = next;
    const statusStart = new Uint32Array(n + 1);
    const statusKind = new Uint8Array(this.statusCount);
    const statusAt = new Float64Array(this.statusCount);
    next = 0;
    for (let p = 0; p < n; p++) {
      statusStart[p] = next;
      for (const { kind, at } of this.statuses[order[p]!] ?? []) {
        statusKind[next] = kind;
        statusAt[next++] = at;
      }
    }
    statusStart[n] = next;
    return {
      size: n,
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
      id: pick(this.id),
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
