import ArrowLeft from "lucide-react/icons/arrow-left";
import Globe from "lucide-react/icons/globe";
import Navigation from "lucide-react/icons/navigation";
import Phone from "lucide-react/icons/phone";
import type { MouseEvent, ReactNode } from "react";
import { Link, redirect, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/location";
import { LocationCard, cardDataFrom } from "../components/location/location-card";
import { LocationMap } from "../components/map/location-map";
import { useHydrated } from "../components/map/use-client-only";
import { PhotoGallery } from "../components/location/photo-gallery";
import { OpenStatusLine } from "../components/location/open-status";
import { BusinessHours } from "../components/location/business-hours";
import { Rating } from "../components/location/rating";
import { SaveButton } from "../components/location/save-button";
import { ShareButton } from "../components/location/share-button";
import { useAppleDevice } from "../components/location/use-apple-device";
import { appleDirectionsUrl, googleDirectionsUrl } from "../lib/directions";
import { DemoBadge, PreferredPartnerBadge, VerifiedOwnerBadge } from "../components/location/tier-badge";
import { AMENITY_FLAGS, AMENITY_LABELS } from "../../domain/amenities";
import { displayPhone, formatDate, paragraphsOf, telHref } from "../lib/format";
import { imageRefsFromUrls } from "../../domain/images";
import { AVAILABILITY_LABELS, priceLabel, type SizeOffer } from "../../domain/listings";
import { originFrom, seo } from "../lib/meta";
import { breadcrumbJsonLd, selfStorageJsonLd } from "../lib/structured-data";
import { MAX_LOCATION_SLUG_LENGTH } from "../../domain/input-limits";
import { buildPlaceSlug, parseLocationSlug } from "../../domain/slug";
import { linkableWebsite } from "../../domain/web-address";
import { getLocationByIdPiece, getLocationBySlug, type FacilityRow } from "../../server/locations/repository";
import { amenityFlagsOf } from "../../server/locations/amenities";
import { stateNameFromCode } from "../../server/geo";
import { publicMapConfig } from "../../server/http/public-config";
import { siteOrigin } from "../../server/http/origin";
import { verifiedOwnerBadge } from "../../server/locations/pages";
import { getSearchIndex, NEARBY_SHOWN, nearbyIds } from "../../server/search";
import { buttonClasses } from "../components/ui/button";
import { SuggestEdit, type SuggestEditResult } from "../components/location/suggest-edit";
import { reportListingAction } from "../../server/catalogue/report-action";
import { AskAboutSpace, type AskPrefill, type AskResult } from "../components/location/ask-about-space";
import { coverFromSearch, isCoverWant, lengthFromSearch, type CoverWant } from "../../domain/leads";
import { leadAction, leadFormStamp } from "../../server/leads/action";
import { readForm } from "../../server/http/form";
import { availabilitySummary, isFresh, sizeKey } from "../../domain/availability";
import { takesWaitlist } from "../../domain/waitlist";
import { serverNow } from "../../server/clock";
import { facilityReviewAction, facilityReviews, type FacilityReviews } from "../../server/reviews/pages";
import { ReviewsSection } from "../components/location/reviews-section";
import { listingRating, type ReviewActionResult } from "../../domain/reviews";
import type { LocationRow } from "../../server/db/schema";
import { logger } from "../../server/logger";
import { isDatabaseUnavailable } from "../../server/db/errors";
import { AppError, badRequest, notFound } from "../../server/errors";

const listingRemoved = () => new AppError("gone", 410, "This listing was removed");
const locationUnavailable = (cause: unknown) =>
  new AppError("unavailable", 500, "Failed to load location", undefined, { cause });

/**
 * Facility detail (docs/product.md section 2): the record, its photos, a location map, hours, reviews and
 * nearby storage, with SelfStorage and BreadcrumbList structured data for search engines.
 */

/**
 * Sizes with the owner's price and availability when given (docs/product.md sections 10 and 17),
 * as words: a status older than the freshness limit is shown as not confirmed recently.
 */
function sizesShown(location: { dimensions: { width: number; length: number }[]; sizeOffers: SizeOffer[] }, now: Date) {
  const offers = location.sizeOffers.length
    ? location.sizeOffers
    : location.dimensions.map((d) => ({ ...d, monthlyPrice: null, availability: null }));
  return offers.map((o: SizeOffer) => ({
    key: sizeKey(o),
    /** Full or on a waitlist: the size offers "Join the waitlist" (section 17). */
    waitlist: takesWaitlist(o.availability),
    label: `${o.width}' x ${o.length}'`,
    price: priceLabel(o.monthlyPrice),
    availability: !o.availability
      ? null
      : !isFresh(o, now)
        ? `${AVAILABILITY_LABELS[o.availability]} (not confirmed recently)`
        : o.openSpaces
          ? `${AVAILABILITY_LABELS[o.availability]} · ${o.openSpaces} open`
          : AVAILABILITY_LABELS[o.availability],
  }));
}

/** The line under the sizes: how fresh the availability is, and when prices were confirmed. */
function sizesNote(location: { sizeOffers: SizeOffer[]; pricesConfirmedAt: Date | null }, now: Date): string | null {
  const parts = [availabilitySummary(location.sizeOffers, now)?.text];
  if (location.pricesConfirmedAt) parts.push(`Prices confirmed ${formatDate(location.pricesConfirmedAt)}`);
  const note = parts.filter(Boolean).join(" · ");
  return note || null;
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const slug = params.slug;
  const url = new URL(request.url);
  if (slug.length > MAX_LOCATION_SLUG_LENGTH) throw badRequest("Invalid location URL");
  const parsed = parseLocationSlug(slug);
  if (!parsed.placeIdPiece) throw badRequest("Invalid location URL");
  let location: FacilityRow | undefined;
  try {
    location = (await getLocationBySlug(slug)) ?? (await getLocationByIdPiece(parsed.placeIdPiece));
  } catch (error) {
    // Not seen recently and the database is unreachable: thrown on, the server's wrapper answers
    // the 503 that says so (docs/operations.md, "When the database is unreachable").
    if (isDatabaseUnavailable(error)) throw error;
    // Any other failure with nothing cached is the 500 'Failed to load location' (docs/product.md
    // section 2), logged by the same wrapper with this error as its cause.
    throw locationUnavailable(error);
  }
  // A deleted listing is gone for good (410); a hidden one is simply not here (docs/product.md section 12).
  if (location?.deletedAt) throw listingRemoved();
  if (!location || location.hiddenAt) throw notFound("Location not found");
  if (location.slug !== slug) throw redirect(`/location/${location.slug}`, 301);
  const flags = amenityFlagsOf(location);
  const near =
    location.latitude !== null && location.longitude !== null
      ? nearbyIds({ lat: location.latitude, lng: location.longitude }, location.placeId)
      : [];
  const distance = new Map(near.map((n) => [n.id, n.distanceMiles]));
  // The nearby cards' fields are the index's: no read of their rows.
  const nearby = getSearchIndex()
    .cards(near.map((n) => n.id).slice(0, NEARBY_SHOWN))
    .map((card) => ({
      id: card.id,
      slug: card.slug,
      name: card.name,
      address: card.address,
      rating: card.rating,
      reviewCount: card.reviewCount,
      tier: card.tier,
      isDemo: card.isDemo,
      photo: card.photo,
      distanceMiles: distance.get(card.id) ?? 0,
    }));
  // Read with the row by slug; a listing found by its id piece redirects before this.
  const verifiedOwner = location.verifiedOwner ?? (await verifiedOwnerBadge(location.placeId));
  const reviews = await facilityReviewsOrNone(location, url);
  const now = serverNow();
  const shown = {
    placeId: location.placeId,
    verifiedOwner,
    slug: location.slug,
    name: location.name,
    address: location.address,
    city: location.city,
    state: location.state,
    stateName: location.state ? (stateNameFromCode(location.state) ?? null) : null,
    // Imported and first-party reviews combined (docs/product.md section 16).
    rating: reviews.combined.rating,
    userRatingsTotal: reviews.combined.count,
    tier: location.tier,
    isDemo: location.isDemo,
    description: location.description,
    phone: location.phoneNumber ?? location.internationalPhoneNumber,
    // Only http(s) reaches the link and the JSON-LD, whatever an older row holds (docs/operations.md).
    website: linkableWebsite(location.website),
    latitude: location.latitude,
    longitude: location.longitude,
    googleMapsUri: location.googleMapsUri,
    sizes: sizesShown(location, now),
    sizesNote: sizesNote(location, now),
    coveredClearanceFeet: location.coveredClearanceFeet,
    openingHours: location.openingHours,
    gateHours: location.gateHours,
    photos: location.imageUrls,
    amenities: AMENITY_FLAGS.filter((f) => flags[f]).map((f) => AMENITY_LABELS[f]),
  };
  return {
    location: shown,
    jsonLd: facilityJsonLd(shown, reviews.items, siteOrigin(request)),
    reviews,
    nearby,
    map: publicMapConfig(),
    leadStamp: leadFormStamp(),
    prefill: {
      rvLengthFeet: /^\d{1,2}$/.test(url.searchParams.get("length") ?? "")
        ? url.searchParams.get("length")!
        : undefined,
      cover: isCoverWant(url.searchParams.get("cover")) ? (url.searchParams.get("cover") as CoverWant) : undefined,
    },
  };
}

/**
 * The reviews section's data; when the reviews cannot be read, the page still shows the listing,
 * with the rating from its row and no first-party list.
 */
async function facilityReviewsOrNone(location: LocationRow, url: URL): Promise<FacilityReviews> {
  try {
    return await facilityReviews(location, url);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.warn({ err: error, placeId: location.placeId }, "could not read the listing's reviews");
    return {
      combined: listingRating(location),
      distribution: [0, 0, 0, 0, 0],
      summary: null,
      bars: [],
      sorts: [],
      page: 1,
      pages: 1,
      newerHref: null,
      nextHref: null,
      items: [],
      imported: location.reviews.slice(0, 3),
      notice: null,
    };
  }
}

/** The page's forms: "Suggest an edit", "Ask about a space", and a review's "Helpful" and "Report". */
export async function action({ request, params }: Route.ActionArgs) {
  if (params.slug.length > MAX_LOCATION_SLUG_LENGTH) throw badRequest("Invalid location URL");
  const location = await getLocationBySlug(params.slug).catch(() => undefined);
  // As the page answers: a deleted listing is gone (410), a hidden one is not here (404).
  if (location?.deletedAt) throw listingRemoved();
  if (!location || location.hiddenAt) throw notFound("Location not found");
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "lead") return leadAction(request, form, location.placeId);
  if (intent === "helpful" || intent === "report-review") return facilityReviewAction(request, form, location.placeId);
  return reportListingAction(request, location.placeId, form);
}

export function meta({ data: loaderData, matches, location }: Route.MetaArgs) {
  const l = loaderData?.location;
  if (!l) return [{ title: "Location not found" }, { name: "robots", content: "noindex" }];
  return [
    ...seo({
      title: `${l.name}${l.city ? ` in ${l.city}, ${l.state}` : ""}`,
      description: l.description ?? `RV storage at ${l.address}.`,
      origin: originFrom(matches),
      path: location.pathname,
      image: l.photos[0],
      type: "business.business",
    }),
    // Built by the loader: the JSON-LD builders stay on the server, out of the page's script.
    ...loaderData.jsonLd.map((data) => ({ "script:ld+json": data })),
  ];
}

/** The facility's JSON-LD (docs/product.md section 16: rating and reviews), and its breadcrumbs. */
function facilityJsonLd(
  l: {
    slug: string;
    name: string;
    address: string | null;
    city: string | null;
    state: string | null;
    stateName: string | null;
    latitude: number | null;
    longitude: number | null;
    phone: string | null;
    website: string | null;
    rating: number | null;
    userRatingsTotal: number;
    openingHours: LocationRow["openingHours"];
    photos: string[];
    description: string | null;
  },
  reviews: FacilityReviews["items"],
  origin: string,
) {
  const url = new URL(`/location/${l.slug}`, origin).toString();
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
    selfStorageJsonLd({
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
      images: l.photos.map((p) => new URL(p, origin).toString()),
      description: l.description,
      reviews,
    }),
    breadcrumbJsonLd(crumbs),
  ];
}

export default function LocationPage({ loaderData, actionData }: Route.ComponentProps) {
  const l = loaderData.location;
  const { state: routerState } = useLocation();
  const navigate = useNavigate();
  // Back returns to the results page the visitor came from, else the generic results page.
  const from = (routerState as { from?: string } | null)?.from;
  const cameFromResults = from?.startsWith("/rv-storage") === true;
  const back = cameFromResults ? from! : "/rv-storage";
  // A result card opened this page (its link sets `from`): the entry before this one is those
  // results, so going back in history returns to them at the same scroll position instead of
  // opening them anew at the top with another history entry.
  const goBack = (event: MouseEvent) => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (!cameFromResults || idx < 1 || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    void navigate(-1);
  };
  const phone = displayPhone(l.phone);
  const point = l.latitude !== null && l.longitude !== null ? { lat: l.latitude, lng: l.longitude } : null;
  const photos = imageRefsFromUrls(l.photos);
  return (
    <article className="mx-auto max-w-6xl px-4 pb-28 pt-6 md:pb-12">
      <Link
        to={back}
        onClick={goBack}
        className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" /> Back
      </Link>
      <div className="mt-4 flex flex-wrap gap-2">
        <PreferredPartnerBadge tier={l.tier} />
        <VerifiedOwnerBadge verified={l.verifiedOwner} />
        <DemoBadge isDemo={l.isDemo} />
      </div>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">{l.name}</h1>
      {l.address && <p className="mt-1 text-slate-600">{l.address}</p>}
      <div className="mt-2">
        <Rating rating={l.rating} count={l.userRatingsTotal} />
      </div>
      <OpenStatusLine lines={l.openingHours} state={l.state} />
      <div className="mt-3 flex flex-wrap gap-2">
        <SaveButton slug={l.slug} name={l.name} withText className="relative w-fit" />
        <ShareButton title={l.name} />
      </div>

      <div className="mt-6 grid gap-8 md:grid-cols-3">
        <div className="min-w-0 space-y-8 md:col-span-2">
          <PhotoGallery photos={photos} name={l.name} />
          {l.description && (
            <div className="space-y-3 text-slate-700">
              {paragraphsOf(l.description).map((paragraph, i) => (
                <p key={i} className="whitespace-pre-line">
                  {paragraph}
                </p>
              ))}
            </div>
          )}
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
          <section id="sizes" className="scroll-mt-24">
            <h2 className="text-xl font-semibold">Sizes</h2>
            {l.sizes.length ? (
              <>
                <ul className="mt-3 flex flex-wrap gap-2">
                  {l.sizes.map((size) => (
                    <li key={size.key} className="rounded-md border border-slate-200 px-3 py-1 text-sm">
                      {size.label}
                      {size.price && <span className="font-medium"> · {size.price}</span>}
                      {size.availability && <span className="text-slate-600"> · {size.availability}</span>}
                      {size.waitlist && (
                        <>
                          {" · "}
                          <Link
                            to={`/location/${l.slug}/waitlist?size=${size.key}`}
                            className="font-medium text-brand-700 underline"
                          >
                            Join the waitlist<span className="sr-only"> for {size.label}</span>
                          </Link>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
                {l.sizesNote && <p className="mt-2 text-sm text-slate-600">{l.sizesNote}</p>}
                {l.coveredClearanceFeet !== null && (
                  <p className="mt-1 text-sm text-slate-600">Covered spaces: {l.coveredClearanceFeet} ft clearance</p>
                )}
              </>
            ) : (
              <p className="mt-2 text-slate-600">
                Sorry! We don't have this information. Check their website or call {phone ?? "the facility"} for more
                info.
              </p>
            )}
          </section>
          {l.latitude !== null && l.longitude !== null && (
            <section aria-labelledby="location-heading">
              <h2 id="location-heading" className="text-xl font-semibold">
                Location
              </h2>
              {l.address && <p className="mt-1 text-slate-600">{l.address}</p>}
              <LocationMap
                id={l.placeId}
                name={l.name}
                lat={l.latitude}
                lng={l.longitude}
                googleMapsUri={l.googleMapsUri}
                tileUrl={loaderData.map.tileUrl}
                attribution={loaderData.map.attribution}
                className="mt-3 h-64 w-full sm:h-80"
              />
            </section>
          )}
          <BusinessHours lines={l.openingHours} gateLines={l.gateHours} state={l.state} />
          <ReviewsSection
            slug={l.slug}
            data={loaderData.reviews}
            result={
              actionData && typeof actionData === "object" && "review" in actionData
                ? (actionData as ReviewActionResult)
                : undefined
            }
          />
        </div>
        <aside className="h-fit space-y-3 rounded-card border border-slate-200 p-4 md:sticky md:top-20">
          {point && <SideCardDirections point={point} name={l.name} />}
          {phone && (
            <PhoneLink phone={phone} className="flex items-center gap-2 text-brand-700 hover:underline">
              {phone}
            </PhoneLink>
          )}
          {l.website && (
            <a
              href={l.website}
              data-analytics-click="website"
              rel="nofollow noopener"
              target="_blank"
              className="flex items-center gap-2 text-brand-700 hover:underline"
            >
              <Globe className="size-4" aria-hidden="true" /> Website
            </a>
          )}
          {!phone && !l.website && <p className="text-slate-600">Contact information not available</p>}
          <Link to={`/owner/claim/${l.placeId}`} className="block pt-2 text-sm text-slate-700 underline">
            Claim This Business
          </Link>
          <a href="#ask" className="block pt-2 text-sm font-medium text-brand-700 underline">
            Ask about a space
          </a>
          <SuggestEdit result={actionData as SuggestEditResult | undefined} />
        </aside>
      </div>

      <div className="mt-8 max-w-3xl">
        <QuestionForm
          facility={l.name}
          stamp={loaderData.leadStamp}
          result={
            actionData && typeof actionData === "object" && "lead" in actionData ? (actionData as AskResult) : undefined
          }
          from={cameFromResults ? from : undefined}
          prefill={loaderData.prefill}
          reservable={l.verifiedOwner}
        />
      </div>

      <Nearby items={loaderData.nearby} />

      {/* Phones: the side card becomes a bar with the two things people do here. */}
      {(phone || point) && (
        <div className="fixed inset-x-0 bottom-0 z-20 flex gap-2 border-t border-slate-200 bg-white p-3 md:hidden">
          {phone && (
            <PhoneLink
              phone={phone}
              className={buttonClasses(
                "secondary",
                "md",
                "flex flex-1 px-0 border-brand-500 text-brand-700 shadow-none",
              )}
            >
              Call
            </PhoneLink>
          )}
          {point && <BarDirections point={point} name={l.name} />}
        </div>
      )}
    </article>
  );
}

/*
 * What the browser alone knows (router state, the device) is read in these small components, not
 * in the page's: a value that differs from the server's makes React render its component again
 * right after hydration, in one task, and the whole page took ~30 ms of a phone's main thread.
 */

/**
 * The question form. Opened from filtered results (a card's link carries them in `from`), it
 * starts with the RV length and the kind of space the filters asked for. Router state exists
 * only in the browser, so it is read after hydration, never in the server's HTML.
 */
function QuestionForm({
  from,
  prefill: fromServer,
  ...props
}: Omit<Parameters<typeof AskAboutSpace>[0], "prefill"> & { from: string | undefined; prefill: AskPrefill }) {
  const hydrated = useHydrated();
  const fromSearch = hydrated && from?.includes("?") ? from.slice(from.indexOf("?")) : "";
  const fromLength = lengthFromSearch(fromSearch);
  const prefill: AskPrefill = {
    rvLengthFeet: fromServer.rvLengthFeet ?? (fromLength === null ? undefined : String(fromLength)),
    cover: fromServer.cover ?? coverFromSearch(fromSearch) ?? undefined,
  };
  return <AskAboutSpace {...props} prefill={prefill} />;
}

type Point = { lat: number; lng: number };

/** Directions in the device's own maps app: Apple Maps on Apple devices, Google Maps elsewhere. */
function useDirections(point: Point, name: string) {
  const apple = useAppleDevice();
  const google = googleDirectionsUrl(point);
  return {
    apple,
    google,
    href: apple ? appleDirectionsUrl(point, name) : google,
    app: apple ? "Apple Maps" : "Google Maps",
  };
}

/** The side card's directions: Apple devices get Apple Maps first and Google Maps beside it. */
function SideCardDirections({ point, name }: { point: Point; name: string }) {
  const { apple, google, href, app } = useDirections(point, name);
  return (
    <>
      <DirectionsLink
        href={href}
        app={app}
        // Beside 'Directions in Google Maps', the first link says which app it opens.
        label={apple ? "Directions in Apple Maps" : "Directions"}
        className={buttonClasses("primary", "md", "flex justify-start")}
      />
      {apple && (
        <a
          href={google}
          data-analytics-click="directions"
          target="_blank"
          rel="noopener"
          className="flex items-center gap-2 text-brand-700 hover:underline"
        >
          <Navigation className="size-4" aria-hidden="true" /> Directions in Google Maps
        </a>
      )}
    </>
  );
}

/** The phone bar's directions, in the device's own maps app. */
function BarDirections({ point, name }: { point: Point; name: string }) {
  const { href, app } = useDirections(point, name);
  return <DirectionsLink href={href} app={app} className={buttonClasses("primary", "md", "flex flex-1 px-0")} />;
}

type NearbyItem = Route.ComponentProps["loaderData"]["nearby"][number];

function Nearby({ items }: { items: NearbyItem[] }) {
  return (
    <section aria-labelledby="nearby-heading" className="mt-12">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="nearby-heading" className="text-xl font-semibold">
          Nearby storage
        </h2>
        <Link to="/rv-storage" className={buttonClasses("primary", "md", "py-2")}>
          Search For RV Storage Near You
        </Link>
      </div>
      {items.length === 0 ? (
        <div className="mt-4 rounded-card border border-dashed border-slate-300 p-6 text-center">
          <p className="font-medium">No nearby locations found</p>
          <p className="mt-1 text-slate-600">Try expanding your search radius or check back later for new locations.</p>
        </div>
      ) : (
        <div className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {items.map((item) => (
            <LocationCard key={item.id} location={cardDataFrom(item)} />
          ))}
        </div>
      )}
    </section>
  );
}

/** Directions in a maps app, counted as a directions click (side card and phone bar alike). */
function DirectionsLink({
  href,
  app,
  label = "Directions",
  className,
}: {
  href: string;
  app: string;
  label?: string;
  className: string;
}) {
  return (
    <a
      href={href}
      data-analytics-click="directions"
      target="_blank"
      rel="noopener"
      title={`Directions in ${app}`}
      className={className}
    >
      <Navigation className="size-4" aria-hidden="true" /> {label}
    </a>
  );
}

/** A tel: link, counted as a phone click. */
function PhoneLink({ phone, className, children }: { phone: string; className: string; children: ReactNode }) {
  return (
    <a href={telHref(phone)} data-analytics-click="phone" className={className}>
      <Phone className="size-4" aria-hidden="true" /> {children}
    </a>
  );
}
