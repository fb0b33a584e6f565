import { Link } from "react-router";
import type { Route } from "./+types/home";
import { LocationCard } from "../components/location/location-card";
import { useState } from "react";
import { LocationErrorBanner } from "../components/search/location-error-banner";
import { PlaceSearch } from "../components/search/place-search";
import { UseMyLocationButton } from "../components/search/use-my-location";
import { originFrom, seo } from "../lib/meta";
import { buildPlaceSlug } from "../../domain/slug";
import { stateNameFromCode } from "../../server/geo";
import { getSearchIndex } from "../../server/search";
import { formatNumber } from "../lib/format";

/**
 * Counts by state and the preferred partners come from the search index (computed once per index
 * version), not from the database on every visit: the home page asks the database nothing.
 */
export function loader() {
  const index = getSearchIndex();
  const stats = index.catalogueSummary();
  return {
    total: stats.total,
    states: stats.byState.map((s) => ({ ...s, name: stateNameFromCode(s.state) ?? s.state })),
    featured: index.featured(6).map((l) => ({
      slug: l.slug,
      name: l.name,
      address: l.address,
      // The combined rating of imported and first-party reviews (docs/product.md section 16).
      rating: l.rating,
      userRatingsTotal: l.reviewCount,
      tier: l.tier,
      isDemo: l.isDemo,
      photo: l.photo,
    })),
  };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return seo({ origin: originFrom(matches), path: location.pathname });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { total, states, featured } = loaderData;
  const [locationError, setLocationError] = useState<string | null>(null);
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-br from-slate-900 via-slate-800 to-brand-700 pt-28 pb-20 text-white">
        <div className="relative mx-auto max-w-4xl px-4 text-center">
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Find RV storage near you</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-200">
            Compare {formatNumber(total)} RV, camper and boat storage facilities across the USA by size, covered
            parking, security and reviews.
          </p>
          <div className="mx-auto mt-8 flex max-w-2xl flex-col gap-3">
            {/* The suggestions push 'Use my location' down instead of covering it, and the hero
                grows to hold them (it clips what overflows it). */}
            <PlaceSearch size="lg" listPlacement="inline" />
            <div className="flex justify-center">
              <UseMyLocationButton variant="dark" onError={setLocationError} />
            </div>
            {locationError && (
              <div className="text-left">
                <LocationErrorBanner message={locationError} />
              </div>
            )}
          </div>
        </div>
      </section>

      {featured.length > 0 && (
        <section aria-labelledby="featured-heading" className="mx-auto max-w-7xl px-4 py-12">
          <h2 id="featured-heading" className="text-2xl font-bold tracking-tight">
            Preferred partners
          </h2>
          <div className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {featured.map((location, i) => (
              <LocationCard key={location.slug} location={location} eager={i < 3} />
            ))}
          </div>
        </section>
      )}

      <section aria-labelledby="states-heading" className="mx-auto max-w-7xl px-4 py-12">
        <h2 id="states-heading" className="text-2xl font-bold tracking-tight">
          Browse by state
        </h2>
        {states.length === 0 ? (
          <p className="mt-4 text-slate-600">No facilities are listed yet.</p>
        ) : (
          <ul className="mt-6 grid grid-cols-2 gap-x-4 sm:grid-cols-3 lg:grid-cols-5">
            {states.map((s) => (
              // Each state is one 44 px tall link, name and count, so a thumb can hit it.
              <li key={s.state}>
                <Link
                  to={`/rv-storage/${buildPlaceSlug(null, s.state)}`}
                  className="group -mx-2 flex min-h-11 items-center gap-1 rounded-md px-2 hover:bg-slate-50"
                >
                  <span className="text-brand-700 underline decoration-brand-700/40 underline-offset-2 group-hover:decoration-brand-700">
                    {s.name}
                  </span>
                  <span className="text-sm text-slate-600">({s.count})</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
