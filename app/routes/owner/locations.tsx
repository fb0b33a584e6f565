import Building2 from "lucide-react/icons/building-complex";
import { Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { Badge } from "../../components/ui/badge";
import { buttonClasses } from "../../components/ui/button";
import { EmptyState } from "../../components/ui/empty-state";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { myListingsPage } from "../../../server/listings/pages";
import type { Route } from "./+types/locations";
import { formatNumber } from "../../lib/format";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("My listings", args);
}

export const handle: ConsoleHandle = { breadcrumb: "My listings" };

export async function loader({ context }: Route.LoaderArgs) {
  return myListingsPage(context.get(viewerContext));
}

/** Thirty days of page views as a line, drawn on the server: no chart library for 30 points. */
function Sparkline({ values, label }: { values: number[]; label: string }) {
  const max = Math.max(1, ...values);
  const width = 120;
  const height = 28;
  const step = width / Math.max(1, values.length - 1);
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`);
  const total = values.reduce((a, b) => a + b, 0);
  return (
    <span className="inline-flex items-center gap-2">
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <polyline
          points={points.join(" ")}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          className="text-brand-500"
        />
      </svg>
      <span className="text-sm text-slate-600 tabular-nums">{formatNumber(total)} views</span>
    </span>
  );
}

export default function MyListings({ loaderData }: Route.ComponentProps) {
  const { listings } = loaderData;
  return (
    <>
      <PageHeader title="My listings" description="The facilities you manage. Keep them right so RV owners call." />
      {listings.length === 0 ? (
        <EmptyState
          className="mt-6"
          icon={<Building2 />}
          title="You do not manage a listing yet"
          text="Claim your facility's listing to update its hours, sizes and prices."
          action={
            <Link to="/owner/claim" className={buttonClasses("primary")}>
              Claim your listing
            </Link>
          }
        />
      ) : (
        <ul className="mt-6 space-y-3">
          {listings.map((listing) => (
            <li
              key={listing.placeId}
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4"
            >
              <div className="min-w-0">
                <Link to={`/location/${listing.slug}`} className="font-medium text-brand-700 hover:underline">
                  {listing.name}
                </Link>
                <p className="text-sm text-slate-600">
                  {[listing.city, listing.state].filter(Boolean).join(", ") || "No city"} · {listing.tier} listing
                </p>
                {listing.hidden && (
                  <Badge tone="neutral" className="mt-1 mr-1">
                    Hidden from visitors by an administrator
                  </Badge>
                )}
                {listing.hasPendingChange && (
                  <Badge tone="warning" className="mt-1">
                    Changes pending review
                  </Badge>
                )}
              </div>
              <Sparkline values={listing.views} label={`Page views of ${listing.name} over the last 30 days`} />
              <div className="flex flex-wrap gap-2">
                <Link
                  to={`/owner/locations/${encodeURIComponent(listing.placeId)}/availability`}
                  className={buttonClasses("secondary", "sm")}
                >
                  Availability<span className="sr-only"> of {listing.name}</span>
                </Link>
                <Link
                  to={`/owner/locations/${encodeURIComponent(listing.placeId)}/update`}
                  className={buttonClasses("secondary", "sm")}
                >
                  Update<span className="sr-only"> {listing.name}</span>
                </Link>
                <Link
                  to={`/owner/locations/${encodeURIComponent(listing.placeId)}/photos`}
                  className={buttonClasses("ghost", "sm")}
                >
                  Photos<span className="sr-only"> of {listing.name}</span>
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
