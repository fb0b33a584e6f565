import { askQueryFromSearch } from "../../../domain/leads";
import MapPin from "lucide-react/icons/map-pin";
import { Link, useLocation } from "react-router";
import type { AvailabilitySummary } from "../../../domain/availability";
import { imageRefFromUrl } from "../../../domain/images";
import { MAX_CARD_AMENITIES } from "../../../domain/search";
import { isPreferredPartner, type Tier } from "../../../domain/tiers";
import type { MyRv } from "../../../domain/rv-fit";
import { CardFit, type CardFitData } from "./card-fit";
import { Rating } from "./rating";
import { SaveButton } from "./save-button";
import { ResponsivePhoto } from "./responsive-photo";
import { DemoBadge, PreferredPartnerBadge, SponsoredBadge } from "./tier-badge";

export interface LocationCardData extends CardFitData {
  slug: string;
  name: string;
  address: string | null;
  rating: number | null;
  userRatingsTotal: number;
  tier: Tier;
  isDemo: boolean;
  photo: string | null;
  /** Miles from the searched place, already rounded to one decimal. */
  distanceMiles?: number;
  /** Amenity labels; the card shows up to MAX_CARD_AMENITIES of them. */
  amenities?: readonly string[];
  /** The owner's availability line (docs/product.md section 17), when stated. */
  availability?: AvailabilitySummary | null;
}

/** A search result (or anything shaped like one) as card data. */
export function cardDataFrom(item: {
  slug: string;
  name: string;
  address: string | null;
  rating: number | null;
  reviewCount: number;
  tier: Tier;
  isDemo: boolean;
  photo: string | null;
  distanceMiles?: number;
  amenityLabels?: readonly string[];
  /** Price and fit (card-fit.tsx): the flags tell whether it has covered or enclosed space. */
  amenities?: readonly string[];
  sizes?: readonly string[];
  minMonthlyPrice?: number | null;
  clearanceFeet?: number | null;
  availability?: AvailabilitySummary | null;
}): LocationCardData {
  return {
    slug: item.slug,
    name: item.name,
    address: item.address,
    rating: item.rating,
    userRatingsTotal: item.reviewCount,
    tier: item.tier,
    isDemo: item.isDemo,
    photo: item.photo,
    ...(item.distanceMiles !== undefined ? { distanceMiles: item.distanceMiles } : {}),
    ...(item.amenityLabels ? { amenities: item.amenityLabels } : {}),
    ...(item.availability ? { availability: item.availability } : {}),
    ...cardFitFrom(item),
  };
}

function cardFitFrom(item: {
  amenities?: readonly string[];
  sizes?: readonly string[];
  minMonthlyPrice?: number | null;
  clearanceFeet?: number | null;
}): CardFitData {
  return {
    ...(item.sizes ? { sizes: item.sizes } : {}),
    ...(item.minMonthlyPrice !== undefined ? { priceFrom: item.minMonthlyPrice } : {}),
    ...(item.clearanceFeet !== undefined ? { clearanceFeet: item.clearanceFeet } : {}),
    ...(item.amenities
      ? {
          coveredSpace: item.amenities.includes("has_covered_parking") || item.amenities.includes("has_enclosed_units"),
        }
      : {}),
  };
}

/** On a phone, a compact (list) card shows this many amenity chips, then '+N more'. */
const PHONE_CARD_AMENITIES = 2;

export function LocationCard({
  location,
  eager = false,
  headingLevel = 3,
  rv,
  layout = "grid",
  placedByTier = false,
}: {
  location: LocationCardData;
  eager?: boolean;
  /** The visitor's RV (My RV): the card then says which of its spaces fit. */
  rv?: MyRv | undefined;
  /** The card title's level under the page's own headings (results: 2, sections: 3). */
  headingLevel?: 2 | 3;
  /**
   * "list": a result list's card, photo left and text right on phones, so that two or more
   * results fit on a phone's screen; from 640 px wide the same as "grid" (photo on top).
   */
  layout?: "grid" | "list";
  /** The sort put this card first for its paid tier: it says 'Sponsored' (docs/product.md section 9). */
  placedByTier?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const highlighted = isPreferredPartner(location.tier);
  const list = layout === "list";
  // The detail page's Back button returns to the results page the card was opened from.
  const { pathname, search } = useLocation();
  const amenities = location.amenities ?? [];
  const hasBadges = isPreferredPartner(location.tier) || placedByTier || location.isDemo;
  return (
    <article
      data-tier={location.tier}
      className={`group relative flex overflow-hidden rounded-card border bg-white transition-shadow hover:shadow-md ${
        list ? "flex-row sm:flex-col" : "flex-col"
      } ${highlighted ? "border-amber-400 ring-1 ring-amber-300" : "border-slate-200"}`}
    >
      <div className={list ? "w-28 shrink-0 bg-slate-100 sm:aspect-[4/3] sm:w-auto" : "aspect-[4/3] bg-slate-100"}>
        <CardPhoto photo={location.photo} eager={eager} sizes={list ? LIST_CARD_SIZES : CARD_SIZES} />
      </div>
      <div className={`flex min-w-0 flex-1 flex-col ${list ? "gap-1.5 p-3 sm:gap-2 sm:p-4" : "gap-2 p-4"}`}>
        {hasBadges && (
          <div className="flex flex-wrap gap-1.5 sm:gap-2">
            <PreferredPartnerBadge tier={location.tier} />
            {placedByTier && <SponsoredBadge />}
            <DemoBadge isDemo={location.isDemo} />
          </div>
        )}
        <Heading className={`font-semibold leading-snug ${list ? "text-base sm:text-lg" : "text-lg"}`}>
          <Link
            to={`/location/${location.slug}`}
            state={{ from: pathname + search }}
            data-card-link=""
            // The stretched ::after makes the whole card the link; keyboard focus outlines the
            // title and rings the whole card (never without a visible indicator).
            className="rounded-sm after:absolute after:inset-0 after:rounded-card hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 focus-visible:after:ring-2 focus-visible:after:ring-inset focus-visible:after:ring-brand-500"
          >
            {location.name}
          </Link>
        </Heading>
        <SaveButton slug={location.slug} name={location.name} className="absolute right-2 top-2 z-10" />
        {location.address && (
          <p className="flex items-start gap-1 text-sm text-slate-600">
            <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span className={list ? "max-sm:line-clamp-1" : undefined}>{location.address}</span>
          </p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
          <Rating rating={location.rating} count={location.userRatingsTotal} />
          {location.distanceMiles !== undefined && (
            <span className="text-sm font-medium text-slate-700">{location.distanceMiles.toFixed(1)} mi</span>
          )}
        </div>
        {location.availability && (
          <p className={`text-sm font-medium ${AVAILABILITY_TONE[location.availability.tone]}`}>
            {location.availability.text}
          </p>
        )}
        <CardFit location={location} rv={rv} list={list} />
        {amenities.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Amenities">
            {amenities.slice(0, MAX_CARD_AMENITIES).map((label, i) => (
              <li key={label} className={`${CHIP} ${list && i >= PHONE_CARD_AMENITIES ? "max-sm:hidden" : ""}`}>
                {label}
              </li>
            ))}
            {list && amenities.length > PHONE_CARD_AMENITIES && (
              <MoreChip count={amenities.length - PHONE_CARD_AMENITIES} className="sm:hidden" />
            )}
            {amenities.length > MAX_CARD_AMENITIES && (
              <MoreChip count={amenities.length - MAX_CARD_AMENITIES} className={list ? "max-sm:hidden" : ""} />
            )}
          </ul>
        )}
        {/* Above the card's stretched link: a question straight to the facility (docs/product.md section 14). */}
        <Link
          // `?length=&cover=` from the size, My RV and covered filters, so the question starts with them.
          to={`/location/${location.slug}${askQueryFromSearch(search)}#ask`}
          state={{ from: pathname + search }}
          className="relative z-10 mt-auto self-start text-sm font-medium text-brand-700 underline hover:text-brand-600"
        >
          Ask about a space<span className="sr-only"> at {location.name}</span>
        </Link>
      </div>
    </article>
  );
}

const AVAILABILITY_TONE: Record<AvailabilitySummary["tone"], string> = {
  open: "text-emerald-700",
  full: "text-amber-800",
  stale: "text-slate-500",
};

const CHIP = "rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700";

/** '+N more': the card shows only some of the listing's amenities; the facility page has them all. */
function MoreChip({ count, className }: { count: number; className: string }) {
  return (
    <li className={`${CHIP} font-medium ${className}`}>
      +{count} more<span className="sr-only"> {count === 1 ? "amenity" : "amenities"}</span>
    </li>
  );
}

const CARD_SIZES = "(min-width: 1280px) 22vw, (min-width: 768px) 30vw, (min-width: 640px) 50vw, 100vw";
/** A list card's photo is 7rem wide on phones. */
const LIST_CARD_SIZES = "(min-width: 1280px) 22vw, (min-width: 768px) 30vw, (min-width: 640px) 50vw, 7rem";

/** The first photo: a processed place image when we store it, else the stored URL as is. */
function CardPhoto({ photo, eager, sizes }: { photo: string | null; eager: boolean; sizes: string }) {
  const ref = photo ? imageRefFromUrl(photo) : undefined;
  if (ref) {
    return (
      <ResponsivePhoto
        placeId={ref.placeId}
        index={ref.index}
        alt=""
        width={640}
        height={480}
        sizes={sizes}
        priority={eager}
        className="h-full"
      />
    );
  }
  if (photo) {
    return (
      <img
        src={photo}
        alt=""
        width={640}
        height={480}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className="h-full w-full object-cover"
      />
    );
  }
  return <div className="flex h-full items-center justify-center text-sm text-slate-600">No photos available</div>;
}
