import {
  DEFAULT_RADIUS_MILES,
  type SearchFilters,
  type SearchItem,
  type SearchQuery,
  type SearchResult,
  type SortOrder,
} from "../../domain/search";
import type { LatLng } from "../geo/coordinates";
import type { QueryOutput, SearchMarker, SearchScope } from "./query";
import { getSearchIndex } from "./refresh";

/** The parsed parameters of a search (what `parseSearchParams` gives, less the point). */
export interface SearchOptions {
  filters: SearchFilters;
  sort: SortOrder;
  page: number;
  pageSize: number;
  radius: number;
}

export function toSearchQuery(point: LatLng, options: SearchOptions): SearchQuery {
  const { filters } = options;
  // Field by field, not spread: copying the parsed filters' object (made with optional keys)
  // took ~5 us a search, as long as parsing the query string.
  return {
    sizes: filters.sizes,
    amenities: filters.amenities,
    q: filters.q,
    rv: filters.rv,
    maxPrice: filters.maxPrice,
    available: filters.available,
    lat: point.lat,
    lng: point.lng,
    radius: options.radius,
    sort: options.sort,
    page: options.page,
    pageSize: options.pageSize,
  };
}

/** GET /api/search: one page of the current index around a point. */
export function searchNear(point: LatLng, options: SearchOptions, scope?: SearchScope): SearchResult {
  return getSearchIndex().query(toSearchQuery(point, options), scope);
}

/** `searchNear`'s answer as JSON (UTF-8 bytes; GET /api/search), made without the objects. */
export function searchNearJson(point: LatLng, options: SearchOptions, scope?: SearchScope): Buffer {
  return getSearchIndex().queryJson(toSearchQuery(point, options), scope);
}

/** Where a results page searches (server/geo/resolve-place.ts `SearchPlace` fits). */
export interface SearchPlaceLike extends LatLng {
  kind?: string;
  state?: string;
}

/**
 * The results page: a page of results and the map markers. A whole-state page (`kind: "state"`)
 * lists every location of that state by distance from its centre; any other place searches
 * `radius` miles around its point.
 */
export function searchResultsPage(
  place: SearchPlaceLike,
  options: SearchFilters & { sort: SortOrder; page: number; pageSize: number; radius: number; maxMarkers?: number },
): QueryOutput {
  const { maxMarkers = 0, sort, page, pageSize, radius, ...filters } = options;
  const scope: SearchScope = place.kind === "state" && place.state ? { state: place.state } : {};
  return getSearchIndex().search(toSearchQuery(place, { filters, sort, page, pageSize, radius }), {
    ...scope,
    maxMarkers,
  });
}

/** Beyond the radius, the nearest listing is looked for this far out, then anywhere. */
const NEAREST_STEPS_MILES = [500, 1500, 13_000];

/**
 * The nearest listing with the same filters beyond `radius`, for a search that found none within
 * it (docs/product.md section 2, "No match"): 'The nearest is X, 312 mi away', with its map marker.
 * Undefined when the index has none at all. Whatever the tiers, nearest means nearest.
 */
export function nearestBeyond(
  point: LatLng,
  filters: SearchFilters,
  radius: number,
): { item: SearchItem; marker: SearchMarker } | undefined {
  const index = getSearchIndex();
  for (const miles of NEAREST_STEPS_MILES) {
    if (miles <= radius) continue;
    const query = toSearchQuery(point, { filters, sort: "distance", page: 1, pageSize: 0, radius: miles });
    const [marker] = index.search(query, { maxMarkers: 1 }).markers;
    if (!marker) continue;
    // Only the nearest and any as near as it lie within this circle: a page of them holds it.
    const near = index.query({ ...query, radius: marker.distanceMiles + 0.1, pageSize: 20 });
    const item = near.items.find((found) => found.id === marker.id);
    return item && { item, marker };
  }
  return undefined;
}

/** docs/product.md section 9: nearby spots: 6 fetched, 4 shown. */
export const NEARBY_FETCHED = 6;
export const NEARBY_SHOWN = 4;

/**
 * The ids of the nearest other listings within the default radius, nearest first, whatever
 * their tier (the distance sort ranks tiers first; nearby means nearest).
 */
export function nearbyIds(point: LatLng, excludeId: string): { id: string; distanceMiles: number }[] {
  const { markers } = getSearchIndex().search(
    toSearchQuery(point, {
      filters: { sizes: [], amenities: [] },
      sort: "distance",
      page: 1,
      pageSize: 0,
      radius: DEFAULT_RADIUS_MILES,
    }),
    { maxMarkers: NEARBY_FETCHED + 1 },
  );
  return markers
    .filter((m) => m.id !== excludeId)
    .slice(0, NEARBY_FETCHED)
    .map((m) => ({ id: m.id, distanceMiles: m.distanceMiles }));
}
