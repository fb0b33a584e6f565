import { data, redirect } from "react-router";
import type { Route } from "./+types/rv-storage";
import { LocationCard } from "../components/location/location-card";
import { SearchForm } from "../components/search/search-form";
import { originFrom, seo } from "../lib/meta";
import { buildPlaceSlug, parsePlaceSlug } from "../lib/slug";
import { TIER_WEIGHT } from "../lib/tiers";
import { getGazetteer, haversineMiles, stateNameFromCode } from "../../server/geo";
import { getLocationsInState } from "../../server/locations/repository";

const PAGE_SIZE = 12;
const RADIUS_MILES = 100;

/**
 * Results page. This first version resolves the place and lists the nearest facilities of its
 * state; the search index, filters, map and paging replace the listing in the search work.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = url.searchParams.get("q")?.trim();
  if (q) {
    const place = getGazetteer().lookup(q);
    if (!place)
      return data({ kind: "error" as const, message: `Could not find location: ${q}`, query: q }, { status: 404 });
    throw redirect(`/rv-storage/${buildPlaceSlug(place.kind === "state" ? null : place.name, place.state)}`);
  }
  if (!params.slug) return { kind: "empty" as const };

  const parsed = parsePlaceSlug(params.slug);
  const place = parsed?.city ? getGazetteer().findCity(parsed.city, parsed.state) : undefined;
  const name = parsed ? stateNameFromCode(parsed.state) : undefined;
  if (!parsed || !name || (parsed.city && !place)) {
    return data(
      {
        kind: "error" as const,
        message: `Could not find location: ${params.slug.replace(/-/g, " ")}`,
        query: params.slug,
      },
      { status: 404 },
    );
  }

  const rows = await getLocationsInState(parsed.state);
  const ranked = place
    ? rows
        .map((row) => ({
          row,
          miles: haversineMiles({ lat: place.lat, lng: place.lng }, { lat: row.latitude!, lng: row.longitude! }),
        }))
        .filter((r) => r.miles <= RADIUS_MILES)
        .sort((a, b) => TIER_WEIGHT[b.row.tier] - TIER_WEIGHT[a.row.tier] || a.miles - b.miles)
    : rows
        .map((row) => ({ row, miles: null }))
        .sort((a, b) => TIER_WEIGHT[b.row.tier] - TIER_WEIGHT[a.row.tier] || (b.row.rating ?? 0) - (a.row.rating ?? 0));
  return {
    kind: "results" as const,
    city: place?.name ?? null,
    state: parsed.state,
    stateName: name,
    total: ranked.length,
    items: ranked.slice(0, PAGE_SIZE).map(({ row, miles }) => ({
      slug: row.slug,
      name: row.name,
      address: row.address,
      rating: row.rating,
      userRatingsTotal: row.userRatingsTotal,
      tier: row.tier,
      isDemo: row.isDemo,
      photo: row.imageUrls[0] ?? null,
      miles: miles === null ? null : Math.round(miles * 10) / 10,
    })),
  };
}

export function meta({ data: loaderData, matches, location }: Route.MetaArgs) {
  const where =
    loaderData?.kind === "results"
      ? loaderData.city
        ? `${loaderData.city}, ${loaderData.stateName}`
        : loaderData.stateName
      : undefined;
  return seo({
    title: where ? `RV Storage in ${where}` : "Find RV Storage",
    description: where
      ? `Compare RV and boat storage facilities in ${where}: sizes, covered parking, security, hours and reviews.`
      : undefined,
    origin: originFrom(matches),
    path: location.pathname,
  });
}

export default function RvStorage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <div className="max-w-2xl">
        <SearchForm defaultValue={loaderData.kind === "error" ? loaderData.query : ""} />
      </div>
      {loaderData.kind === "empty" && (
        <p className="mt-12 text-center text-lg text-slate-600">
          Search for a city, state or ZIP code to see RV storage near it, or click 'Use My Location'.
        </p>
      )}
      {loaderData.kind === "error" && (
        <div role="alert" className="mt-8 rounded-card border border-red-200 bg-red-50 p-4 text-red-900">
          <h2 className="font-semibold">Location Error</h2>
          <p className="mt-1">{loaderData.message}</p>
        </div>
      )}
      {loaderData.kind === "results" && (
        <>
          <h1 className="mt-8 text-2xl font-bold tracking-tight">
            Storage Locations in {loaderData.city ? `${loaderData.city}, ` : ""}
            {loaderData.stateName} ({loaderData.total})
          </h1>
          {loaderData.items.length === 0 ? (
            <p className="mt-6 text-slate-600">No storage locations found here yet. Try a nearby town.</p>
          ) : (
            <div className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {loaderData.items.map((item, i) => (
                <div key={item.slug}>
                  <LocationCard location={item} eager={i < 3} />
                  {item.miles !== null && (
                    <p className="mt-1 text-sm text-slate-600">{item.miles.toFixed(1)} miles away</p>
                  )}
                </div>
              ))}
            </div>
          )}
        </>
      )}
    </div>
  );
}
