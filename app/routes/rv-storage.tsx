import { List, Map as MapIcon } from "lucide-react";
import { useState } from "react";
import { Link, data, redirect, useLocation, useNavigate, useNavigation } from "react-router";
import type { Route } from "./+types/rv-storage";
import { LocationCard, cardDataFrom } from "../components/location/location-card";
import { ResultsMap } from "../components/map/results-map";
import { AmenitiesFilter } from "../components/search/amenities-filter";
import { LocationErrorBanner } from "../components/search/location-error-banner";
import { Pagination } from "../components/search/pagination";
import { PlaceSearch } from "../components/search/place-search";
import { LoadingStatus, RESULTS_GRID, ResultsSkeleton } from "../components/search/results-skeleton";
import { SizeFilter } from "../components/search/size-filter";
import { SortButtons } from "../components/search/sort-buttons";
import { UseMyLocationButton } from "../components/search/use-my-location";
import { AMENITY_LABELS, type AmenityFlag } from "../lib/amenities";
import { imageRefFromUrl } from "../lib/images";
import { MAX_PLACE_QUERY_LENGTH, MAX_PLACE_SLUG_LENGTH } from "../lib/input-limits";
import { originFrom, seo } from "../lib/meta";
import { itemListJsonLd } from "../lib/structured-data";
import { EAGER_CARD_IMAGES, PAGE_SIZE, searchParamsFor, type SortOrder } from "../lib/search";
import { parseSearchParams } from "../lib/search-params";
import type { SizeOption } from "../lib/sizes";
import {
  placeFromPoint,
  placeFromSlug,
  placeFromText,
  suggestPlaces,
  type SearchPlace,
} from "../../server/geo/resolve-place";
import { publicMapConfig } from "../../server/http/public-config";
import { getImageStorage } from "../../server/images";
import { warmDemoPhotos } from "../../server/images/demo-photos";
import { searchResultsPage } from "../../server/search";
import { recordResultsSearch } from "../../server/search/demand";
import { Button } from "../components/ui/button";

/** Map markers beyond this many nearest results add nothing a visitor can use. */
const MAX_MARKERS = 500;

type ErrorData = { kind: "error"; message: string; suggestions: SearchPlace[]; query: string };

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

function errorPage(message: string, query: string, status: number, suggestFrom?: string) {
  return data<ErrorData>(
    { kind: "error", message, suggestions: suggestFrom ? suggestPlaces(suggestFrom) : [], query },
    { status },
  );
}

/**
 * The results page: slug (or ?lat=&lng=, or typed ?where=) -> place -> the search index.
 * Filters, sort and page live in the URL query, so every state can be shared and reloaded.
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
      // Search demand counts it as a place not found, never with the text (docs/product.md section 10).
      recordResultsSearch(request, undefined);
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
      recordResultsSearch(request, undefined);
      const words = params.slug.replace(/-/g, " ");
      return errorPage(`Could not find location: ${words}`, words, 404, withoutStateCode(words));
    }
    if (place.slug !== params.slug) throw redirect(`/rv-storage/${place.slug}${url.search}`, 301);
  } else if (parsed.point) {
    place = placeFromPoint(parsed.point.lat, parsed.point.lng);
    if (!place) {
      recordResultsSearch(request, undefined);
      return errorPage("That point is outside the United States. Try a US city, state or ZIP code.", "", 404);
    }
  } else {
    return { kind: "empty" as const };
  }

  const { result, markers } = searchResultsPage(place, {
    ...parsed.filters,
    sort: parsed.sort,
    page: parsed.page,
    pageSize: PAGE_SIZE,
    radius: parsed.radius,
    maxMarkers: MAX_MARKERS,
  });
  const { sizes, amenities, q } = parsed.filters;
  recordResultsSearch(
    request,
    { ...place, label: placeLabel(place) },
    {
      total: result.total,
      radius: parsed.radius,
      filtered: sizes.length > 0 || amenities.length > 0 || Boolean(q),
      page: parsed.page,
    },
  );
  // The eagerly loaded card photos: demo ones are drawn on first request, so start them now.
  for (const item of result.items.slice(0, EAGER_CARD_IMAGES)) {
    const ref = item.isDemo && item.photo ? imageRefFromUrl(item.photo) : undefined;
    if (ref?.placeId === item.id) warmDemoPhotos(getImageStorage(), ref.placeId, [ref.index]);
  }
  return {
    kind: "results" as const,
    place,
    applied: {
      sizes: parsed.filters.sizes,
      amenities: parsed.filters.amenities,
      sort: parsed.sort,
      q: parsed.filters.q,
    },
    radius: parsed.radius,
    result,
    markers,
    map: publicMapConfig(),
  };
}

function placeLabel(place: SearchPlace): string {
  return place.city ? `${place.city}, ${place.stateName}` : place.stateName;
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

export default function RvStorage({ loaderData }: Route.ComponentProps) {
  const [locationError, setLocationError] = useState<string | null>(null);
  const location = useLocation();
  // From the empty or error state there is no list yet: the skeleton takes the message's place.
  const pendingFirstResults = useResultsPending() && loaderData.kind !== "results";
  const currentQuery = new URLSearchParams(location.search);
  return (
    <div className="mx-auto max-w-7xl px-4 pb-8 pt-4">
      <div className="flex flex-col gap-2 sm:flex-row">
        <div className="flex-1">
          <PlaceSearch key={location.pathname} query={currentQuery} />
        </div>
        <UseMyLocationButton onError={setLocationError} query={currentQuery} />
      </div>
      {locationError && (
        <div className="mt-4">
          <LocationErrorBanner message={locationError} />
        </div>
      )}
      {pendingFirstResults && (
        <section aria-label="Results" aria-busy="true" className="mt-6">
          <LoadingStatus loading />
          <ResultsSkeleton count={SKELETONS_WITHOUT_RESULTS} />
        </section>
      )}
      {!pendingFirstResults && loaderData.kind === "empty" && <EmptyState />}
      {!pendingFirstResults && loaderData.kind === "error" && (
        <div className="mt-6">
          <LocationErrorBanner message={loaderData.message}>
            {loaderData.suggestions.length > 0 && (
              <p className="mt-2">
                Did you mean:{" "}
                {loaderData.suggestions.map((s, i) => (
                  <span key={s.slug}>
                    {i > 0 && ", "}
                    <Link to={`/rv-storage/${s.slug}`} className="font-medium underline">
                      {placeLabel(s)}
                    </Link>
                  </span>
                ))}
              </p>
            )}
          </LocationErrorBanner>
        </div>
      )}
      {loaderData.kind === "results" && <Results data={loaderData} />}
    </div>
  );
}

function EmptyState() {
  return (
    <div className="mx-auto mt-16 max-w-lg text-center">
      <h1 className="text-2xl font-bold tracking-tight">Find RV storage near you</h1>
      <p className="mt-3 text-slate-600">
        Search for a city, state or ZIP code above, or click 'Use My Location' to see storage near you.
      </p>
    </div>
  );
}

type ResultsData = Extract<Route.ComponentProps["loaderData"], { kind: "results" }>;

function Results({ data: d }: { data: ResultsData }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [showMap, setShowMap] = useState(false);
  // The result whose card is hovered or focused: its pin stands out on the map.
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const loading = useResultsPending();
  const { place, applied, result } = d;

  const pointParams = (): URLSearchParams => {
    const p = new URLSearchParams();
    if (place.kind === "point") {
      p.set("lat", String(place.lat));
      p.set("lng", String(place.lng));
    }
    return p;
  };
  type PageState = { sizes?: readonly string[]; amenities?: readonly string[]; sort?: SortOrder; page?: number };
  const hrefFor = (state: PageState) => {
    const params = searchParamsFor({
      sizes: applied.sizes,
      amenities: applied.amenities,
      sort: applied.sort,
      q: applied.q,
      ...state,
    });
    for (const [k, v] of pointParams()) params.set(k, v);
    const qs = params.toString();
    return `${pathname}${qs ? `?${qs}` : ""}`;
  };
  // Filters and sort keep the visitor where they are; a new page starts at the top.
  const go = (state: PageState) => navigate(hrefFor(state), { preventScrollReset: true });
  const previewBase = `/api/search?lat=${place.lat}&lng=${place.lng}&radius=${d.radius}${place.kind === "state" ? `&state=${place.state}` : ""}`;
  const withoutSizes = searchParamsFor({ amenities: applied.amenities, q: applied.q });
  const withoutAmenities = searchParamsFor({ sizes: applied.sizes, q: applied.q });
  const hasFilters = applied.sizes.length > 0 || applied.amenities.length > 0;
  const pageCount = Math.ceil(result.total / result.pageSize);

  return (
    <>
      <div className="mt-4 flex flex-wrap items-center gap-2" role="group" aria-label="Filters">
        <SizeFilter
          key={`s-${search}`}
          applied={applied.sizes as SizeOption[]}
          facets={result.facets.sizes}
          previewBase={previewBase}
          otherParams={withoutSizes}
          onApply={(sizes) => go({ sizes, page: 1 })}
        />
        <AmenitiesFilter
          key={`a-${search}`}
          applied={applied.amenities as AmenityFlag[]}
          facets={result.facets.amenities}
          previewBase={previewBase}
          otherParams={withoutAmenities}
          onApply={(amenities) => go({ amenities, page: 1 })}
        />
        <button
          type="button"
          disabled={!hasFilters}
          onClick={() => go({ sizes: [], amenities: [], page: 1 })}
          className="h-10 rounded-md px-3 font-medium text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent"
        >
          Clear All
        </button>
      </div>

      <div className="mt-6 flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">
          Storage Locations in {placeLabel(place)} ({result.total})
        </h1>
        <div className="flex items-center gap-2">
          <SortButtons sort={applied.sort} onChange={(sort) => go({ sort, page: 1 })} />
          <button
            type="button"
            onClick={() => setShowMap((v) => !v)}
            aria-pressed={showMap}
            className="inline-flex h-10 items-center gap-2 rounded-md border border-slate-300 px-3 font-medium md:hidden"
          >
            {showMap ? (
              <List className="size-4" aria-hidden="true" />
            ) : (
              <MapIcon className="size-4" aria-hidden="true" />
            )}
            {showMap ? "List" : "Map"}
          </button>
        </div>
      </div>

      <div className="mt-4 flex flex-col gap-6 md:flex-row">
        <div className={`${showMap ? "block" : "hidden"} md:block md:w-1/3 md:shrink-0`}>
          <div className="h-[22rem] md:sticky md:top-20 md:h-[calc(100dvh-6rem)]">
            <ResultsMap
              markers={d.markers}
              center={{ lat: place.lat, lng: place.lng }}
              placeLabel={placeLabel(place)}
              highlightedId={highlighted}
              userLocation={place.kind === "point" ? { lat: place.lat, lng: place.lng } : null}
              tileUrl={d.map.tileUrl}
              attribution={d.map.attribution}
              className="h-full w-full"
            />
          </div>
        </div>
        <section aria-label="Results" aria-busy={loading} className="min-w-0 flex-1">
          <LoadingStatus loading={loading} />
          {loading ? (
            <ResultsSkeleton count={result.items.length || SKELETONS_WITHOUT_RESULTS} />
          ) : result.items.length === 0 ? (
            <NoResults hasFilters={hasFilters} onClear={() => go({ sizes: [], amenities: [], page: 1 })} />
          ) : (
            <div className={RESULTS_GRID}>
              {result.items.map((item, i) => (
                <div
                  key={item.id}
                  className="contents"
                  onMouseEnter={() => setHighlighted(item.id)}
                  onMouseLeave={() => setHighlighted(null)}
                  onFocus={() => setHighlighted(item.id)}
                  onBlur={() => setHighlighted(null)}
                >
                  <LocationCard
                    headingLevel={2}
                    eager={i < EAGER_CARD_IMAGES}
                    location={cardDataFrom({ ...item, amenityLabels: item.amenities.map((a) => AMENITY_LABELS[a]) })}
                  />
                </div>
              ))}
            </div>
          )}
          <Pagination
            page={result.page}
            pageCount={pageCount}
            pageSize={result.pageSize}
            total={result.total}
            hrefFor={(page) => hrefFor({ page })}
          />
        </section>
      </div>
    </>
  );
}

function NoResults({ hasFilters, onClear }: { hasFilters: boolean; onClear(): void }) {
  return (
    <div className="rounded-card border border-dashed border-slate-300 p-8 text-center">
      <p className="text-lg font-medium">No storage locations match.</p>
      <p className="mt-2 text-slate-600">
        {hasFilters ? "Try removing a filter, or search a nearby town." : "Try a nearby town or a larger city."}
      </p>
      {hasFilters && (
        <Button onClick={onClear} className="mt-4 py-2">
          Clear All filters
        </Button>
      )}
    </div>
  );
}
