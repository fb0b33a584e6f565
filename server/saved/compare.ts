import { listingRating } from "../../domain/reviews";
import { AMENITY_FLAGS, type AmenityFlag } from "../../domain/amenities";
import { haversineMiles, isValidLatLng, type LatLng } from "../../domain/coordinates";
import { AVAILABILITY_LABELS } from "../../domain/listings";
import { parseMyRv, type MyRv } from "../../domain/rv-fit";
import { parseCompareIds } from "../../domain/saved";
import type { LocationRow } from "../db/schema";
import { amenityFlagsOf } from "../locations/amenities";
import { getLocationsByIds } from "../locations/repository";
import type { SavedFacility } from "./service";
import { sizeKey } from "../../domain/availability";

/**
 * The compare page's facts (docs/product.md section 15): public, read from the URL alone, so a
 * shared link shows the same table to anyone.
 */

export interface CompareSize {
  /** "WxL" in feet, as rv-fit's sizesThatFit reads it. */
  key: string;
  label: string;
  monthlyPrice: number | null;
  availability: string | null;
}

/** A saved facility's card fields and what the compare table adds. */
export interface CompareFacility extends SavedFacility {
  /** For Directions; null when the listing has no usable point. */
  point: LatLng | null;
  /** Miles from the URL's lat/lng, one decimal; null without a point or coordinates. */
  distanceMiles: number | null;
  sizes: CompareSize[];
  /** The lowest monthly price the owner gave, or null. */
  fromPrice: number | null;
  coveredClearanceFeet: number | null;
  /** Covered or enclosed parking, where a clearance matters. */
  hasCover: boolean;
  /** The amenity flags it has, in AMENITY_FLAGS order (the table has a row per flag). */
  amenities: AmenityFlag[];
  openingHours: string[];
  phone: string | null;
}

export type CompareQuery =
  | { ok: true; ids: string[]; point: LatLng | null; rv: MyRv | null; canonical: boolean }
  | { ok: false; message: string };

const DECIMAL = /^-?\d{1,3}(\.\d{1,12})?$/;

/** ids, lat/lng and the RV of a compare URL; the first problem, named, otherwise. */
export function parseCompareQuery(params: URLSearchParams): CompareQuery {
  const ids = parseCompareIds(params);
  if (!ids.ok) return ids;
  const latRaw = params.get("lat");
  const lngRaw = params.get("lng");
  let point: LatLng | null = null;
  if (latRaw !== null || lngRaw !== null) {
    if (latRaw === null || lngRaw === null) return { ok: false, message: "lat and lng must be given together." };
    const lat = DECIMAL.test(latRaw.trim()) ? Number(latRaw) : NaN;
    const lng = DECIMAL.test(lngRaw.trim()) ? Number(lngRaw) : NaN;
    if (!isValidLatLng(lat, lng)) {
      return { ok: false, message: "lat must be a number from -90 to 90 and lng from -180 to 180." };
    }
    point = { lat, lng };
  }
  const rv = parseMyRv(params);
  if (!rv.ok) return { ok: false, message: `${rv.message}.` };
  return { ok: true, ids: ids.ids, point, rv: rv.rv ?? null, canonical: params.getAll("ids").length <= 1 };
}

function sizesOf(row: LocationRow): CompareSize[] {
  const offers = row.sizeOffers.length
    ? row.sizeOffers
    : row.dimensions.map((d) => ({ width: d.width, length: d.length, monthlyPrice: null, availability: null }));
  return offers.map((o) => ({
    key: sizeKey(o),
    label: `${o.width}' x ${o.length}'`,
    monthlyPrice: o.monthlyPrice ?? null,
    availability: o.availability ? AVAILABILITY_LABELS[o.availability] : null,
  }));
}

export function compareFacility(row: LocationRow, point: LatLng | null): CompareFacility {
  const flags = amenityFlagsOf(row);
  const sizes = sizesOf(row);
  const prices = sizes.flatMap((s) => (s.monthlyPrice === null ? [] : [s.monthlyPrice]));
  const distance =
    point && row.latitude !== null && row.longitude !== null
      ? Math.round(haversineMiles(point, { lat: row.latitude, lng: row.longitude }) * 10) / 10
      : null;
  return {
    placeId: row.placeId,
    slug: row.slug,
    name: row.name,
    address: row.address,
    rating: listingRating(row).rating,
    userRatingsTotal: listingRating(row).count,
    isDemo: row.isDemo,
    photo: row.imageUrls[0] ?? null,
    point:
      row.latitude !== null && row.longitude !== null && isValidLatLng(row.latitude, row.longitude)
        ? { lat: row.latitude, lng: row.longitude }
        : null,
    distanceMiles: distance,
    sizes,
    fromPrice: prices.length ? Math.min(...prices) : null,
    coveredClearanceFeet: row.coveredClearanceFeet,
    hasCover: row.hasCoveredParking || row.hasEnclosedUnits,
    amenities: AMENITY_FLAGS.filter((f) => flags[f]),
    openingHours: row.openingHours,
    phone: row.phoneNumber ?? row.internationalPhoneNumber,
  };
}

/** The listed facilities of `ids` in their order, and the ids that name none (missing, hidden or deleted). */
export async function loadCompare(
  ids: readonly string[],
  point: LatLng | null,
): Promise<{ facilities: CompareFacility[]; unknown: string[] }> {
  const rows = await getLocationsByIds(ids);
  const found = new Set(rows.map((r) => r.placeId));
  return { facilities: rows.map((row) => compareFacility(row, point)), unknown: ids.filter((id) => !found.has(id)) };
}
