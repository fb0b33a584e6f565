import LocateFixed from "lucide-react/icons/locate-fixed";
import LoaderCircle from "lucide-react/icons/loader-circle";
import { useState } from "react";
import { useNavigate } from "react-router";
import { getCurrentLocation } from "../../lib/geolocation";

/** docs/product.md section 8: the banner's first line when 'Use my location' fails. */
export const CURRENT_LOCATION_FAILED = "Could not get your current location";

/**
 * 'Use my location': asks the browser for a fresh position and opens the results near it.
 * A refused permission stays silent (docs/product.md section 8); other failures go to `onError`
 * with the browser's reason (the page shows it under CURRENT_LOCATION_FAILED).
 */
export function UseMyLocationButton({
  onError,
  variant = "light",
  query,
  compact = false,
}: {
  onError(message: string | null): void;
  variant?: "light" | "dark";
  /** Filters to keep, e.g. the current size and amenity selection. */
  query?: URLSearchParams;
  /** An icon-only button on phones (the results page's search bar); the name stays for screen readers. */
  compact?: boolean;
}) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const onClick = async () => {
    setPending(true);
    onError(null);
    // A browser whose geolocation throws instead of calling back still gets an answer.
    const outcome = await getCurrentLocation().catch(() => ({
      ok: false as const,
      message: "An unknown error occurred.",
      silent: false,
    }));
    setPending(false);
    if (outcome.ok) {
      const params = new URLSearchParams(query);
      params.set("lat", outcome.lat.toFixed(5));
      params.set("lng", outcome.lng.toFixed(5));
      params.delete("page");
      navigate(`/rv-storage?${params}`, { state: { useCurrentLocation: true } });
    } else if (!outcome.silent) {
      onError(outcome.message);
    }
  };
  const tone =
    variant === "dark"
      ? "border-white/40 bg-white/10 text-white hover:bg-white/20"
      : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50";
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={pending}
      aria-busy={pending}
      className={`inline-flex h-11 shrink-0 items-center justify-center gap-2 rounded-md border font-medium disabled:opacity-70 ${
        compact ? "w-11 px-0 sm:w-auto sm:px-4" : "px-4"
      } ${tone}`}
    >
      {pending ? (
        <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
      ) : (
        <LocateFixed className="size-5" aria-hidden="true" />
      )}
      <span className={compact ? "sr-only sm:not-sr-only" : undefined}>
        {pending ? "Locating…" : "Use my location"}
      </span>
    </button>
  );
}
