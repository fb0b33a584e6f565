import { MapPin } from "lucide-react";
import { Link } from "react-router";
import { isPreferredPartner, type Tier } from "../../lib/tiers";
import { Rating } from "./rating";
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
}

export function LocationCard({ location, eager = false }: { location: LocationCardData; eager?: boolean }) {
  const highlighted = isPreferredPartner(location.tier);
  return (
    <article
      className={`group relative flex flex-col overflow-hidden rounded-card border bg-white transition-shadow hover:shadow-md ${
        highlighted ? "border-amber-400 ring-1 ring-amber-300" : "border-slate-200"
      }`}
    >
      <div className="aspect-[4/3] bg-slate-100">
        {location.photo ? (
          <img
            src={location.photo}
            alt=""
            width={640}
            height={480}
            loading={eager ? "eager" : "lazy"}
            decoding="async"
            className="h-full w-full object-cover"
          />
        ) : (
          <div className="flex h-full items-center justify-center text-sm text-slate-600">No photos available</div>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap gap-2">
          <PreferredPartnerBadge tier={location.tier} />
          <DemoBadge isDemo={location.isDemo} />
        </div>
        <h3 className="text-lg font-semibold leading-snug">
          <Link
            to={`/location/${location.slug}`}
            className="after:absolute after:inset-0 hover:text-brand-700 focus:outline-none"
          >
            {location.name}
          </Link>
        </h3>
        {location.address && (
          <p className="flex items-start gap-1 text-sm text-slate-600">
            <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {location.address}
          </p>
        )}
        <Rating rating={location.rating} count={location.userRatingsTotal} />
      </div>
    </article>
  );
}
