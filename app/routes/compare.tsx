import Check from "lucide-react/icons/check";
import Link2 from "lucide-react/icons/link-2";
import LocateFixed from "lucide-react/icons/locate-fixed";
import X from "lucide-react/icons/x";
import Navigation from "lucide-react/icons/navigation";
import Phone from "lucide-react/icons/phone";
import { Fragment, useState, useSyncExternalStore, type ReactNode } from "react";
import { Link, data, redirect, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/compare";
import { Rating } from "../components/location/rating";
import { ResponsivePhoto } from "../components/location/responsive-photo";
import { SaveButton } from "../components/location/save-button";
import { useAppleDevice } from "../components/location/use-apple-device";
import { DemoBadge } from "../components/location/tier-badge";
import { EmptyState } from "../components/ui/empty-state";
import { buttonClasses } from "../components/ui/button";
import { AMENITY_GROUPS, AMENITY_LABELS } from "../../domain/amenities";
import { appleDirectionsUrl, googleDirectionsUrl } from "../lib/directions";
import { displayPhone, telHref } from "../lib/format";
import { getCurrentLocation } from "../lib/geolocation";
import { imageRefFromUrl } from "../../domain/images";
import { priceLabel } from "../../domain/listings";
import { privatePageMeta } from "../lib/meta";
import { MY_RV_STORAGE_KEY, clearsHeight, parseMyRv, sizesThatFit, type MyRv } from "../../domain/rv-fit";
import { COMPARE_MAX, COMPARE_MIN, compareHref } from "../../domain/saved";
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
  const apple = useAppleDevice();
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
  // One row per amenity that any of them has, in the filter's groups: a fact reads across the row.
  const has = facilities.map((f) => new Set(f.amenities));
  const groups = AMENITY_GROUPS.map((g) => ({
    title: g.title,
    flags: g.flags.filter((flag) => has.some((set) => set.has(flag))),
  })).filter((g) => g.flags.length > 0);
  const anyCover = facilities.some((f) => f.hasCover);
  const rowProps = { facilities };
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
      {/* One column per facility, one row per fact, so each fact lines up across them. Phones: the
          table scrolls sideways under a sticky first column that names the facts. Positioned, so
          that what is absolutely placed inside (screen-reader text) scrolls with it rather than
          widening the page. */}
      <div
        className="relative -mx-4 mt-4 overflow-x-auto border-y border-slate-200 sm:mx-0 sm:rounded-card sm:border"
        tabIndex={0}
        role="region"
        aria-label="Comparison table"
      >
        <table className="w-full table-fixed border-separate border-spacing-0 text-sm">
          <caption className="sr-only">
            {facilities.length} facilities compared: distance, price, sizes, rating, amenities and hours
          </caption>
          <colgroup>
            <col className="w-28 sm:w-44" />
            {facilities.map((f) => (
              <col key={f.placeId} className="w-36 sm:w-auto sm:min-w-52" />
            ))}
          </colgroup>
          <thead>
            <tr>
              <td className={`${CORNER} border-b-0`} />
              {facilities.map((f) => (
                <td key={f.placeId} className={`${CELL} border-b-0 pb-0`}>
                  <Photo facility={f} />
                </td>
              ))}
            </tr>
            <tr>
              <th scope="col" className={`${CORNER} text-left align-bottom`}>
                <span className="sr-only">Facility</span>
              </th>
              {facilities.map((f) => (
                <th key={f.placeId} scope="col" className={`${CELL} text-left font-normal`}>
                  <Link to={`/location/${f.slug}`} className="font-semibold text-brand-700 hover:underline">
                    {f.name}
                  </Link>
                  {f.address && <p className="mt-1 text-xs text-slate-600">{f.address}</p>}
                  {f.isDemo && (
                    <div className="mt-1">
                      <DemoBadge isDemo />
                    </div>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <FactRow label="Contact" {...rowProps}>
              {(f) => <Contact facility={f} apple={apple} ids={ids} search={search} />}
            </FactRow>
            {hasPoint && (
              <FactRow label="Distance" {...rowProps}>
                {(f) => (f.distanceMiles === null ? <Missing>Not known</Missing> : `${f.distanceMiles.toFixed(1)} mi`)}
              </FactRow>
            )}
            <FactRow label="Price" {...rowProps}>
              {(f) =>
                f.fromPrice === null ? (
                  <Missing>Not given</Missing>
                ) : (
                  <span className="font-medium">from {priceLabel(f.fromPrice)}</span>
                )
              }
            </FactRow>
            <FactRow label="Sizes" {...rowProps}>
              {(f) => <Sizes facility={f} rv={rv} />}
            </FactRow>
            {anyCover && (
              <FactRow label="Covered clearance" {...rowProps}>
                {(f) => <Clearance facility={f} rv={rv} />}
              </FactRow>
            )}
            <FactRow label="Rating" {...rowProps}>
              {(f) => <Rating rating={f.rating} count={f.userRatingsTotal} />}
            </FactRow>
            {groups.length === 0 ? (
              <FactRow label="Amenities" {...rowProps}>
                {() => <Missing>None listed</Missing>}
              </FactRow>
            ) : (
              groups.map((group) => (
                <Fragment key={group.title}>
                  <tr>
                    <th
                      scope="rowgroup"
                      className={`${CORNER} bg-slate-50 pt-4 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase`}
                    >
                      {group.title}
                    </th>
                    <td colSpan={facilities.length} className={`${CELL} bg-slate-50 pt-4`} />
                  </tr>
                  {group.flags.map((flag) => (
                    <FactRow key={flag} label={AMENITY_LABELS[flag]} compact {...rowProps}>
                      {(_, i) => <YesNo yes={has[i]!.has(flag)} />}
                    </FactRow>
                  ))}
                </Fragment>
              ))
            )}
            <FactRow label="Hours" {...rowProps}>
              {(f) =>
                f.openingHours.length === 0 ? (
                  <Missing>Not available</Missing>
                ) : (
                  <ul className="space-y-0.5 text-xs text-slate-700">
                    {f.openingHours.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                )
              }
            </FactRow>
          </tbody>
        </table>
      </div>
    </>
  );
}

const CELL = "border-b border-slate-200 px-3 py-2.5 align-top";
/** The facts' names stay in view while the table scrolls sideways. */
const CORNER =
  "sticky left-0 z-10 border-b border-slate-200 bg-white px-3 py-2.5 align-top shadow-[1px_0_0_0_var(--color-slate-200)]";

/** One fact across the facilities: its name, then one cell per facility. */
function FactRow({
  label,
  facilities,
  compact = false,
  children,
}: {
  label: string;
  facilities: CompareFacility[];
  compact?: boolean;
  children: (facility: CompareFacility, index: number) => ReactNode;
}) {
  const pad = compact ? "py-1.5" : "";
  return (
    <tr>
      <th scope="row" className={`${CORNER} ${pad} text-left font-medium break-words hyphens-auto text-slate-700`}>
        {label}
      </th>
      {facilities.map((f, i) => (
        <td key={f.placeId} className={`${CELL} ${pad} text-slate-800`}>
          {children(f, i)}
        </td>
      ))}
    </tr>
  );
}

function Missing({ children }: { children: ReactNode }) {
  return <span className="text-slate-600">{children}</span>;
}

function YesNo({ yes }: { yes: boolean }) {
  return yes ? (
    <span className="inline-flex items-center gap-1 font-medium text-emerald-800">
      <Check className="size-4" aria-hidden="true" /> Yes
    </span>
  ) : (
    <span className="text-slate-500">
      <span aria-hidden="true">—</span>
      <span className="sr-only">No</span>
    </span>
  );
}

/** The first photo, 4:3, or a quiet box saying there is none. */
function Photo({ facility: f }: { facility: CompareFacility }) {
  const ref = f.photo ? imageRefFromUrl(f.photo) : undefined;
  return (
    <div className="aspect-[4/3] overflow-hidden rounded-md bg-slate-100">
      {ref ? (
        <ResponsivePhoto
          placeId={ref.placeId}
          index={ref.index}
          alt={`${f.name}: first photo`}
          width={640}
          height={480}
          sizes="(min-width: 1024px) 20vw, (min-width: 640px) 30vw, 9rem"
          className="h-full"
        />
      ) : f.photo ? (
        <img
          src={f.photo}
          alt={`${f.name}: first photo`}
          width={640}
          height={480}
          loading="lazy"
          className="h-full w-full object-cover"
        />
      ) : (
        <p className="flex h-full items-center justify-center p-2 text-center text-xs text-slate-600">No photo</p>
      )}
    </div>
  );
}

/** Call and Directions, as on the facility page, then the heart and 'Remove'. */
function Contact({
  facility: f,
  apple,
  ids,
  search,
}: {
  facility: CompareFacility;
  apple: boolean;
  ids: string[];
  /** The page's query: removing a facility keeps the place and the RV. */
  search: string;
}) {
  const phone = displayPhone(f.phone);
  const directions = f.point ? (apple ? appleDirectionsUrl(f.point, f.name) : googleDirectionsUrl(f.point)) : null;
  const others = ids.filter((id) => id !== f.placeId);
  const action = "min-h-11 w-full justify-center px-2 sm:min-h-9";
  return (
    <div className="flex flex-col gap-2">
      <div className="grid gap-2 lg:grid-cols-2">
        {phone ? (
          <a
            href={telHref(phone)}
            data-analytics-click="phone"
            data-analytics-location-id={f.placeId}
            className={buttonClasses("secondary", "sm", action)}
          >
            <Phone className="size-4" aria-hidden="true" /> Call<span className="sr-only"> {f.name}</span>
          </a>
        ) : (
          <span className="self-center text-xs text-slate-600">No phone listed</span>
        )}
        {directions && (
          <a
            href={directions}
            data-analytics-click="directions"
            data-analytics-location-id={f.placeId}
            target="_blank"
            rel="noopener"
            title={`Directions in ${apple ? "Apple Maps" : "Google Maps"}`}
            className={buttonClasses("primary", "sm", action)}
          >
            <Navigation className="size-4" aria-hidden="true" /> Directions
            <span className="sr-only"> to {f.name}</span>
          </a>
        )}
      </div>
      {phone && <p className="text-xs text-slate-600">{phone}</p>}
      <div className="flex flex-wrap items-center gap-x-3">
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
      </div>
    </div>
  );
}

/** The sizes one to a line (size, price, availability), the ones that fit My RV marked. */
function Sizes({ facility: f, rv }: { facility: CompareFacility; rv: MyRv | undefined }) {
  if (f.sizes.length === 0) return <Missing>Not listed</Missing>;
  const fits = new Set(
    rv
      ? sizesThatFit(
          f.sizes.map((s) => s.key),
          rv,
        )
      : [],
  );
  return (
    <>
      {rv && (
        <p className="mb-1.5 font-medium text-slate-800">
          {fits.size === 0 ? "None fits your RV" : `${fits.size} of ${f.sizes.length} fit your RV`}
        </p>
      )}
      <ul className="space-y-1" aria-label={`Sizes at ${f.name}`}>
        {f.sizes.map((s) => {
          const fit = fits.has(s.key);
          return (
            <li
              key={s.key}
              className={`rounded-md border px-2 py-1 text-xs ${
                fit ? "border-emerald-300 bg-emerald-50 text-emerald-900" : "border-slate-200 text-slate-700"
              }`}
            >
              <span className="flex flex-wrap items-baseline justify-between gap-x-2">
                <span className="inline-flex items-center gap-1 whitespace-nowrap">
                  {fit && <Check className="size-3" aria-hidden="true" />}
                  {s.label}
                  {fit && <span className="sr-only"> (fits)</span>}
                </span>
                {s.monthlyPrice !== null && (
                  <span className="font-medium whitespace-nowrap">{priceLabel(s.monthlyPrice)}</span>
                )}
              </span>
              {s.availability && <span className="block text-slate-600">{s.availability}</span>}
            </li>
          );
        })}
      </ul>
    </>
  );
}

function Clearance({ facility: f, rv }: { facility: CompareFacility; rv: MyRv | undefined }) {
  if (!f.hasCover) return <Missing>No covered space</Missing>;
  if (f.coveredClearanceFeet === null) return <Missing>Not stated</Missing>;
  const clears = rv ? clearsHeight(f.coveredClearanceFeet, rv) : undefined;
  return (
    <>
      {f.coveredClearanceFeet} ft
      {clears === true && <span className="block text-xs text-emerald-800">Clears your RV</span>}
      {clears === false && <span className="block text-xs text-red-700">Too low for your RV</span>}
    </>
  );
}
