/**
 * The search contract shared by the results page, the /api/search endpoint and the index:
 * constants of docs/product.md section 9, the query parsed from a URL, and the result shape.
 * Browser-safe and pure.
 */
import type { AmenityFilter, AmenityFlag } from "./amenities";
import type { AvailabilitySummary } from "./availability";
import { myRvParams, type MyRv } from "./rv-fit";
import type { SizeOption } from "./sizes";
import { TIER_WEIGHT, type Tier } from "./tiers";

export const PAGE_SIZE = 12;
export const MAX_PAGE_BUTTONS = 5;
export const DEFAULT_RADIUS_MILES = 100;
export const MAX_RADIUS_MILES = 500;
/** `price`: lowest known monthly price first, unknown prices last (docs/product.md, "Prices"). */
export const SORTS = ["distance", "rating", "price"] as const;
export type SortOrder = (typeof SORTS)[number];

/**
 * A results place as its page's heading names it, and as search demand records it: 'Austin,
 * Texas', or 'Texas' for a whole state.
 */
export function placeLabel(place: { city: string | null; stateName: string }): string {
  return place.city ? `${place.city}, ${place.stateName}` : place.stateName;
}

/**
 * The distance sort ranks every paid tier (Pro, Preferred, Basic) ahead of Free listings
 * (docs/product.md section 9), so under it a paid card is placed by its tier, not by its
 * distance, and says so ('Sponsored'). The rating sort ignores tiers.
 */
export function placedByTier(tier: Tier, sort: SortOrder): boolean {
  return sort === "distance" && TIER_WEIGHT[tier] > TIER_WEIGHT.Free;
}

/** Up to this many amenity chips per card. */
export const MAX_CARD_AMENITIES = 6;
/** The first this many cards load their photo eagerly. */
export const EAGER_CARD_IMAGES = 3;

export interface SearchFilters {
  sizes: SizeOption[];
  /** Flags and text amenities; a listing must have every one (covered/uncovered parking: either). */
  amenities: AmenityFilter[];
  /** Case-insensitive text on name, address and state. */
  q?: string;
  /** The visitor's RV (docs/product.md, "My RV"): only places with a space at least this long. */
  rv?: MyRv;
  /** Whole dollars a month: only places with a known price at most this (docs/product.md, "Prices"). */
  maxPrice?: number;
  /**
   * "Available now" (docs/product.md section 17): only places with a size marked available or few
   * left within the last 30 days; with an RV, a size at least as long as it.
   */
  available?: boolean;
}

export interface SearchQuery extends SearchFilters {
  lat: number;
  lng: number;
  radius: number;
  sort: SortOrder;
  page: number;
  /** Items per page; 0 asks only for the total and facets (the filter previews). */
  pageSize: number;
}

export interface SearchItem {
  id: string;
  slug: string;
  name: string;
  address: string | null;
  state: string | null;
  lat: number;
  lng: number;
  /** Rounded to one decimal. */
  distanceMiles: number;
  rating: number | null;
  reviewCount: number;
  tier: Tier;
  isDemo: boolean;
  photo: string | null;
  /** The flags this location has, in AMENITY_FLAGS order. */
  amenities: AmenityFlag[];
  /** Its sizes as "WxL". */
  sizes: string[];
  /**
   * The lowest monthly price its owner gives, in whole dollars; with an RV in the query, the
   * lowest among the spaces long enough for it. Null when unknown.
   */
  minMonthlyPrice: number | null;
  /** The height clearance of its covered or enclosed spaces in feet, null when not stated. */
  clearanceFeet: number | null;
  /** The owner's availability line ("Spaces available · updated 3 days ago"), null when not stated. */
  availability: AvailabilitySummary | null;
}

export interface SearchFacets {
  /** For each size option: how many locations of the current result set match it. */
  sizes: Record<SizeOption, number>;
  /** For each amenity flag and text amenity: how many locations of the current result set have it. */
  amenities: Record<AmenityFilter, number>;
  /**
   * How many results have a known price, counted with every filter but the max price: above 0,
   * the page offers the price sort and the max-price filter.
   */
  priced: number;
  /** How many results are available now (`available`), counted with every other filter. */
  available: number;
}

/** A place as the search box offers it (GET /api/places/suggest and /api/places/reverse). */
export interface PlaceSuggestion {
  /** "Austin, TX"; "78701 (Austin, TX)" for a ZIP; "Texas" for a state. */
  label: string;
  /** The town; null for a whole state. */
  city: string | null;
  state: string;
  stateName: string;
  lat: number;
  lng: number;
  /** The results page slug: 'austin-tx', 'tx'; a ZIP leads to its town's page. */
  slug: string;
}

/** A map pin for a result, as the results page's map takes it. */
export interface MapMarker {
  id: string;
  lat: number;
  lng: number;
  name: string;
  rating: number | null;
  reviewCount: number;
  /** The detail page. */
  href: string;
  distanceMiles?: number;
}

export interface SearchResult {
  total: number;
  page: number;
  pageSize: number;
  items: SearchItem[];
  facets: SearchFacets;
}

/** The URL query for a state of the results page: only what differs from the defaults. */
export function searchParamsFor(state: {
  sizes?: readonly string[];
  amenities?: readonly string[];
  sort?: SortOrder;
  page?: number;
  q?: string;
  rv?: MyRv;
  maxPrice?: number;
  available?: boolean;
  /** Miles around the place; left out at the default. */
  radius?: number;
}): URLSearchParams {
  const params = new URLSearchParams();
  if (state.radius !== undefined && state.radius !== DEFAULT_RADIUS_MILES) params.set("radius", String(state.radius));
  for (const size of state.sizes ?? []) params.append("size", size);
  for (const amenity of state.amenities ?? []) params.append("amenity", amenity);
  if (state.q) params.set("q", state.q);
  for (const [key, value] of myRvParams(state.rv)) params.set(key, value);
  if (state.maxPrice !== undefined) params.set("maxPrice", String(state.maxPrice));
  if (state.available) params.set("available", "1");
  if (state.sort && state.sort !== "distance") params.set("sort", state.sort);
  if (state.page && state.page > 1) params.set("page", String(state.page));
  return params;
}
