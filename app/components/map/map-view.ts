/**
 * The map's data shape, the constants of docs/product.md section 9 and the pure decisions about what the
 * map shows. No Leaflet here: the results page imports this on the server too.
 */
import { isValidLatLng, type LatLng } from "../../../domain/coordinates";
import type { MapMarker } from "../../../domain/search";

export type { MapMarker };

/** The geographic centre of the contiguous United States, shown when there is nothing else. */
export const DEFAULT_CENTER: LatLng = { lat: 39.83, lng: -98.58 };
export const DEFAULT_ZOOM = 4;
export const USER_LOCATION_ZOOM = 10;
export const RESULTS_ZOOM = 8;
/** Fitting a handful of close results must not zoom in past street level of a town. */
export const MAX_FIT_ZOOM = 10;
export const MAX_ZOOM = 18;
/** A facility's location map (docs/product.md section 9: detail zoom 15). */
export const DETAIL_ZOOM = 15;
export const MARKER_COLOR = "#4668F2";

export type MapView =
  | { kind: "center"; center: LatLng; zoom: number }
  | { kind: "bounds"; southWest: LatLng; northEast: LatLng; maxZoom: number };

/**
 * Markers with usable coordinates (docs/product.md section 5: markers skip non-numeric coordinates).
 * Loader data is JSON, so a "lat" typed as a number can still arrive as a string or null.
 */
export function usableMarkers(markers: readonly MapMarker[]): MapMarker[] {
  return markers.filter((m) => typeof m.lat === "number" && typeof m.lng === "number" && isValidLatLng(m.lat, m.lng));
}

function usablePoint(point: LatLng | null | undefined): LatLng | null {
  return point && isValidLatLng(point.lat, point.lng) ? { lat: point.lat, lng: point.lng } : null;
}

/**
 * What to show first (docs/product.md section 9): the visitor's own position at zoom 10; else every result
 * (their bounds, at most zoom 10); else the searched place at zoom 8; else the whole country.
 */
export function chooseView(
  markers: readonly MapMarker[],
  center?: LatLng | null,
  userLocation?: LatLng | null,
  /** Fit the searched place too (the nearest listing lies beyond the radius): no zoom to the visitor. */
  withCenter = false,
): MapView {
  const user = usablePoint(userLocation);
  if (user && !withCenter) return { kind: "center", center: user, zoom: USER_LOCATION_ZOOM };
  const place = usablePoint(center);
  const points: readonly LatLng[] = withCenter && place && markers.length > 0 ? [...markers, place] : markers;
  const first = points[0];
  if (first) {
    let south = first.lat;
    let north = first.lat;
    let west = first.lng;
    let east = first.lng;
    for (const m of points) {
      south = Math.min(south, m.lat);
      north = Math.max(north, m.lat);
      west = Math.min(west, m.lng);
      east = Math.max(east, m.lng);
    }
    return {
      kind: "bounds",
      southWest: { lat: south, lng: west },
      northEast: { lat: north, lng: east },
      maxZoom: MAX_FIT_ZOOM,
    };
  }
  if (place) return { kind: "center", center: place, zoom: RESULTS_ZOOM };
  return { kind: "center", center: DEFAULT_CENTER, zoom: DEFAULT_ZOOM };
}

/** A stable key for a view, so that a re-render with equal data does not move the map. */
export function viewKey(view: MapView): string {
  return view.kind === "center"
    ? `c:${view.center.lat},${view.center.lng},${view.zoom}`
    : `b:${view.southWest.lat},${view.southWest.lng},${view.northEast.lat},${view.northEast.lng},${view.maxZoom}`;
}

/**
 * A cheap fingerprint of a marker list (FNV-1a over ids, coordinates and popup fields). Loaders
 * return a fresh array on every navigation, even when only the list's page changed; comparing
 * fingerprints keeps the cluster index and the visitor's pan and zoom in place then.
 */
export function markersFingerprint(markers: readonly MapMarker[]): string {
  let hash = 0x811c9dc5;
  const add = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
  };
  for (const m of markers) {
    add(`${m.id}|${m.lat}|${m.lng}|${m.name}|${m.rating}|${m.reviewCount}|${m.href}|${m.distanceMiles ?? ""};`);
  }
  return `${markers.length}:${(hash >>> 0).toString(36)}`;
}

/**
 * Where 'Open in Google Maps' goes: the listing's own Google Maps link when it has a usable one
 * (an http(s) URL; anything else from an import could be a javascript: link), else a search at
 * the coordinates.
 */
export function googleMapsUrl(point: LatLng, googleMapsUri?: string | null): string {
  if (googleMapsUri) {
    try {
      const url = new URL(googleMapsUri);
      if (url.protocol === "https:" || url.protocol === "http:") return url.toString();
    } catch {
      // not a URL: fall through to the coordinates
    }
  }
  return `https://www.google.com/maps/search/?api=1&query=${point.lat},${point.lng}`;
}
