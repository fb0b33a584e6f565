/**
 * Test support: a deliberately naive search over full location rows, written straight from
 * docs/product.md sections 5 and 9, for the index to be checked against; and demo rows around chosen
 * points, made by the demo factory.
 */
import { AMENITY_FILTERS, isAmenityFlag, type AmenityFilter, type AmenityFlag } from "../../domain/amenities";
import { isAvailableNow } from "../../domain/availability";
import type { SearchFacets, SearchQuery } from "../../domain/search";
import { SIZE_OPTIONS_LIST, sizeOptionDimensions, type SizeOption } from "../../domain/sizes";
import { TIER_WEIGHT } from "../../domain/tiers";
import type { NewLocationRow } from "../db/schema";
import { haversineMiles, isValidLatLng, type Place } from "../geo";
import { FLAG_COLUMN } from "../locations/amenities";
import { makeDemoLocation } from "../locations/demo";
import { createRandom } from "../locations/random";

export interface ReferenceHit {
  row: NewLocationRow;
  miles: number;
  /** The price for this query (referencePrice), null when unknown. */
  price: number | null;
}

export interface ReferenceResult {
  total: number;
  /** Every hit, in sort order. */
  ordered: ReferenceHit[];
  facets: SearchFacets;
}

const hasFlag = (row: NewLocationRow, flag: AmenityFlag) => row[FLAG_COLUMN[flag] as keyof NewLocationRow] === true;

/** A text amenity is present when its text has a non-space character (docs/product.md section 5). */
const TEXT_COLUMN = {
  parking_options: "parkingOptions",
  payment_options: "paymentOptions",
  accessibility_options: "accessibilityOptions",
} as const;
const hasAmenity = (row: NewLocationRow, value: AmenityFilter) =>
  isAmenityFlag(value) ? hasFlag(row, value) : /\S/.test(row[TEXT_COLUMN[value]] ?? "");

const offersSize = (row: NewLocationRow, size: SizeOption) => {
  const { width, length } = sizeOptionDimensions(size);
  return (row.dimensions ?? []).some((d) => d != null && d.width >= width && d.length >= length);
};

const usable = (row: NewLocationRow) =>
  typeof row.latitude === "number" &&
  typeof row.longitude === "number" &&
  isValidLatLng(row.latitude, row.longitude) &&
  !(row.latitude === 0 && row.longitude === 0);

/** docs/product.md "Prices": the lowest whole price, among the sizes at least `minLength` long. */
export function referencePrice(row: NewLocationRow, minLength: number): number | null {
  let best: number | null = null;
  for (const offer of row.sizeOffers ?? []) {
    const { width, length, monthlyPrice: price } = offer;
    if (!(width > 0 && length > 0 && length >= minLength)) continue;
    if (typeof price !== "number" || !Number.isInteger(price) || price < 0) continue;
    if (best === null || price < best) best = price;
  }
  return best;
}

/** docs/product.md "My RV": a space at least as long, and, where covered space is asked, clearance. */
function fitsRv(row: NewLocationRow, q: SearchQuery, selected: ReadonlySet<AmenityFilter>): boolean {
  if (!q.rv) return true;
  const longest = Math.max(
    0,
    ...(row.dimensions ?? []).filter((d) => d != null && d.width > 0 && d.length > 0).map((d) => d.length),
  );
  if (longest < q.rv.lengthFeet) return false;
  const clearance = row.coveredClearanceFeet;
  if (q.rv.heightFeet === undefined || clearance === null || clearance === undefined) return true;
  if (Math.fround(clearance) >= Math.fround(q.rv.heightFeet)) return true;
  const coveredAsked = selected.has("has_covered_parking") || selected.has("has_enclosed_units");
  if (!coveredAsked) return true;
  // Covered and uncovered together mean either: uncovered parking still takes the RV.
  const either = selected.has("has_uncovered_parking") && !selected.has("has_enclosed_units");
  return either && hasFlag(row, "has_uncovered_parking");
}

/** docs/product.md section 17, "Available now": a fresh open status on a size long enough for the RV. */
export function availableNowRow(row: NewLocationRow, q: SearchQuery, now: Date): boolean {
  const minLength = q.rv?.lengthFeet ?? 0;
  return (row.sizeOffers ?? []).some((offer) => offer.length >= minLength && isAvailableNow(offer, now));
}

export function referenceSearch(
  rows: readonly NewLocationRow[],
  q: SearchQuery,
  state?: string,
  now: Date = new Date(),
): ReferenceResult {
  const selected = new Set(q.amenities);
  const parkingEither = selected.has("has_covered_parking") && selected.has("has_uncovered_parking");
  const needle = q.q?.toLowerCase();
  const hits: ReferenceHit[] = [];
  let priced = 0;
  for (const row of rows) {
    if (!usable(row)) continue;
    const miles = haversineMiles({ lat: q.lat, lng: q.lng }, { lat: row.latitude!, lng: row.longitude! });
    if (state !== undefined ? row.state !== state : miles > q.radius) continue;
    if (!q.sizes.every((size) => offersSize(row, size))) continue;
    const amenitiesOk = [...selected].every((flag) =>
      parkingEither && (flag === "has_covered_parking" || flag === "has_uncovered_parking")
        ? hasFlag(row, "has_covered_parking") || hasFlag(row, "has_uncovered_parking")
        : hasAmenity(row, flag),
    );
    if (!amenitiesOk) continue;
    if (needle) {
      const fields = [row.name, row.address ?? row.shortFormattedAddress ?? null, row.state ?? null];
      if (!fields.some((f) => f?.toLowerCase().includes(needle))) continue;
    }
    if (!fitsRv(row, q, selected)) continue;
    if (q.available && !availableNowRow(row, q, now)) continue;
    const price = referencePrice(row, q.rv?.lengthFeet ?? 0);
    if (price !== null) priced++;
    if (q.maxPrice !== undefined && (price === null || price > q.maxPrice)) continue;
    hits.push({ row, miles, price });
  }
  const byId = (a: ReferenceHit, b: ReferenceHit) => (a.row.placeId < b.row.placeId ? -1 : 1);
  const priceKey = (hit: ReferenceHit) => hit.price ?? Infinity;
  hits.sort(
    q.sort === "price"
      ? (a, b) => priceKey(a) - priceKey(b) || a.miles - b.miles || byId(a, b)
      : q.sort === "rating"
        ? (a, b) =>
            (b.row.rating ?? -1) - (a.row.rating ?? -1) ||
            (b.row.userRatingsTotal ?? 0) - (a.row.userRatingsTotal ?? 0) ||
            a.miles - b.miles ||
            byId(a, b)
        : (a, b) =>
            TIER_WEIGHT[b.row.tier ?? "Free"] - TIER_WEIGHT[a.row.tier ?? "Free"] || a.miles - b.miles || byId(a, b),
  );
  const facets: SearchFacets = {
    sizes: Object.fromEntries(
      SIZE_OPTIONS_LIST.map((s) => [s, hits.filter((h) => offersSize(h.row, s)).length]),
    ) as SearchFacets["sizes"],
    amenities: Object.fromEntries(
      AMENITY_FILTERS.map((f) => [f, hits.filter((h) => hasAmenity(h.row, f)).length]),
    ) as SearchFacets["amenities"],
    priced,
    available: hits.filter((h) => availableNowRow(h.row, q, now)).length,
  };
  return { total: hits.length, ordered: hits, facets };
}

/** Downtown Austin, where most search tests stand. */
export const AUSTIN = { lat: 30.2672, lng: -97.7431 };

/** A 100-mile search around Austin by distance, 100 to a page, with `overrides`. */
export const austinQuery = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  ...AUSTIN,
  radius: 100,
  sizes: [],
  amenities: [],
  sort: "distance",
  page: 1,
  pageSize: 100,
  ...overrides,
});

/** A town for the demo factory at a given point. */
export function townAt(lat: number, lng: number, name = "Testville", state = "TX"): Place {
  return { name, state, stateName: "Texas", lat, lng, population: 10_000, kind: "city" };
}

/**
 * `count` demo facilities from the demo factory, 1-10 miles around the given towns in turn, with
 * longitudes wrapped into -180..180 (the factory's offsets can step over the antimeridian).
 */
export function demoRowsAround(towns: readonly Place[], count: number, seed: number): NewLocationRow[] {
  const r = createRandom(seed);
  const rows: NewLocationRow[] = [];
  for (let i = 0; rows.length < count && i < count * 2; i++) {
    const town = towns[i % towns.length]!;
    const row = makeDemoLocation(r, i, town, { stateAt: () => town.state });
    if (!row) continue;
    const lng = ((((row.longitude! + 180) % 360) + 360) % 360) - 180;
    rows.push({ ...row, longitude: lng });
  }
  return rows;
}
