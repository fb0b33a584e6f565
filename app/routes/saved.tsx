import Heart from "lucide-react/icons/heart";
import MapPin from "lucide-react/icons/map-pin";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { Route } from "./+types/saved";
import { Rating } from "../components/location/rating";
import { ResponsivePhoto } from "../components/location/responsive-photo";
import { SaveButton } from "../components/location/save-button";
import { DemoBadge } from "../components/location/tier-badge";
import { EmptyState } from "../components/ui/empty-state";
import { buttonClasses } from "../components/ui/button";
import { imageRefFromUrl } from "../../domain/images";
import { privatePageMeta } from "../lib/meta";
import { MY_RV_PARAMS } from "../../domain/rv-fit";
import { COMPARE_MAX, COMPARE_MIN, SAVED_LIMIT, compareHref } from "../../domain/saved";
import { useIsSaved } from "../lib/saved-store";
import { savedPage } from "../../server/saved/pages";

/**
 * /saved (docs/product.md section 15): the facilities this visitor saved, anonymous or signed in,
 * newest first, with boxes to pick 2 to 4 for the compare page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return savedPage(request);
}

export function meta(args: Route.MetaArgs) {
  return privatePageMeta("Saved facilities", args);
}

/** What the compare page keeps from this page's address: the searched place and the RV. */
const CARRIED = ["lat", "lng", MY_RV_PARAMS.length, MY_RV_PARAMS.height] as const;

export default function SavedPage({ loaderData }: Route.ComponentProps) {
  const { items, signedIn } = loaderData;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [picked, setPicked] = useState<string[]>([]);
  const ready = picked.length >= COMPARE_MIN && picked.length <= COMPARE_MAX;
  const hint =
    picked.length > COMPARE_MAX
      ? `Pick at most ${COMPARE_MAX}: ${picked.length} picked.`
      : `Pick ${COMPARE_MIN} to ${COMPARE_MAX} to compare: ${picked.length} picked.`;
  const toggle = (id: string, on: boolean) =>
    setPicked((current) => (on ? [...current.filter((x) => x !== id), id] : current.filter((x) => x !== id)));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready) return;
    // In the order they are listed, so the table matches this page.
    const ids = items.map((i) => i.placeId).filter((id) => picked.includes(id));
    void navigate(compareHref(ids, params));
  };

  return (
    <div className="mx-auto max-w-4xl px-4 py-6">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Saved facilities</h1>
      <p className="mt-1 text-slate-600">
        {items.length === 0
          ? "Nothing saved yet."
          : `${items.length} saved${items.length >= SAVED_LIMIT ? ` (the most we keep is ${SAVED_LIMIT})` : ""}.`}{" "}
        {!signedIn && (
          <>
            This browser keeps them while you visit at least once a month;{" "}
            <Link to="/signup?redirectTo=%2Fsaved" className="font-medium text-brand-700 underline">
              create an account
            </Link>{" "}
            to keep them for good.
          </>
        )}
      </p>

      {items.length === 0 ? (
        <EmptyState
          className="mt-6"
          icon={<Heart />}
          title="No saved facilities"
          text="Tap the heart on a facility to keep it here, then compare up to four side by side."
          action={
            <Link to="/rv-storage" className={buttonClasses("primary", "md")}>
              Search RV storage
            </Link>
          }
        />
      ) : (
        <form method="get" action="/compare" onSubmit={submit} className="mt-6">
          {CARRIED.map((key) => {
            const value = params.get(key);
            return value ? <input key={key} type="hidden" name={key} value={value} /> : null;
          })}
          <ul className="space-y-3">
            {items.map((item) => (
              <SavedItem
                key={item.placeId}
                item={item}
                picked={picked.includes(item.placeId)}
                onPick={(on) => toggle(item.placeId, on)}
              />
            ))}
          </ul>
          {/* Stays in view at the bottom of a long list (phones especially). */}
          <div className="sticky bottom-0 z-10 -mx-4 mt-4 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur">
            <button type="submit" className={buttonClasses("primary", "md", "min-h-11")} aria-disabled={!ready}>
              Compare{picked.length > 0 ? ` (${picked.length})` : ""}
            </button>
            <p role="status" className="text-sm text-slate-700">
              {hint}
            </p>
          </div>
        </form>
      )}
    </div>
  );
}

type Item = Route.ComponentProps["loaderData"]["items"][number];

function SavedItem({ item, picked, onPick }: { item: Item; picked: boolean; onPick: (on: boolean) => void }) {
  const saved = useIsSaved(item.slug);
  const photo = item.photo ? imageRefFromUrl(item.photo) : undefined;
  return (
    <li
      className={`relative flex gap-2 rounded-card border p-2 sm:gap-3 sm:p-3 ${
        picked ? "border-brand-500 ring-1 ring-brand-500" : "border-slate-200"
      } ${saved ? "" : "opacity-60"}`}
    >
      <label className="flex min-h-11 min-w-11 shrink-0 cursor-pointer items-center justify-center self-center">
        <input
          type="checkbox"
          name="ids"
          value={item.placeId}
          checked={picked}
          onChange={(e) => onPick(e.target.checked)}
          className="size-5 accent-brand-500"
        />
        <span className="sr-only">Compare {item.name}</span>
      </label>
      {/* The photo on every screen: on a phone it is how people tell their saves apart. */}
      <div className="aspect-[4/3] w-24 shrink-0 self-start overflow-hidden rounded-md bg-slate-100 sm:w-32">
        {photo ? (
          <ResponsivePhoto
            placeId={photo.placeId}
            index={photo.index}
            alt=""
            width={320}
            height={240}
            sizes="(min-width: 640px) 8rem, 6rem"
            className="h-full"
          />
        ) : item.photo ? (
          <img src={item.photo} alt="" width={320} height={240} loading="lazy" className="h-full w-full object-cover" />
        ) : (
          <p className="flex h-full items-center justify-center text-xs text-slate-600">No photo</p>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold leading-snug">
          <Link to={`/location/${item.slug}`} className="text-slate-900 hover:text-brand-700 hover:underline">
            {item.name}
          </Link>
        </h2>
        {item.address && (
          <p className="mt-0.5 flex items-start gap-1 text-sm text-slate-600">
            <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span className="line-clamp-2 sm:line-clamp-none">{item.address}</span>
          </p>
        )}
        <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1">
          <Rating rating={item.rating} count={item.userRatingsTotal} />
          <DemoBadge isDemo={item.isDemo} />
          {!saved && <span className="text-sm text-slate-700">Removed</span>}
          <SaveButton slug={item.slug} name={item.name} className="relative ml-auto shrink-0" />
        </div>
      </div>
    </li>
  );
}
