import { LocateFixed, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { getCurrentLocation } from "../../lib/geolocation";

/**
 * 'Use my location': asks the browser for a fresh position and opens the results near it.
 * A refused permission stays silent (docs/product.md section 8); other failures go to `onError`.
 */
export function UseMyLocationButton({
  onError,
  variant = "light",
  query,
}: {
  onError(message: string | null): void;
  variant?: "light" | "dark";
  /** Filters to keep, e.g. the current size and amenity selection. */
  query?: URLSearchParams;
}) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const onClick = async () => {
    setPending(true);
    onError(null);
    const outcome = await getCurrentLocation();
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
      className={`inline-flex h-11 shrink-0 items-center justify-center gap-2 rounded-md border px-4 font-medium disabled:opacity-70 ${tone}`}
    >
      {pending ? (
        <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
      ) : (
        <LocateFixed className="size-5" aria-hidden="true" />
      )}
      <span>{pending ? "Locating…" : "Use my location"}</span>
    </button>
  );
}
