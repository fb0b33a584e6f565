/**
 * The map's backdrop for when tiles cannot load (offline, blocked, or no tile server configured:
 * docs/product.md section 9): the US state outlines, their postal codes and the searched place,
 * drawn in a pane under the tiles, so tiles that do load cover it and failed ones reveal it, and
 * the markers (above both) never hide behind it. Part of the Leaflet chunk; the outlines
 * themselves are fetched only when first needed (STATE_OUTLINES_URL, about 16 kB gzipped), once
 * per page.
 */
import L from "leaflet";
import { STATE_OUTLINES_URL, decodeStateOutlines, type StateOutlineShape } from "../../lib/state-outlines";

export const BACKDROP_PANE = "rvBackdrop";
/** Under the tile pane (200), over the map's background. */
const BACKDROP_Z_INDEX = 150;
/** Postal codes at the states' centres help from country to region zoom; closer in they only clutter. */
const STATE_LABEL_MAX_ZOOM = 8;

export interface BackdropPlace {
  lat: number;
  lng: number;
  label: string;
}

let outlines: Promise<StateOutlineShape[]> | undefined;

function loadOutlines(): Promise<StateOutlineShape[]> {
  outlines ??= fetch(STATE_OUTLINES_URL)
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`${STATE_OUTLINES_URL}: HTTP ${res.status}`))))
    .then(decodeStateOutlines)
    .catch((error: unknown) => {
      // Offline with nothing cached: the plain background stays; a later map may try again.
      outlines = undefined;
      console.warn("The state outlines could not be loaded", error);
      return [];
    });
  return outlines;
}

/**
 * A text label at a point. Inline styles, because Leaflet's unlayered stylesheet outranks
 * Tailwind's layered utilities inside the map; the icon box has no size, and the text is moved
 * onto the point (`shift`) from its top-left corner.
 */
function textLabel(text: string, style: string, shift: string): L.DivIcon {
  const span = document.createElement("span");
  span.textContent = text;
  span.style.cssText = `display:block;white-space:nowrap;transform:${shift};${style}`;
  return L.divIcon({ html: span, className: "rv-map-backdrop-label", iconSize: undefined });
}

const STATE_LABEL_STYLE = "font-size:11px;font-weight:600;letter-spacing:0.05em;color:#64748b";
const PLACE_LABEL_STYLE =
  "font-size:13px;font-weight:600;color:#0f172a;background:rgb(255 255 255 / 0.85);padding:1px 6px;border-radius:4px";

/** Draws the backdrop on `map` (its pane is created on first use); returns the undo. */
export function drawOfflineBackdrop(map: L.Map, place: BackdropPlace | null | undefined): () => void {
  let pane = map.getPane(BACKDROP_PANE);
  if (!pane) {
    pane = map.createPane(BACKDROP_PANE);
    pane.style.zIndex = String(BACKDROP_Z_INDEX);
    pane.style.pointerEvents = "none";
    // Like the tiles: pictures of what the result list says in words.
    pane.setAttribute("aria-hidden", "true");
  }
  const layer = L.layerGroup().addTo(map);
  const labels = L.layerGroup();
  const renderer = L.svg({ pane: BACKDROP_PANE, padding: 0.5 });
  let cancelled = false;

  const placeDot = place
    ? L.circleMarker([place.lat, place.lng], {
        pane: BACKDROP_PANE,
        renderer,
        radius: 6,
        color: "#1e293b",
        weight: 2,
        fillColor: "#ffffff",
        fillOpacity: 1,
        interactive: false,
      }).addTo(layer)
    : null;
  if (place) {
    L.marker([place.lat, place.lng], {
      pane: BACKDROP_PANE,
      icon: textLabel(place.label, PLACE_LABEL_STYLE, "translate(10px, -50%)"),
      interactive: false,
      keyboard: false,
    }).addTo(layer);
  }

  const showLabels = () => {
    const wanted = map.getZoom() <= STATE_LABEL_MAX_ZOOM;
    if (wanted && !layer.hasLayer(labels)) layer.addLayer(labels);
    else if (!wanted && layer.hasLayer(labels)) layer.removeLayer(labels);
  };

  void loadOutlines().then((states) => {
    if (cancelled) return;
    for (const state of states) {
      L.polygon(state.rings, {
        pane: BACKDROP_PANE,
        renderer,
        // Land white on the slate background, borders a quiet slate: a sketch, not a second map.
        color: "#94a3b8",
        weight: 1,
        fillColor: "#ffffff",
        fillOpacity: 1,
        interactive: false,
        smoothFactor: 1,
      }).addTo(layer);
      L.marker([state.label.lat, state.label.lng], {
        pane: BACKDROP_PANE,
        icon: textLabel(state.code, STATE_LABEL_STYLE, "translate(-50%, -50%)"),
        interactive: false,
        keyboard: false,
      }).addTo(labels);
    }
    // Drawn after the outlines, so their white land does not cover it.
    placeDot?.bringToFront();
    showLabels();
  });
  map.on("zoomend", showLabels);

  return () => {
    cancelled = true;
    map.off("zoomend", showLabels);
    layer.remove();
  };
}
