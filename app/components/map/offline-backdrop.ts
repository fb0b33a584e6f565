/**
 * The map's backdrop for when tiles cannot load (offline, blocked, or no tile server configured:
 * docs/product.md section 9): the US state outlines, their postal codes, the biggest towns (more
 * as the visitor zooms in) and the searched place,
 * drawn in a pane under the tiles, so tiles that do load cover it and failed ones reveal it, and
 * the markers (above both) never hide behind it. Part of the Leaflet chunk; the outlines
 * themselves are fetched only when first needed (STATE_OUTLINES_URL, about 20 kB gzipped), once
 * per page.
 */
import L from "leaflet";
import {
  STATE_OUTLINES_URL,
  decodeStateOutlines,
  type BackdropTown,
  type StateOutlineShape,
} from "../../../domain/state-outlines";

export const BACKDROP_PANE = "rvBackdrop";
/** Under the tile pane (200), over the map's background. */
const BACKDROP_Z_INDEX = 150;
/** Postal codes at the states' centres help from country to region zoom; closer in they only clutter. */
const STATE_LABEL_MAX_ZOOM = 8;

/** The smallest town named at a zoom: the big cities first, more as the visitor zooms in. */
function minTownPopulation(zoom: number): number {
  if (zoom <= 4) return 1_000_000;
  if (zoom <= 5) return 500_000;
  if (zoom <= 6) return 250_000;
  return 0;
}

export interface BackdropPlace {
  lat: number;
  lng: number;
  label: string;
}

type Backdrop = { states: StateOutlineShape[]; towns: BackdropTown[] };

let outlines: Promise<Backdrop> | undefined;

function loadOutlines(): Promise<Backdrop> {
  outlines ??= fetch(STATE_OUTLINES_URL)
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`${STATE_OUTLINES_URL}: HTTP ${res.status}`))))
    .then(decodeStateOutlines)
    .catch((error: unknown) => {
      // Offline with nothing cached: the plain background stays; a later map may try again.
      outlines = undefined;
      console.warn("The state outlines could not be loaded", error);
      return { states: [], towns: [] };
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

/**
 * A text marker that is not a marker: Leaflet gives every marker's element `leaflet-marker-icon`,
 * which pages and tests read as "a pin"; a label takes `rv-map-label` instead (with the two
 * rules of Leaflet's that placed it).
 */
function labelMarker(at: L.LatLngExpression, icon: L.DivIcon): L.Marker {
  const marker = L.marker(at, {
    pane: BACKDROP_PANE,
    icon,
    interactive: false,
    keyboard: false,
    zIndexOffset: LABEL_Z_OFFSET,
  });
  marker.on("add", () => {
    const element = marker.getElement();
    if (!element) return;
    element.classList.replace("leaflet-marker-icon", "rv-map-label");
    element.style.position = "absolute";
    element.style.left = "0";
    element.style.top = "0";
  });
  return marker;
}

const STATE_LABEL_STYLE = "font-size:11px;font-weight:600;letter-spacing:0.05em;color:#64748b";
/**
 * Leaflet gives a marker the z-index of its y position, negative above the map's origin, which
 * would put a label behind the outlines' SVG; this lifts every label above it.
 */
const LABEL_Z_OFFSET = 1_000_000;
const TOWN_LABEL_STYLE = "font-size:12px;color:#334155;text-shadow:0 0 2px #fff,0 0 2px #fff";
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
    labelMarker([place.lat, place.lng], textLabel(place.label, PLACE_LABEL_STYLE, "translate(10px, -50%)")).addTo(
      layer,
    );
  }

  const townLayer = L.layerGroup().addTo(layer);
  let towns: BackdropTown[] = [];
  let shownMin = -1;
  const showLabels = () => {
    const zoom = map.getZoom();
    const wanted = zoom <= STATE_LABEL_MAX_ZOOM;
    if (wanted && !layer.hasLayer(labels)) layer.addLayer(labels);
    else if (!wanted && layer.hasLayer(labels)) layer.removeLayer(labels);
    const min = minTownPopulation(zoom);
    if (min === shownMin) return;
    shownMin = min;
    townLayer.clearLayers();
    // Greedy, most populous first: a town whose label would overlap a bigger one's is left out.
    const taken: { x: number; y: number; w: number }[] = [];
    if (place) {
      const at = map.project([place.lat, place.lng], zoom);
      taken.push({ x: at.x, y: at.y, w: place.label.length * 7.5 + 16 });
    }
    for (const town of towns) {
      if (town.population < min) break;
      // The searched town is already written, in bold.
      if (place && place.label.startsWith(`${town.name},`) && Math.abs(place.lat - town.lat) < 0.2) continue;
      const at = map.project([town.lat, town.lng], zoom);
      const box = { x: at.x, y: at.y, w: town.name.length * 6.5 + 10 };
      if (taken.some((t) => Math.abs(t.y - box.y) < 16 && box.x < t.x + t.w && t.x < box.x + box.w)) continue;
      taken.push(box);
      L.circleMarker([town.lat, town.lng], {
        pane: BACKDROP_PANE,
        renderer,
        radius: 2.5,
        stroke: false,
        fillColor: "#475569",
        fillOpacity: 1,
        interactive: false,
      }).addTo(townLayer);
      labelMarker([town.lat, town.lng], textLabel(town.name, TOWN_LABEL_STYLE, "translate(6px, -50%)")).addTo(
        townLayer,
      );
    }
  };

  void loadOutlines().then(({ states, towns: loaded }) => {
    if (cancelled) return;
    towns = loaded;
    shownMin = -1;
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
      labelMarker(
        [state.label.lat, state.label.lng],
        textLabel(state.code, STATE_LABEL_STYLE, "translate(-50%, -50%)"),
      ).addTo(labels);
    }
    showLabels();
    // Drawn after the outlines and towns, so their white land does not cover it.
    placeDot?.bringToFront();
  });
  map.on("zoomend", showLabels);

  return () => {
    cancelled = true;
    map.off("zoomend", showLabels);
    layer.remove();
  };
}
