import Check from "lucide-react/icons/check";
import Link2 from "lucide-react/icons/link-2";
import LocateFixed from "lucide-react/icons/locate-fixed";
import X from "lucide-react/icons/x";
import { useState, useSyncExternalStore } from "react";
import { Link, data, redirect, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/compare";
import { Rating } from "../components/location/rating";
import { SaveButton } from "../components/location/save-button";
import { DemoBadge } from "../components/location/tier-badge";
import { EmptyState } from "../components/ui/empty-state";
import { buttonClasses } from "../components/ui/button";
import { getCurrentLocation } from "../lib/geolocation";
import { priceLabel } from "../lib/listings";
import { privatePageMeta } from "../lib/meta";
import { MY_RV_STORAGE_KEY, clearsHeight, parseMyRv, sizesThatFit, type MyRv } from "../lib/rv-fit";
import { COMPARE_MAX, COMPARE_MIN, compareHref } from "../lib/saved";
import { loadCompare, parseCompareQuery, type CompareFacility } from "../../server/saved/compare";

/**
 * /compare?ids=a,b,c (docs/product.md section 15): 2 to 4 facilities side by side, from the URL
 * alone, so the link can be shared and opened signed out. `lat`/`lng` add distances, `rvLength`
 * and `rvHeight` (or the RV the browser remembers) mark the spaces that fit.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = parseCompareQuery(url.searchParams);
  if (!query.ok) return data({ problem: query.message, unknown: [] as string[], compare: null }, { status: 400 });
  // A form without JavaScript sends ids=a&ids=b: answer with the one address people share.
  if (!query.canonical) throw redirect(compareHref(query.ids, url.searchParams));
  const { facilities, unknown } = await loadCompare(query.ids, query.point);
  if (facilities.length < COMPARE_MIN) {
    return data(
      {
        problem: `There is not enough left to compare: ${COMPARE_MIN} facilities are needed.`,
        unknown,
        compare: null,
      },
      { status: 404 },
    );
  }
  return {
    problem: null,
    unknown,
    compare: { facilities, hasPoint: query.point !== null, rv: query.rv, ids: facilities.map((f) => f.placeId) },
  };
}

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Compare facilities", args);
}

export default function ComparePage({ loaderData }: Route.ComponentProps) {
  const { problem, unknown, compare } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Compare facilities</h1>
      {unknown.length > 0 && (
        <p role="alert" className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Not found, or no longer listed: {unknown.join(", ")}.
        </p>
      )}
      {problem || !compare ? (
        <EmptyState
          className="mt-6"
          title={problem ?? "Nothing to compare"}
          text={`Save facilities with the heart on their cards, then pick ${COMPARE_MIN} to ${COMPARE_MAX} of them on your Saved page.`}
          action={
            <Link to="/saved" className={buttonClasses("primary", "md")}>
              Open Saved
            </Link>
          }
        />
      ) : (
        <CompareTable {...compare} />
      )}
    </div>
  );
}

const noSubscription = () => () => {};
const storedRvText = () => {
  try {
    return window.localStorage.getItem(MY_RV_STORAGE_KEY);
  } catch {
    return null; // storage blocked: no remembered RV
  }
};
const noStoredRv = () => null;

/** The RV the browser remembers (rv-fit.ts), checked like a URL's; undefined when none or not valid. */
function rememberedRv(text: string | null): MyRv | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as { lengthFeet?: unknown; heightFeet?: unknown };
    const params = new URLSearchParams();
    if (typeof value.lengthFeet === "number") params.set("rvLength", String(value.lengthFeet));
    if (typeof value.heightFeet === "number") params.set("rvHeight", String(value.heightFeet));
    const parsed = parseMyRv(params);
    return parsed.ok ? parsed.rv : undefined;
  } catch {
    return undefined;
  }
}

function CompareTable({
  facilities,
  hasPoint,
  rv: urlRv,
  ids,
}: {
  facilities: CompareFacility[];
  hasPoint: boolean;
  rv: MyRv | null;
  ids: string[];
}) {
  // The URL's RV wins; else the one this browser remembers (known only after hydration).
  const stored = useSyncExternalStore(noSubscription, storedRvText, noStoredRv);
  const rv = urlRv ?? rememberedRv(stored);
  const { search } = useLocation();
  const navigate = useNavigate();
  const [copied, setCopied] = useState("");
  const [locating, setLocating] = useState(false);
  // Distances need a place: the visitor's own, asked for only when they press the button.
  const fromHere = async () => {
    setLocating(true);
    const here = await getCurrentLocation();
    setLocating(false);
    if (!here.ok) return setCopied(here.silent ? "" : here.message);
    const params = new URLSearchParams(search);
    params.set("lat", here.lat.toFixed(4));
    params.set("lng", here.lng.toFixed(4));
    void navigate(`/compare?${params.toString().replace(/%2C/g, ",")}`, { replace: true });
  };
  const copy = () => {
    const manual = "Copy the address from the address bar to share it.";
    if (!navigator.clipboard) return setCopied(manual);
    navigator.clipboard.writeText(window.location.href).then(
      () => setCopied("Link copied."),
      () => setCopied(manual),
    );
  };
  const cell = "border-b border-slate-200 px-3 py-3 align-top text-sm";
  const head =
    "border-b border-slate-300 px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
  return (
    <>
      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-700">
        <p>
          {rv
            ? `Spaces that fit your ${rv.lengthFeet} ft RV${rv.heightFeet ? ` (${rv.heightFeet} ft tall)` : ""} are marked.`
            : "Set My RV on the search results to see which spaces fit."}
        </p>
        {!hasPoint && (
          <button
            type="button"
            onClick={() => void fromHere()}
            disabled={locating}
            className={buttonClasses("secondary", "sm", "min-h-11 sm:min-h-0")}
          >
            <LocateFixed className="size-4" aria-hidden="true" /> Distances from my location
          </button>
        )}
        <button type="button" onClick={copy} className={buttonClasses("secondary", "sm", "min-h-11 sm:min-h-0")}>
          <Link2 className="size-4" aria-hidden="true" /> Copy link
        </button>
        <span role="status" className="text-sm text-slate-600">
          {copied}
        </span>
      </div>
      {/* Phones: the table scrolls sideways; the facility names stay in view. */}
      <div
        className="mt-4 overflow-x-auto rounded-card border border-slate-200"
        tabIndex={0}
        role="region"
        aria-label="Comparison table"
      >
        <table className="w-full border-separate border-spacing-0">
          <caption className="sr-only">
            {facilities.length} facilities compared: distance, sizes, prices, amenities, hours and rating
          </caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={`${head} sticky left-0 z-10 min-w-40 bg-slate-50 sm:min-w-56`}>
                Facility
              </th>
              {hasPoint && (
                <th scope="col" className={head}>
                  Distance
                </th>
              )}
              <th scope="col" className={`${head} min-w-44`}>
                Sizes
              </th>
              <th scope="col" className={`${head} min-w-28`}>
                Price
              </th>
              <th scope="col" className={`${head} min-w-32`}>
                Rating
              </th>
              <th scope="col" className={`${head} min-w-52`}>
                Amenities
              </th>
              <th scope="col" className={`${head} min-w-56`}>
                Hours
              </th>
            </tr>
          </thead>
          <tbody>
            {facilities.map((f) => (
              <FacilityRow
                key={f.placeId}
                facility={f}
                hasPoint={hasPoint}
                rv={rv}
                ids={ids}
                search={search}
                cell={cell}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function FacilityRow({
  facility: f,
  hasPoint,
  rv,
  ids,
  search,
  cell,
}: {
  facility: CompareFacility;
  hasPoint: boolean;
  rv: MyRv | undefined;
  ids: string[];
  /** The page's query: removing a facility keeps the place and the RV. */
  search: string;
  cell: string;
}) {
  const fits = new Set(
    rv
      ? sizesThatFit(
          f.sizes.map((s) => s.key),
          rv,
        )
      : [],
  );
  const clears = rv && f.hasCover ? clearsHeight(f.coveredClearanceFeet, rv) : undefined;
  const others = ids.filter((id) => id !== f.placeId);
  return (
    <tr>
      <th
        scope="row"
        className={`${cell} sticky left-0 z-10 bg-white text-left font-normal shadow-[1px_0_0_0_var(--color-slate-200)]`}
      >
        <Link to={`/location/${f.slug}`} className="font-semibold text-brand-700 hover:underline">
          {f.name}
        </Link>
        {f.address && <p className="mt-1 hidden text-xs text-slate-600 sm:block">{f.address}</p>}
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
          <SaveButton slug={f.slug} name={f.name} className="relative" />
          {others.length >= COMPARE_MIN && (
            <Link
              to={compareHref(others, new URLSearchParams(search))}
              className="inline-flex min-h-11 items-center gap-1 text-xs text-slate-600 underline hover:text-slate-900"
            >
              <X className="size-3" aria-hidden="true" /> Remove
              <span className="sr-only"> {f.name} from the comparison</span>
            </Link>
          )}
          <DemoBadge isDemo={f.isDemo} />
        </div>
      </th>
      {hasPoint && (
        <td className={`${cell} whitespace-nowrap`}>
          {f.distanceMiles === null ? "—" : `${f.distanceMiles.toFixed(1)} mi`}
        </td>
      )}
      <td className={cell}>
        {f.sizes.length === 0 ? (
          <span className="text-slate-600">Not listed</span>
        ) : (
          <>
            {rv && (
              <p className="mb-1.5 font-medium text-slate-800">
                {fits.size === 0 ? "None fits your RV" : `${fits.size} of ${f.sizes.length} fit your RV`}
              </p>
            )}
            <ul className="flex flex-wrap gap-1.5" aria-label={`Sizes at ${f.name}`}>
              {f.sizes.map((s) => {
                const fit = fits.has(s.key);
                return (
                  <li
                    key={s.key}
                    className={`inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs ${
                      fit ? "border-emerald-300 bg-emerald-50 text-emerald-900" : "border-slate-200 text-slate-700"
                    }`}
                  >
                    {fit && <Check className="size-3" aria-hidden="true" />}
                    {s.label}
                    {fit && <span className="sr-only"> (fits)</span>}
                    {s.monthlyPrice !== null && <span className="font-medium"> · {priceLabel(s.monthlyPrice)}</span>}
                    {s.availability && <span className="text-slate-600"> · {s.availability}</span>}
                  </li>
                );
              })}
            </ul>
          </>
        )}
        {f.hasCover && f.coveredClearanceFeet !== null && (
          <p className="mt-1.5 text-xs text-slate-600">
            Covered: {f.coveredClearanceFeet} ft clearance
            {clears === true && " (clears your RV)"}
            {clears === false && " (too low for your RV)"}
          </p>
        )}
      </td>
      <td className={`${cell} whitespace-nowrap`}>
        {f.fromPrice === null ? <span className="text-slate-600">Not given</span> : `from ${priceLabel(f.fromPrice)}`}
      </td>
      <td className={cell}>
        <Rating rating={f.rating} count={f.userRatingsTotal} />
      </td>
      <td className={cell}>
        {f.amenities.length === 0 ? (
          <span className="text-slate-600">None listed</span>
        ) : (
          <ul className="flex flex-wrap gap-1" aria-label={`Amenities at ${f.name}`}>
            {f.amenities.map((a) => (
              <li key={a} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                {a}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td className={cell}>
        {f.openingHours.length === 0 ? (
          <span className="text-slate-600">Not available</span>
        ) : (
          <ul className="space-y-0.5 text-xs text-slate-700">
            {f.openingHours.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
