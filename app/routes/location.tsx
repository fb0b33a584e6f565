import { ArrowLeft, Clock, Globe, Navigation, Phone } from "lucide-react";
import { Link, data, redirect } from "react-router";
import type { Route } from "./+types/location";
import { Rating } from "../components/location/rating";
import { DemoBadge, PreferredPartnerBadge } from "../components/location/tier-badge";
import { AMENITY_FLAGS, AMENITY_LABELS } from "../lib/amenities";
import { originFrom, seo } from "../lib/meta";
import { breadcrumbJsonLd, selfStorageJsonLd } from "../lib/structured-data";
import { buildPlaceSlug, parseLocationSlug } from "../lib/slug";
import { getLocationByIdPiece, getLocationBySlug } from "../../server/locations/repository";
import { amenityFlagsOf } from "../../server/locations/amenities";
import { stateNameFromCode } from "../../server/geo";

/**
 * Facility detail. This first version shows the record; the gallery, map, nearby facilities and
 * structured data arrive with the detail-page work.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const slug = params.slug;
  const parsed = parseLocationSlug(slug);
  if (!parsed.placeIdPiece) throw data("Invalid location URL", { status: 400 });
  const location = (await getLocationBySlug(slug)) ?? (await getLocationByIdPiece(parsed.placeIdPiece));
  if (!location) throw data("Location not found", { status: 404 });
  if (location.slug !== slug) throw redirect(`/location/${location.slug}`, 301);
  const flags = amenityFlagsOf(location);
  return {
    location: {
      placeId: location.placeId,
      slug: location.slug,
      name: location.name,
      address: location.address,
      city: location.city,
      state: location.state,
      stateName: location.state ? (stateNameFromCode(location.state) ?? null) : null,
      rating: location.rating,
      userRatingsTotal: location.userRatingsTotal,
      tier: location.tier,
      isDemo: location.isDemo,
      description: location.description,
      phone: location.phoneNumber,
      website: location.website,
      latitude: location.latitude,
      longitude: location.longitude,
      dimensions: location.dimensions,
      openingHours: location.openingHours,
      reviews: location.reviews.slice(0, 3),
      photos: location.imageUrls,
      amenities: AMENITY_FLAGS.filter((f) => flags[f]).map((f) => AMENITY_LABELS[f]),
    },
  };
}

export function meta({ data: loaderData, matches, location }: Route.MetaArgs) {
  const l = loaderData?.location;
  if (!l) return [{ title: "Location not found" }, { name: "robots", content: "noindex" }];
  const origin = originFrom(matches);
  const url = new URL(`/location/${l.slug}`, origin).toString();
  const images = l.photos.map((p) => new URL(p, origin).toString());
  const crumbs = [{ name: "Home", url: new URL("/", origin).toString() }];
  if (l.state) {
    crumbs.push({
      name: l.stateName ?? l.state,
      url: new URL(`/rv-storage/${buildPlaceSlug(null, l.state)}`, origin).toString(),
    });
    if (l.city)
      crumbs.push({ name: l.city, url: new URL(`/rv-storage/${buildPlaceSlug(l.city, l.state)}`, origin).toString() });
  }
  crumbs.push({ name: l.name, url });
  return [
    ...seo({
      title: `${l.name}${l.city ? ` in ${l.city}, ${l.state}` : ""}`,
      description: l.description ?? `RV storage at ${l.address}.`,
      origin,
      path: location.pathname,
      image: l.photos[0],
      type: "business.business",
    }),
    {
      "script:ld+json": selfStorageJsonLd({
        name: l.name,
        url,
        address: l.address,
        city: l.city,
        state: l.state,
        latitude: l.latitude,
        longitude: l.longitude,
        telephone: l.phone,
        website: l.website,
        rating: l.rating,
        reviewCount: l.userRatingsTotal,
        openingHours: l.openingHours,
        images,
        description: l.description,
      }),
    },
    { "script:ld+json": breadcrumbJsonLd(crumbs) },
  ];
}

export default function LocationPage({ loaderData }: Route.ComponentProps) {
  const l = loaderData.location;
  const back = l.state ? `/rv-storage/${buildPlaceSlug(l.city, l.state)}` : "/rv-storage";
  return (
    <article className="mx-auto max-w-5xl px-4 py-8">
      <Link to={back} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" /> Back
      </Link>
      <div className="mt-4 flex flex-wrap gap-2">
        <PreferredPartnerBadge tier={l.tier} />
        <DemoBadge isDemo={l.isDemo} />
      </div>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">{l.name}</h1>
      {l.address && <p className="mt-1 text-slate-600">{l.address}</p>}
      <div className="mt-2">
        <Rating rating={l.rating} count={l.userRatingsTotal} />
      </div>

      {l.photos.length > 0 ? (
        <div className="mt-6 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {l.photos.map((src, i) => (
            <img
              key={src}
              src={src}
              alt={`${l.name}, photo ${i + 1}`}
              width={640}
              height={480}
              loading={i === 0 ? "eager" : "lazy"}
              className={`aspect-[4/3] w-full rounded-card object-cover ${i === 0 ? "col-span-2 row-span-2" : ""}`}
            />
          ))}
        </div>
      ) : (
        <p className="mt-6 rounded-card bg-slate-100 p-8 text-center text-slate-600">No photos available</p>
      )}

      <div className="mt-8 grid gap-8 md:grid-cols-3">
        <div className="space-y-8 md:col-span-2">
          {l.description && <p className="text-slate-700">{l.description}</p>}
          <section>
            <h2 className="text-xl font-semibold">Amenities</h2>
            {l.amenities.length ? (
              <ul className="mt-3 flex flex-wrap gap-2">
                {l.amenities.map((a) => (
                  <li key={a} className="rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-700">
                    {a}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-2 text-slate-600">No amenities listed.</p>
            )}
          </section>
          <section>
            <h2 className="text-xl font-semibold">Sizes</h2>
            {l.dimensions.length ? (
              <p className="mt-2 text-slate-700">{l.dimensions.map((d) => `${d.width}' x ${d.length}'`).join(", ")}</p>
            ) : (
              <p className="mt-2 text-slate-600">
                Sorry! We don't have this information. Check their website or call {l.phone ?? "the facility"} for more
                info.
              </p>
            )}
          </section>
          <section>
            <h2 className="flex items-center gap-2 text-xl font-semibold">
              <Clock className="size-5" aria-hidden="true" /> Business hours
            </h2>
            {l.openingHours.length ? (
              <ul className="mt-2 space-y-1 text-slate-700">
                {l.openingHours.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : (
              <p className="mt-2 text-slate-600">Hours not available</p>
            )}
          </section>
          {l.reviews.length > 0 && (
            <section>
              <h2 className="text-xl font-semibold">Recent reviews</h2>
              <ul className="mt-3 space-y-4">
                {l.reviews.map((r, i) => (
                  <li key={i} className="rounded-card border border-slate-200 p-4">
                    <p className="font-medium">
                      {r.author}{" "}
                      <span className="text-sm font-normal text-slate-600">
                        · {r.rating}/5 · {r.relativeTime}
                      </span>
                    </p>
                    <p className="mt-1 text-slate-700">{r.text}</p>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
        <aside className="h-fit space-y-3 rounded-card border border-slate-200 p-4">
          {l.latitude !== null && l.longitude !== null && (
            <a
              href={`https://www.openstreetmap.org/directions?to=${l.latitude}%2C${l.longitude}`}
              className="flex items-center gap-2 rounded-md bg-brand-500 px-4 py-2.5 font-medium text-white hover:bg-brand-600"
            >
              <Navigation className="size-4" aria-hidden="true" /> Directions
            </a>
          )}
          {l.phone && (
            <a
              href={`tel:${l.phone.replace(/[^\d+]/g, "")}`}
              className="flex items-center gap-2 text-brand-700 hover:underline"
            >
              <Phone className="size-4" aria-hidden="true" /> {l.phone}
            </a>
          )}
          {l.website && (
            <a
              href={l.website}
              rel="nofollow noopener"
              className="flex items-center gap-2 text-brand-700 hover:underline"
            >
              <Globe className="size-4" aria-hidden="true" /> Website
            </a>
          )}
          {!l.phone && !l.website && <p className="text-slate-600">Contact information not available</p>}
          <Link to={`/owner/claim/${l.placeId}`} className="block pt-2 text-sm text-slate-700 underline">
            Claim This Business
          </Link>
        </aside>
      </div>
    </article>
  );
}
