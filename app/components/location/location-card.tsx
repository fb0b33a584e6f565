import { lengthFromSearch } from "../../lib/leads";
import { MapPin } from "lucide-react";
import { Link, useLocation } from "react-router";
import { imageRefFromUrl } from "../../lib/images";
import { MAX_CARD_AMENITIES } from "../../lib/search";
import { isPreferredPartner, type Tier } from "../../lib/tiers";
import { Rating } from "./rating";
import { SaveButton } from "./save-button";
import { ResponsivePhoto } from "./responsive-photo";
import { DemoBadge, PreferredPartnerBadge } from "./tier-badge";

export interface LocationCardData {
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
  };
}

export function LocationCard({
  location,
  eager = false,
  headingLevel = 3,
}: {
  location: LocationCardData;
  eager?: boolean;
  /** The card title's level under the page's own headings (results: 2, sections: 3). */
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const highlighted = isPreferredPartner(location.tier);
  // The detail page's Back button returns to the results page the card was opened from.
  const { pathname, search } = useLocation();
  return (
    <article
      data-tier={location.tier}
      className={`group relative flex flex-col overflow-hidden rounded-card border bg-white transition-shadow hover:shadow-md ${
        highlighted ? "border-amber-400 ring-1 ring-amber-300" : "border-slate-200"
      }`}
    >
      <div className="aspect-[4/3] bg-slate-100">
        <CardPhoto photo={location.photo} eager={eager} />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap gap-2">
          <PreferredPartnerBadge tier={location.tier} />
          <DemoBadge isDemo={location.isDemo} />
        </div>
        <Heading className="text-lg font-semibold leading-snug">
          <Link
            to={`/location/${location.slug}`}
            state={{ from: pathname + search }}
            className="after:absolute after:inset-0 hover:text-brand-700 focus:outline-none"
          >
            {location.name}
          </Link>
        </Heading>
        <SaveButton slug={location.slug} name={location.name} className="absolute right-2 top-2 z-10" />
        {location.address && (
          <p className="flex items-start gap-1 text-sm text-slate-600">
            <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {location.address}
          </p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Rating rating={location.rating} count={location.userRatingsTotal} />
          {location.distanceMiles !== undefined && (
            <span className="text-sm font-medium text-slate-700">{location.distanceMiles.toFixed(1)} mi</span>
          )}
        </div>
        {location.amenities && location.amenities.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Amenities">
            {location.amenities.slice(0, MAX_CARD_AMENITIES).map((label) => (
              <li key={label} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                {label}
              </li>
            ))}
          </ul>
        )}
        {/* Above the card's stretched link: a question straight to the facility (docs/product.md section 14). */}
        <Link
          to={`/location/${location.slug}${askQuery(search)}#ask`}
          state={{ from: pathname + search }}
          className="relative z-10 mt-auto self-start text-sm font-medium text-brand-700 underline hover:text-brand-600"
        >
          Ask about a space<span className="sr-only"> at {location.name}</span>
        </Link>
      </div>
    </article>
  );
}

/** `?length=N` when the results are filtered by size, so the question starts with it. */
function askQuery(search: string): string {
  const length = lengthFromSearch(search);
  return length === null ? "" : `?length=${length}`;
}

const CARD_SIZES = "(min-width: 1280px) 22vw, (min-width: 768px) 30vw, (min-width: 640px) 50vw, 100vw";

/** The first photo: a processed place image when we store it, else the stored URL as is. */
function CardPhoto({ photo, eager }: { photo: string | null; eager: boolean }) {
  const ref = photo ? imageRefFromUrl(photo) : undefined;
  if (ref) {
    return (
      <ResponsivePhoto
        placeId={ref.placeId}
        index={ref.index}
        alt=""
        width={640}
        height={480}
        sizes={CARD_SIZES}
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
