/**
 * The results map (docs/product.md section 4, "Map states": loading, ready, error), and with `fixedView`
 * the facility page's location map: the same frame, states and Leaflet chunk.
 *
 * Safe to render on the server: this module never imports Leaflet. The server and the first
 * client render show a skeleton; after hydration, once the map's frame is on screen, the
 * Leaflet part (./leaflet-map, with Leaflet's CSS) is loaded as a separate chunk. A failed
 * download or a map that cannot start shows 'Map Unavailable'; missing tiles do not.
 */
import ExternalLink from "lucide-react/icons/external-link";
import MapIcon from "lucide-react/icons/map";
import MapPinOff from "lucide-react/icons/map-pin-off";
import RotateCw from "lucide-react/icons/rotate-cw";
import Search from "lucide-react/icons/search";
import {
  Component,
  Suspense,
  lazy,
  useCallback,
  useMemo,
  useRef,
  useState,
  type ErrorInfo,
  type ReactNode,
} from "react";
import { chooseView, markersFingerprint, usableMarkers, viewKey, type MapMarker, type MapView } from "./map-view";
import type { MapArea } from "./leaflet-map";
import { useHydrated, useSeen } from "./use-client-only";
import { buttonClasses } from "../ui/button";

export type { MapMarker } from "./map-view";
export type { MapArea } from "./leaflet-map";

const LeafletMap = lazy(() => import("./leaflet-map"));

export interface ResultsMapProps {
  markers: MapMarker[];
  /** The searched place; the map centres here at zoom 8 when there are no markers. */
  center?: { lat: number; lng: number } | null;
  /** The searched place's name ('Austin, Texas'), written at `center` when tiles cannot load. */
  placeLabel?: string;
  /** A result to set apart on the map (its card is hovered or focused): its pin, or its cluster. */
  highlightedId?: string | null;
  /** The visitor's own position; when given, the map centres here at zoom 10. */
  userLocation?: { lat: number; lng: number } | null;
  tileUrl: string;
  /** HTML, as Leaflet shows it (e.g. an OpenStreetMap copyright link). */
  attribution: string;
  /** Size and placement of the map's frame; defaults to full width and 20rem high. */
  className?: string;
  /** Called when a visitor opens a marker's popup (click, tap or Enter), e.g. to highlight its card. */
  onMarkerFocus?(id: string): void;
  /**
   * Show exactly this view, with plain pins and no popups (a facility's location map), instead of
   * choosing one from the markers, the place and the visitor.
   */
  fixedView?: MapView;
  /** Frame the searched place with the markers (a listing beyond the radius), even for a visitor's position. */
  fitPlace?: boolean;
  /** The frame's accessible name. */
  label?: string;
  /** What the 'Map Unavailable' panel offers besides Retry, e.g. the same place on another map. */
  fallback?: MapFallback;
  /** The level of the 'Map Unavailable' heading under the headings around the map. */
  headingLevel?: 2 | 3;
  /**
   * Offers "Search this area" once the visitor pans or zooms away from the results, and calls
   * this with the area on screen when it is pressed.
   */
  onSearchArea?(area: MapArea): void;
}

export interface MapFallback {
  message: string;
  link?: { href: string; text: string };
}

const RESULTS_FALLBACK: MapFallback = {
  message: "The map service is currently unavailable. You can still browse locations below.",
};

export type MapState = "loading" | "ready" | "error";

/**
 * The same value while `key` is unchanged. Loaders hand over fresh arrays and objects on every
 * navigation; the map should only rebuild its clusters or move when the data really changed.
 */
function useStable<T>(value: T, key: string): T {
  const [stored, setStored] = useState({ key, value });
  if (stored.key !== key) {
    setStored({ key, value });
    return value;
  }
  return stored.value;
}

export function ResultsMap({
  markers,
  center,
  placeLabel,
  highlightedId = null,
  userLocation,
  tileUrl,
  attribution,
  className,
  onMarkerFocus,
  fixedView,
  fitPlace = false,
  label = "Map of storage locations",
  fallback = RESULTS_FALLBACK,
  headingLevel = 2,
  onSearchArea,
}: ResultsMapProps) {
  const frame = useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();
  const seen = useSeen(frame, hydrated);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const markReady = useCallback(() => setReady(true), []);
  const markFailed = useCallback(() => setFailed(true), []);
  const [area, setArea] = useState<MapArea | null>(null);

  const usable = useMemo(() => {
    const list = usableMarkers(markers);
    return { list, key: markersFingerprint(list) };
  }, [markers]);
  const stableMarkers = useStable(usable.list, usable.key);
  const view = fixedView ?? chooseView(stableMarkers, center, userLocation, fitPlace);
  const stableView = useStable(view, viewKey(view));
  const place = center && placeLabel ? { lat: center.lat, lng: center.lng, label: placeLabel } : null;
  const stablePlace = useStable(place, place ? `${place.lat},${place.lng},${place.label}` : "");

  const state: MapState = failed ? "error" : ready ? "ready" : "loading";
  return (
    <div
      ref={frame}
      role="region"
      aria-label={label}
      data-map-state={state}
      // isolate: Leaflet's panes and controls use z-indexes up to 1000; keep them under the header.
      className={`relative isolate overflow-hidden rounded-card border border-slate-200 bg-slate-100 ${className ?? "h-80 w-full"}`}
    >
      {hydrated && seen && !failed && (
        <MapErrorBoundary onError={markFailed}>
          <Suspense fallback={null}>
            <LeafletMap
              markers={stableMarkers}
              view={stableView}
              tileUrl={tileUrl}
              attribution={attribution}
              onMarkerFocus={onMarkerFocus}
              place={stablePlace}
              highlightedId={highlightedId}
              fixed={fixedView !== undefined}
              onReady={markReady}
              onAreaChange={onSearchArea ? setArea : undefined}
            />
          </Suspense>
        </MapErrorBoundary>
      )}
      {state === "ready" && area && onSearchArea && (
        <button
          type="button"
          onClick={() => {
            setArea(null);
            onSearchArea(area);
          }}
          className="absolute left-1/2 top-3 z-[1000] inline-flex h-10 -translate-x-1/2 items-center gap-2 whitespace-nowrap rounded-full bg-white px-4 text-sm font-semibold text-brand-700 shadow-md ring-1 ring-slate-200 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          <Search className="size-4" aria-hidden="true" />
          Search this area
        </button>
      )}
      {state === "loading" && <MapLoading />}
      {state === "error" && <MapUnavailable fallback={fallback} headingLevel={headingLevel} />}
    </div>
  );
}

/** A map-shaped skeleton: a faint street grid, so the frame reads as "a map is coming". */
function MapLoading() {
  return (
    <div
      role="status"
      className="absolute inset-0 z-[1100] flex flex-col items-center justify-center gap-2 bg-slate-100 text-slate-600"
      style={{
        backgroundImage:
          "linear-gradient(rgb(203 213 225 / 0.5) 1px, transparent 1px), linear-gradient(90deg, rgb(203 213 225 / 0.5) 1px, transparent 1px)",
        backgroundSize: "48px 48px",
      }}
    >
      <MapIcon className="size-8 text-slate-400 motion-safe:animate-pulse" aria-hidden="true" />
      <span className="text-sm font-medium">Loading map...</span>
    </div>
  );
}

function MapUnavailable({ fallback, headingLevel }: { fallback: MapFallback; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div
      role="alert"
      className="absolute inset-0 z-[1100] flex flex-col items-center justify-center gap-3 bg-slate-50 p-6 text-center"
    >
      <MapPinOff className="size-8 text-slate-400" aria-hidden="true" />
      <Heading className="text-lg font-semibold text-slate-900">Map Unavailable</Heading>
      <p className="max-w-xs text-sm text-slate-600">{fallback.message}</p>
      <div className="flex flex-wrap items-center justify-center gap-2">
        {fallback.link && (
          <a
            href={fallback.link.href}
            target="_blank"
            rel="noopener"
            className={buttonClasses("primary", "md", "py-2")}
          >
            <ExternalLink className="size-4" aria-hidden="true" />
            {fallback.link.text}
          </a>
        )}
        <button
          type="button"
          onClick={() => window.location.reload()}
          className={buttonClasses(fallback.link ? "secondary" : "primary", "md", "py-2")}
        >
          <RotateCw className="size-4" aria-hidden="true" />
          Retry
        </button>
      </div>
    </div>
  );
}

/**
 * Catches a failed chunk download (React.lazy rethrows it while rendering) and a map that throws
 * while starting. The results list does not depend on the map, so the page carries on.
 */
class MapErrorBoundary extends Component<{ children: ReactNode; onError(): void }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error("The map failed to load", error, info.componentStack);
    this.props.onError();
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
