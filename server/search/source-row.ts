import { listingRating } from "../../domain/reviews";
import type { Tier } from "../../domain/tiers";
import type { LocationRow, NewLocationRow } from "../db/schema";
import { amenityFlagsOf } from "../locations/amenities";
import { amenityMaskOf } from "./masks";

/**
 * What the index needs of one location: the search fields and what a result card shows. The
 * database loader selects exactly these (with the amenity mask computed in SQL); tests and the
 * benchmark build them from rows with `searchRowFromLocation`.
 */
export interface SearchSourceRow {
  id: string;
  slug: string;
  name: string;
  address: string | null;
  state: string | null;
  /** Rows without usable coordinates are skipped by the index (docs/product.md section 5). */
  lat: number | null | undefined;
  lng: number | null | undefined;
  rating: number | null | undefined;
  reviewCount: number;
  tier: Tier;
  isDemo: boolean;
  /** The first image URL. */
  photo: string | null;
  /** `{ width, length }[]` in feet; malformed entries are ignored. */
  dimensions: readonly unknown[] | null | undefined;
  /** See masks.ts: the 18 flags, then the 3 text amenities. */
  amenityMask: number;
  /**
   * The owner's `size_offers` (`{ width, length, monthlyPrice }[]`); only entries with a whole,
   * non-negative price and a usable length count as prices (docs/product.md, "Prices").
   */
  offers?: readonly unknown[] | null;
  /** `covered_clearance_feet`: the covered and enclosed spaces' height clearance, when stated. */
  clearanceFeet?: number | null;
}

/**
 * The rating cards show and the rating sort uses: imported and first-party reviews combined
 * (docs/product.md section 16).
 */
export function shownRating(row: {
  rating?: number | null;
  userRatingsTotal?: number | null;
  reviewCount?: number | null;
  reviewStarSum?: number | null;
}): { rating: number | null; reviewCount: number } {
  const combined = listingRating({
    rating: row.rating ?? null,
    userRatingsTotal: row.userRatingsTotal ?? 0,
    reviewCount: row.reviewCount ?? 0,
    reviewStarSum: row.reviewStarSum ?? 0,
  });
  return { rating: combined.rating, reviewCount: combined.count };
}

/** A full (or to-be-inserted) location row as the index sees it. */
export function searchRowFromLocation(row: LocationRow | NewLocationRow): SearchSourceRow {
  return {
    id: row.placeId,
    slug: row.slug,
    name: row.name,
    address: row.address ?? row.shortFormattedAddress ?? null,
    state: row.state ?? null,
    lat: row.latitude,
    lng: row.longitude,
    ...shownRating(row),
    tier: row.tier ?? "Free",
    isDemo: row.isDemo ?? false,
    photo: row.imageUrls?.[0] ?? null,
    dimensions: row.dimensions,
    amenityMask: amenityMaskOf(amenityFlagsOf(row as LocationRow), {
      parking_options: row.parkingOptions,
      payment_options: row.paymentOptions,
      accessibility_options: row.accessibilityOptions,
    }),
    offers: row.sizeOffers ?? null,
    clearanceFeet: row.coveredClearanceFeet ?? null,
  };
}
