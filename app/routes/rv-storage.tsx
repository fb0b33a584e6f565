import List from "lucide-react/icons/list";
import MapIcon from "lucide-react/icons/map";
import { Fragment, useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { Link, data, redirect, useLocation, useNavigate, useNavigation, useNavigationType } from "react-router";
import type { Route } from "./+types/rv-storage";
import { LocationCard, cardDataFrom } from "../components/location/location-card";
import { ResultsMap, type MapArea } from "../components/map/results-map";
import { AmenitiesFilter } from "../components/search/amenities-filter";
import { LocationErrorBanner } from "../components/search/location-error-banner";
import { Pagination } from "../components/search/pagination";
import { PlaceSearch } from "../components/search/place-search";
import { LoadingStatus, RESULTS_GRID, ResultsSkeleton } from "../components/search/results-skeleton";
import { MyRvFilter } from "../components/search/my-rv-filter";
import { AvailableFilter } from "../components/search/available-filter";
import { PriceFilter } from "../components/search/price-filter";
import { SizeFilter } from "../components/search/size-filter";
import { SORT_EXPLANATIONS, SortButtons } from "../components/search/sort-buttons";
import { TextFilter } from "../components/search/text-filter";
import { CURRENT_LOCATION_FAILED, UseMyLocationButton } from "../components/search/use-my-location";
import { AMENITY_LABELS, type AmenityFilter } from "../../domain/amenities";
import { MAX_PLACE_QUERY_LENGTH, MAX_PLACE_SLUG_LENGTH } from "../../domain/input-limits";
import { originFrom, seo } from "../lib/meta";
import { itemListJsonLd } from "../lib/structured-data";
import {
  DEFAULT_RADIUS_MILES,
  EAGER_CARD_IMAGES,
  MAX_RADIUS_MILES,
  PAGE_SIZE,
  searchParamsFor,
  placeLabel,
  placedByTier,
  type MapMarker,
  type SortOrder,
} from "../../domain/search";
import { parseSearchParams } from "../../domain/search-params";
import type { SizeOption } from "../../domain/sizes";
import { MY_RV_PARAMS, myRvFromCookieHeader, myRvParams, type MyRv } from "../../domain/rv-fit";
import { buildPlaceSlug } from "../../domain/slug";
import {
  placeFromPoint,
  placeFromSlug,
  placeFromText,
  suggestPlaces,
  type SearchPlace,
} from "../../server/geo/resolve-place";
import { stateNameFromCode } from "../../server/geo";
import { publicMapConfig } from "../../server/http/public-config";
import { getSearchIndex, nearestBeyond, searchResultsPage } from "../../server/search";
import { Button } from "../components/ui/button";
import { formatNumber } from "../lib/format";

/** Map markers beyond this many nearest results add nothing a visitor can use. */
const MAX_MARKERS = 500;

/**
 * `query` is what the search box shows again (the visitor's own text, never text over the cap);
 * `notFound`: a place we did not recognise (a notice with close matches, not a red error).
 */
type ErrorData = { kind: "error"; message: string; suggestions: SearchPlace[]; query: string; notFound: boolean };

/**
 * "springfield zz" -> "springfield": drops a trailing two-letter word and the spaces before it,
 * so that suggestions look for the town. Written out: `/\s+[a-z]{2}$/` would rescan a run of
 * spaces from each of its characters.
 */
function withoutStateCode(words: string): string {
  const code = words.slice(-2);
  const before = words.at(-3);
  if (!/^[a-z]{2}$/i.test(code) || before === undefined || before.trim() !== "") return words;
  return words.slice(0, -2).trimEnd();
}

function errorPage(message: string, query: string, status: number, suggestFrom?: string, state?: string) {
  return data<ErrorData>(
    {
      kind: "error",
      message,
      suggestions: suggestFrom ? suggestPlaces(suggestFrom, 5, state) : [],
      query,
      notFound: suggestFrom !== undefined,
    },
    { status },
  );
}

/**
 * The results page: slug (or ?lat=&lng=, or typed ?where=) -> place -> the search index.
 * Filters, sort and page live in the URL query, so every state can be shared and reloaded.
 * Search demand is counted from the page's page view, not here: a page served from a shared cache
 * is not rendered (server/search/demand.ts).
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const where = url.searchParams.get("where");
  // Free text is measured before anything reads it (docs/operations.md, "Free text in URLs"):
  // the page answers 400 with its search box, and neither echoes the text nor suggests from it.
  if (where !== null && where.length > MAX_PLACE_QUERY_LENGTH) {
    return errorPage(
      `That search is too long: at most ${MAX_PLACE_QUERY_LENGTH} characters. Try a city, state or ZIP code.`,
      "",
      400,
    );
  }
  if (params.slug !== undefined && params.slug.length > MAX_PLACE_SLUG_LENGTH) {
    return errorPage(
      `That address is too long to name a place: at most ${MAX_PLACE_SLUG_LENGTH} characters. Try a city, state or ZIP code.`,
      "",
      400,
    );
  }
  if (where !== null) {
    const text = where.trim();
    const place = text ? placeFromText(text) : undefined;
    if (!place) {
      return errorPage(`Could not find location: ${text}`, text, 404, text);
    }
    const rest = new URLSearchParams(url.searchParams);
    rest.delete("where");
    if (place.kind === "point") {
      rest.set("lat", String(place.lat));
      rest.set("lng", String(place.lng));
      throw redirect(`/rv-storage?${rest}`);
    }
    throw redirect(`/rv-storage/${place.slug}${rest.size ? `?${rest}` : ""}`);
  }

  const parsed = parseSearchParams(url.searchParams);
  if (!parsed.ok) {
    return errorPage(parsed.errors.map((e) => `${e.parameter}: ${e.message}`).join("; "), "", 400);
  }

  let place: SearchPlace | undefined;
  if (params.slug) {
    place = placeFromSlug(params.slug);
    if (!place) {
      const words = params.slug.replace(/-/g, " ");
      const town = withoutStateCode(words);
      const state = town !== words ? words.slice(-2).toUpperCase() : undefined;
      return errorPage(`Could not find location: ${words}`, words, 404, town, state);
    }
    if (place.slug !== params.slug) throw redirect(`/rv-storage/${place.slug}${url.search}`, 301);
  } else if (parsed.point) {
    place = placeFromPoint(parsed.point.lat, parsed.point.lng);
    if (!place) {
      return errorPage("That point is outside the United States. Try a US city, state or ZIP code.", "", 404);
    }
  } else {
    // No place yet: the search box, and every location by state ('Show all locations' leads here).
    const stats = getSearchIndex().catalogueSummary();
    const states = stats.byState.map((s) => ({ ...s, name: stateNameFromCode(s.state) ?? s.state }));
    return { kind: "empty" as const, states };
  }

  // A remembered RV (its cookie) applies to a page asked for without one: the redirect puts it in
  // the URL, so the first list the visitor sees is already filtered (docs/product.md, "My RV").
  if (!url.searchParams.has(MY_RV_PARAMS.length) && !url.searchParams.has(MY_RV_PARAMS.height)) {
    const remembered = myRvFromCookieHeader(request.headers.get("cookie"));
    if (remembered) {
      const withRv = new URLSearchParams(url.searchParams);
      for (const [key, value] of myRvParams(remembered)) withRv.set(key, value);
      withRv.delete("page"); // a new filter starts on the first page
      throw redirect(`${url.pathname}?${withRv}`);
    }
  }

  const { result, markers } = searchResultsPage(place, {
    ...parsed.filters,
    sort: parsed.sort,
    page: parsed.page,
    pageSize: PAGE_SIZE,
    radius: parsed.radius,
    maxMarkers: MAX_MARKERS,
  });
  // Nothing within the radius: the nearest listing beyond it, with the same filters (docs/product.md section 2).
  const nearest =
    result.total === 0 && place.kind !== "state" ? (nearestBeyond(place, parsed.filters, parsed.radius) ?? null) : null;
  return {
    kind: "results" as const,
    place,
    applied: {
      sizes: parsed.filters.sizes,
      amenities: parsed.filters.amenities,
      sort: parsed.sort,
      q: parsed.filters.q,
      rv: parsed.filters.rv,
      maxPrice: parsed.filters.maxPrice,
      available: parsed.filters.available === true,
    },
    radius: parsed.radius,
    result,
    // Nothing within the radius: the nearest listing is the map's one pin, framed with the place.
    // As one JSON text: up to 500 pins as objects were a third of the page's serialising (each
    // value flattened and escaped by React Router's encoder), JSON.stringify does it natively.
    markersJson: JSON.stringify(nearest ? [nearest.marker] : markers),
    nearest: nearest?.item ?? null,
    map: publicMapConfig(),
  };
}

/** A place as the search box and 'Did you mean' name it: 'Austin, TX', or 'Texas' for a state. */
function shortLabel(place: Pick<SearchPlace, "city" | "state" | "stateName">): string {
  return place.city ? `${place.city}, ${place.state}` : place.stateName;
}

export function meta({ data: loaderData, matches, location }: Route.MetaArgs) {
  const origin = originFrom(matches);
  if (loaderData?.kind === "results") {
    const where = placeLabel(loaderData.place);
    const tags = seo({
      title: `RV Storage in ${where}`,
      description: `Compare ${loaderData.result.total} RV and boat storage facilities near ${where}: sizes, covered parking, security, hours and reviews.`,
      origin,
      path: loaderData.place.kind === "point" ? "/rv-storage" : `/rv-storage/${loaderData.place.slug}`,
    });
    const list = itemListJsonLd(
      loaderData.result.items.map((item) => ({
        name: item.name,
        url: new URL(`/location/${item.slug}`, origin).toString(),
      })),
      (loaderData.result.page - 1) * loaderData.result.pageSize,
    );
    tags.push({ "script:ld+json": list });
    // Filtered, sorted and paged variants are for people, not for the index.
    return location.search ? [...tags, { name: "robots", content: "noindex, follow" }] : tags;
  }
  return [
    ...seo({ title: "Find RV Storage", origin, path: "/rv-storage" }),
    ...(loaderData?.kind === "error" ? [{ name: "robots", content: "noindex" }] : []),
  ];
}

/** True while the next results page loads (another place, filter, sort or page). */
function useResultsPending(): boolean {
  const navigation = useNavigation();
  return navigation.state === "loading" && navigation.location.pathname.startsWith("/rv-storage");
}

/** Skeleton cards while loading: as many as the page shows now, else a row's worth. */
const SKELETONS_WITHOUT_RESULTS = 3;

/** Router state of a navigation made by this page's own controls (filters, sort, pages). */
interface ResultsNavigationState {
  focusResults?: boolean;
  useCurrentLocation?: boolean;
  /** The search is the area the visitor moved the map to: frame its results, not a zoom on the point. */
  mapArea?: boolean;
}

type LoaderData = Route.ComponentProps["loaderData"];

/** What the search box shows: the place of the results, or the visitor's unrecognised text. */
function searchBoxText(loaderData: LoaderData): string {
  if (loaderData.kind === "results") return shortLabel(loaderData.place);
  if (loaderData.kind === "error") return loaderData.query;
  return "";
}

export default function RvStorage({ loaderData }: Route.ComponentProps) {
  const [locationError, setLocationError] = useState<string | null>(null);
  const location = useLocation();
  const navigate = useNavigate();
  // From the empty or error state there is no list yet: the skeleton takes the message's place.
  const pendingFirstResults = useResultsPending() && loaderData.kind !== "results";
  const currentQuery = new URLSearchParams(location.search);
  const boxText = searchBoxText(loaderData);
  // docs/product.md section 4: 'Show all locations' clears the current location, its flag and the error.
  const showAll = () => {
    setLocationError(null);
    navigate("/rv-storage", { state: null });
  };

  const searchRow = (
    <div className="flex gap-2">
      <div className="min-w-0 flex-1">
        {/* Keyed by the place: a new place's page starts with its own label in the box. */}
        <PlaceSearch key={`${location.pathname}|${boxText}`} defaultValue={boxText} query={currentQuery} />
      </div>
      <UseMyLocationButton compact onError={setLocationError} query={currentQuery} />
    </div>
  );
  const geolocationBanner = locationError && (
    <div className="mt-3">
      <LocationErrorBanner message={CURRENT_LOCATION_FAILED}>
        <p className="mt-1">{locationError}</p>
        <ShowAllButton onClick={showAll} />
      </LocationErrorBanner>
    </div>
  );

  if (loaderData.kind === "results" && !pendingFirstResults) {
    return (
      <div className="mx-auto max-w-7xl px-4 pb-24 md:pb-8">
        <Results data={loaderData} searchRow={searchRow} notice={geolocationBanner} onShowAll={showAll} />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-7xl px-4 pb-8 pt-4">
      {searchRow}
      {geolocationBanner}
      {pendingFirstResults && (
        <section aria-label="Results" aria-busy="true" className="mt-6">
          <LoadingStatus loading />
          <ResultsSkeleton count={SKELETONS_WITHOUT_RESULTS} />
        </section>
      )}
      {!pendingFirstResults && loaderData.kind === "empty" && <EmptyState states={loaderData.states} />}
      {!pendingFirstResults && loaderData.kind === "error" && (
        <div className="mt-6">
          <LocationErrorBanner
            message={loaderData.message}
            tone={loaderData.notFound ? "notice" : "error"}
            headingLevel={1}
          >
            {loaderData.suggestions.length > 0 && <DidYouMean places={loaderData.suggestions} />}
          </LocationErrorBanner>
        </div>
      )}
    </div>
  );
}

/** At most this many places in 'Did you mean ...?'. */
const DID_YOU_MEAN_MAX = 3;

/**
 * 'Did you mean Austin, TX?', or 'Did you mean A or B or C?' (labels hold commas themselves),
 * each a link to that place's results.
 */
function DidYouMean({ places }: { places: readonly SearchPlace[] }) {
  return (
    <p className="mt-3 text-lg">
      Did you mean{" "}
      {places.slice(0, DID_YOU_MEAN_MAX).map((place, i) => (
        <span key={place.slug}>
          {i > 0 && " or "}
          <Link to={`/rv-storage/${place.slug}`} className="font-semibold text-brand-700 underline underline-offset-2">
            {shortLabel(place)}
          </Link>
        </span>
      ))}
      ?
    </p>
  );
}

function ShowAllButton({ onClick }: { onClick(): void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="mt-2 inline-flex min-h-11 items-center font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600"
    >
      Show all locations
    </button>
  );
}

function EmptyState({ states }: { states: readonly { state: string; name: string; count: number }[] }) {
  return (
    <div className="mx-auto mt-12 max-w-3xl">
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight">Find RV storage near you</h1>
        <p className="mt-3 text-slate-600">
          Search for a city, state or ZIP code above, or click 'Use My Location' to see storage near you.
        </p>
      </div>
      {states.length > 0 && (
        <section aria-labelledby="all-states" className="mt-10">
          <h2 id="all-states" className="text-lg font-semibold">
            All locations by state
          </h2>
          <ul className="mt-3 grid grid-cols-2 gap-x-6 sm:grid-cols-3">
            {states.map((s) => (
              <li key={s.state}>
                <Link
                  to={`/rv-storage/${buildPlaceSlug(null, s.state)}`}
                  className="inline-flex min-h-11 items-center text-brand-700 underline decoration-brand-700/40 underline-offset-2 hover:decoration-brand-700"
                >
                  {s.name}
                </Link>{" "}
                <span className="text-sm text-slate-600">({s.count})</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

type ResultsData = Extract<LoaderData, { kind: "results" }>;
type PageState = {
  sizes?: readonly string[];
  amenities?: readonly string[];
  q?: string | undefined;
  sort?: SortOrder;
  page?: number;
  rv?: MyRv | undefined;
  maxPrice?: number | undefined;
  available?: boolean;
  radius?: number;
};

/**
 * After this page's own controls changed the results (filters, the sort, a page link), focus goes
 * to the results heading, so keyboard and screen reader users continue from the new results
 * rather than from the top of the page; the heading is scrolled into view when it is not.
 */
function useFocusResultsHeading() {
  const heading = useRef<HTMLHeadingElement>(null);
  const { key, state } = useLocation();
  const navigationType = useNavigationType();
  const wanted = navigationType !== "POP" && (state as ResultsNavigationState | null)?.focusResults === true;
  useEffect(() => {
    const el = heading.current;
    if (!wanted || !el) return;
    el.focus({ preventScroll: true });
    const top = el.getBoundingClientRect().top;
    // scroll-margin-top keeps it clear of the sticky header and filter bar.
    if (top < 0 || top > window.innerHeight / 2) el.scrollIntoView({ block: "start" });
  }, [key, wanted]);
  return heading;
}

function Results({
  data: d,
  searchRow,
  notice,
  onShowAll,
}: {
  data: ResultsData;
  searchRow: ReactNode;
  notice: ReactNode;
  onShowAll(): void;
}) {
  const navigate = useNavigate();
  const { pathname, state: routerState } = useLocation();
  const [showMap, setShowMap] = useState(false);
  // The result whose card is hovered or focused: its pin stands out on the map.
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const loading = useResultsPending();
  const heading = useFocusResultsHeading();
  const sortNoteId = useId();
  const { place, applied, result } = d;
  const wholeState = place.kind === "state";

  const pointParams = (): URLSearchParams => {
    const p = new URLSearchParams();
    if (place.kind === "point") {
      p.set("lat", String(place.lat));
      p.set("lng", String(place.lng));
    }
    return p;
  };
  const paramsFor = (state: PageState) => {
    const params = searchParamsFor({
      sizes: applied.sizes,
      amenities: applied.amenities,
      sort: applied.sort,
      q: applied.q,
      rv: applied.rv,
      maxPrice: applied.maxPrice,
      available: applied.available,
      radius: d.radius,
      ...state,
    });
    for (const [k, v] of pointParams()) params.set(k, v);
    return params;
  };
  const hrefFor = (state: PageState) => {
    const qs = paramsFor(state).toString();
    return `${pathname}${qs ? `?${qs}` : ""}`;
  };
  const nearYou = (routerState as ResultsNavigationState | null)?.useCurrentLocation === true;
  const mapArea = (routerState as ResultsNavigationState | null)?.mapArea === true;
  // Results near the visitor's own position stay flagged as such through filters and pages.
  const focusResults: ResultsNavigationState = { focusResults: true, ...(nearYou ? { useCurrentLocation: true } : {}) };
  // Filters and sort keep the visitor where they are; a new page starts at the top.
  const go = (state: PageState, replace = false) =>
    navigate(hrefFor(state), { preventScrollReset: true, replace, state: focusResults });
  // "Search this area" on the map: the same filters around the point the map shows (docs/product.md section 4).
  const searchArea = (area: MapArea) => {
    const params = paramsFor({ page: undefined, radius: Math.min(area.radiusMiles, MAX_RADIUS_MILES) });
    params.set("lat", String(area.lat));
    params.set("lng", String(area.lng));
    navigate(`/rv-storage?${params}`, {
      preventScrollReset: true,
      state: { focusResults: true, mapArea: true } satisfies ResultsNavigationState,
    });
  };
  const previewBase = `/api/search?lat=${place.lat}&lng=${place.lng}&radius=${d.radius}${wholeState ? `&state=${place.state}` : ""}`;
  const { rv, maxPrice, available } = applied;
  const withoutSizes = searchParamsFor({ amenities: applied.amenities, q: applied.q, rv, maxPrice, available });
  const withoutAmenities = searchParamsFor({ sizes: applied.sizes, q: applied.q, rv, maxPrice, available });
  const withoutPrice = searchParamsFor({
    sizes: applied.sizes,
    amenities: applied.amenities,
    q: applied.q,
    rv,
    available,
  });
  // Prices appear only where owners give them (docs/product.md, "Prices").
  const priced = result.facets.priced > 0 || maxPrice !== undefined;
  // My RV describes the vehicle, not a filter to undo: Clear All leaves it (docs/product.md, "My RV").
  const hasFilters =
    applied.sizes.length > 0 ||
    applied.amenities.length > 0 ||
    Boolean(applied.q) ||
    maxPrice !== undefined ||
    available;
  const clearAll = () => go({ sizes: [], amenities: [], q: undefined, maxPrice: undefined, available: false, page: 1 });
  const pageCount = Math.ceil(result.total / result.pageSize);
  // Paid tiers come first in the distance order (docs/product.md section 9); where the plain
  // distance order starts after them, a divider says so, so the nearest facility is found at once.
  const firstSponsoredOnly = result.items.findIndex((item) => !placedByTier(item.tier, applied.sort));
  const firstUnsponsored = firstSponsoredOnly > 0 && !wholeState ? firstSponsoredOnly : -1;
  // A state's page measures from the state's centre: a distance from there means nothing to a visitor.
  const markers = useMemo(() => {
    const all = JSON.parse(d.markersJson) as MapMarker[];
    return wholeState ? all.map(({ distanceMiles: _distance, ...m }) => m) : all;
  }, [d.markersJson, wholeState]);
  const textFilterKeep = paramsFor({ q: undefined, page: undefined });

  return (
    <>
      {/* The search bar stays in reach while the list scrolls: compact on phones (docs/product.md section 2). */}
      <div className="sticky top-16 z-10 -mx-4 border-b border-slate-200 bg-white/95 px-4 py-2 backdrop-blur">
        {searchRow}
        <div
          role="group"
          aria-label="Filters"
          // On phones the row scrolls sideways rather than wrapping; py-1 leaves room for focus outlines.
          className="-mx-4 mt-1 flex items-center gap-2 px-4 py-1 [scrollbar-width:none] max-sm:overflow-x-auto sm:flex-wrap"
        >
          <SizeFilter
            key={`s-${applied.sizes.join()}`}
            applied={applied.sizes as SizeOption[]}
            facets={result.facets.sizes}
            previewBase={previewBase}
            otherParams={withoutSizes}
            onApply={(sizes) => go({ sizes, page: 1 })}
          />
          <AmenitiesFilter
            key={`a-${applied.amenities.join()}`}
            applied={applied.amenities as AmenityFilter[]}
            facets={result.facets.amenities}
            previewBase={previewBase}
            otherParams={withoutAmenities}
            onApply={(amenities) => go({ amenities, page: 1 })}
          />
          <MyRvFilter applied={rv} onApply={(next, o) => go({ rv: next, page: 1 }, o?.replace)} />
          <AvailableFilter
            applied={available}
            count={available ? result.total : result.facets.available}
            onChange={(next) => go({ available: next, page: 1 })}
          />
          {priced && (
            <PriceFilter
              key={`p-${maxPrice ?? ""}`}
              applied={maxPrice}
              previewBase={previewBase}
              otherParams={withoutPrice}
              onApply={(next) => go({ maxPrice: next, page: 1 })}
            />
          )}
          {!wholeState && <RadiusSelect radius={d.radius} onChange={(radius) => go({ radius, page: 1 })} />}
          <SortButtons
            sort={applied.sort}
            priced={priced}
            onChange={(sort) => go({ sort, page: 1 })}
            describedBy={sortNoteId}
          />
          <button
            type="button"
            disabled={!hasFilters}
            onClick={clearAll}
            className="h-10 shrink-0 whitespace-nowrap rounded-md px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent sm:text-base"
          >
            Clear All
          </button>
        </div>
      </div>
      {notice}

      <div className="mt-3 flex flex-col gap-2 sm:mt-5 md:flex-row md:items-end md:justify-between">
        <div className="min-w-0">
          <h1 ref={heading} tabIndex={-1} className="scroll-mt-48 text-lg font-bold tracking-tight sm:text-2xl">
            Storage Locations in {placeLabel(place)} ({result.total})
          </h1>
          <p id={sortNoteId} className="text-sm text-slate-600">
            {SORT_EXPLANATIONS[applied.sort]}
            {nearYou && (
              <>
                {" "}
                <button
                  type="button"
                  onClick={onShowAll}
                  className="font-medium text-brand-700 underline underline-offset-2"
                >
                  Show all locations
                </button>
              </>
            )}
          </p>
        </div>
        <TextFilter
          key={applied.q ?? ""}
          applied={applied.q}
          action={pathname}
          keep={textFilterKeep}
          onApply={(q) => go({ q, page: 1 })}
        />
      </div>

      {/* The list comes before the map in the page, so the keyboard reaches the cards first. */}
      <div className="mt-3 flex flex-col gap-6 sm:mt-4 md:flex-row">
        <section
          aria-label="Results"
          aria-busy={loading}
          className={`min-w-0 flex-1 md:order-2 ${showMap ? "max-md:hidden" : ""}`}
        >
          <LoadingStatus loading={loading} />
          {loading ? (
            <ResultsSkeleton count={result.items.length || SKELETONS_WITHOUT_RESULTS} />
          ) : result.items.length === 0 ? (
            <NoResults hasFilters={hasFilters} rv={rv} onClear={clearAll} nearest={d.nearest} radius={d.radius} />
          ) : (
            <div className={RESULTS_GRID}>
              {result.items.map((item, i) => (
                <Fragment key={item.id}>
                  {i === firstUnsponsored && (
                    <p
                      data-results-divider
                      className="col-span-full flex items-center gap-3 pt-1 text-sm font-semibold text-slate-700"
                    >
                      Nearest to {shortLabel(place)}
                      <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
                    </p>
                  )}
                  <div
                    className="contents"
                    onMouseEnter={() => setHighlighted(item.id)}
                    onMouseLeave={() => setHighlighted(null)}
                    onFocus={() => setHighlighted(item.id)}
                    onBlur={() => setHighlighted(null)}
                  >
                    <LocationCard
                      headingLevel={2}
                      layout="list"
                      eager={i < EAGER_CARD_IMAGES}
                      placedByTier={placedByTier(item.tier, applied.sort)}
                      location={cardDataFrom({
                        ...item,
                        distanceMiles: wholeState ? undefined : item.distanceMiles,
                        amenityLabels: item.amenities.map((a) => AMENITY_LABELS[a]),
                      })}
                      rv={rv}
                    />
                  </div>
                </Fragment>
              ))}
            </div>
          )}
          <Pagination
            page={result.page}
            pageCount={pageCount}
            pageSize={result.pageSize}
            total={result.total}
            hrefFor={(page) => hrefFor({ page })}
            linkState={focusResults}
          />
        </section>
        <div className={`${showMap ? "block" : "hidden"} md:order-1 md:block md:w-1/3 md:shrink-0`}>
          <div className="h-[70dvh] md:sticky md:top-48 md:h-[calc(100dvh-13rem)]">
            <ResultsMap
              markers={markers}
              center={{ lat: place.lat, lng: place.lng }}
              placeLabel={placeLabel(place)}
              highlightedId={highlighted}
              userLocation={place.kind === "point" && !mapArea ? { lat: place.lat, lng: place.lng } : null}
              fitPlace={d.nearest !== null}
              tileUrl={d.map.tileUrl}
              attribution={d.map.attribution}
              className="h-full w-full"
              onSearchArea={searchArea}
            />
          </div>
        </div>
      </div>

      {/* Phones: one floating button switches between the list and the map. */}
      <button
        type="button"
        onClick={() => setShowMap((v) => !v)}
        aria-pressed={showMap}
        className="fixed bottom-5 left-1/2 z-20 inline-flex h-12 -translate-x-1/2 items-center gap-2 rounded-full bg-slate-900 px-5 font-semibold text-white shadow-lg hover:bg-slate-800 md:hidden"
      >
        {showMap ? <List className="size-5" aria-hidden="true" /> : <MapIcon className="size-5" aria-hidden="true" />}
        {showMap ? "List" : "Map"}
      </button>
    </>
  );
}

function NoResults({
  hasFilters,
  rv,
  onClear,
  nearest,
  radius,
}: {
  hasFilters: boolean;
  rv?: MyRv | undefined;
  onClear(): void;
  nearest: ResultsData["nearest"];
  radius: number;
}) {
  return (
    <div className="rounded-card border border-dashed border-slate-300 p-6 text-center sm:p-8">
      <p className="text-lg font-medium">No storage locations match.</p>
      <p className="mt-2 text-slate-600">
        {hasFilters ? "Try removing a filter, or search a nearby town." : "Try a nearby town or a larger city."}
      </p>
      {rv && (
        <p className="mt-2 text-slate-600">
          Only places with a space for your {rv.lengthFeet} ft RV are shown (My RV).
        </p>
      )}
      {hasFilters && (
        <Button onClick={onClear} className="mt-4 py-2">
          Clear All filters
        </Button>
      )}
      {nearest && (
        <div className="mt-6 text-left">
          <p className="mb-3 text-center text-slate-700">
            No storage within {radius} miles{hasFilters ? " with these filters" : ""}. The nearest is{" "}
            <Link to={`/location/${nearest.slug}`} className="font-semibold text-brand-700 underline">
              {nearest.name}
            </Link>
            , {formatNumber(Math.round(nearest.distanceMiles))} mi away.
          </p>
          <div className="mx-auto max-w-sm">
            <LocationCard
              layout="list"
              headingLevel={2}
              location={cardDataFrom({
                ...nearest,
                amenityLabels: nearest.amenities.map((a) => AMENITY_LABELS[a]),
              })}
            />
          </div>
        </div>
      )}
    </div>
  );
}

/** The distances the results page offers (docs/product.md section 4); the default among them. */
const RADIUS_CHOICES = [10, 25, 50, DEFAULT_RADIUS_MILES, 250] as const;

/**
 * How far around the place to look. A native select: one tap on a phone, the keyboard for free.
 * A distance from elsewhere (the map's "Search this area", a shared link) is offered too.
 */
function RadiusSelect({ radius, onChange }: { radius: number; onChange(radius: number): void }) {
  const choices = (RADIUS_CHOICES as readonly number[]).includes(radius)
    ? RADIUS_CHOICES
    : [...RADIUS_CHOICES, radius].sort((a, b) => a - b);
  // Named by aria-label: a visually hidden <label> is positioned outside the scrolling filter row
  // and would widen the page on a phone.
  return (
    <select
      aria-label="Distance"
      value={radius}
      onChange={(e) => onChange(Number(e.target.value))}
      className="h-10 shrink-0 rounded-md border border-slate-300 bg-white px-2 text-sm font-medium text-slate-800 hover:bg-slate-50 sm:text-base"
    >
      {choices.map((miles) => (
        <option key={miles} value={miles}>
          Within {miles} mi
        </option>
      ))}
    </select>
  );
}
