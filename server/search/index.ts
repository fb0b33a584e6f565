/**
 * The in-memory search index (docs/api.md "Search"; docs/architecture.md "Search").
 *
 * Pages and routes:
 *   getSearchIndex().query(query)           one page + total + facets (SearchQuery of domain/search.ts)
 *   searchNear(point, parsed)               the same from parseSearchParams' output
 *   searchResultsPage(place, options)       a results page: { result, markers }
 * Start-up and writers:
 *   startSearch(handle, { snapshotFile })   at boot: read the snapshot or build; on PostgreSQL, LISTEN
 *   notifyLocationsChanged(db)              after a write: NOTIFY others and apply the change log here
 */
export type { AmenityRequirement } from "./masks";
export { amenityMaskOf, amenityRequirement, sizeMaskOf, sizeRequirement } from "./masks";
export type { SearchSourceRow } from "./source-row";
export { searchRowFromLocation } from "./source-row";
export type { QueryOutput, SearchMarker, SearchScope } from "./query";
export type { SearchIndexSource } from "./search-index";
export { SearchIndex, SearchIndexBuilder, createSearchIndex } from "./search-index";
export { buildSearchIndex } from "./load";
export { applyCatalogueChanges, getSearchIndex, refreshSearchIndex, setSearchIndex } from "./refresh";
export { LOCATIONS_CHANNEL } from "./channel";
export type { LocationsListener, LocationsListenerOptions } from "./listener";
export { listenForLocationChanges } from "./listener";
export { notifyLocationsChanged } from "./notify";
export { startSearch, stopSearch } from "./start";
export { SNAPSHOT_FILE } from "./snapshot";
export type { SearchOptions, SearchPlaceLike } from "./service";
export {
  NEARBY_FETCHED,
  NEARBY_SHOWN,
  nearbyIds,
  nearestBeyond,
  searchNear,
  searchResultsPage,
  toSearchQuery,
} from "./service";
export type { PlaceSuggestion } from "./suggestions";
export { toPlaceSuggestion } from "./suggestions";
export { invalidParameters, parsePointParams, parseSearchRequest } from "./http";
export type { EndpointAnswer } from "./endpoint";
export { answerSearch, invalidParametersAnswer, searchRequestHandler } from "./endpoint";
