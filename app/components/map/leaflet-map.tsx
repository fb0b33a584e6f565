/**
 * The interactive part of the results map. Only the browser ever loads this module: results-map.tsx
 * imports it lazily, because Leaflet touches `window` as soon as it is imported, and because
 * Leaflet, supercluster and Leaflet's stylesheet (imported here, so Vite puts it in this chunk)
 * are not needed for the page's first paint.
 *
 * Leaflet is driven directly rather than through react-leaflet: markers are diffed imperatively
 * on every move, which keeps a few thousand locations cheap, and nothing here needs React state.
 */
import L from "leaflet";
import "leaflet/dist/leaflet.css";
import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import Supercluster, { type ClusterFeature, type PointFeature } from "supercluster";
import {
  PIN_HEIGHT,
  PIN_SVG,
  PIN_WIDTH,
  clusterHtml,
  clusterSize,
  highlightCluster,
  highlightPin,
} from "./map-marker-icon";
import { drawOfflineBackdrop, type BackdropPlace } from "./offline-backdrop";
import { DEFAULT_CENTER, DEFAULT_ZOOM, MAX_ZOOM, type MapMarker, type MapView } from "./map-view";
import { buildPopupContent } from "./marker-popup";
import { formatNumber } from "../../lib/format";

export interface LeafletMapProps {
  /** Only markers with usable coordinates; a new array means new data (results-map keeps it stable). */
  markers: MapMarker[];
  /** A new object means "move the map there" (results-map keeps it stable while equal). */
  view: MapView;
  tileUrl: string;
  attribution: string;
  onMarkerFocus?(id: string): void;
  /** The searched place, written on the offline backdrop (results-map keeps it stable while equal). */
  place?: BackdropPlace | null;
  /** A marker to set apart (its card is hovered or focused), or the cluster that holds it. */
  highlightedId?: string | null;
  /**
   * A map that shows one place rather than a set to explore (a facility's location map): pins
   * are plain pictures without popups or focus stops, and the page scrolls over the map instead
   * of the wheel (or a finger, on phones) zooming and panning it.
   */
  fixed?: boolean;
  /** Called once the map exists. Must be a stable function: a new one would rebuild the map. */
  onReady(): void;
  /**
   * Called after each move: with the area now on screen once the visitor has panned or zoomed away
   * from the view the map was given (a quarter of the frame or a zoom step), with null when the map
   * shows that view again. Never for a `fixed` map.
   */
  onAreaChange?(area: MapArea | null): void;
}

/** An area of the map as a search can take it: its centre and the radius that covers the frame. */
export interface MapArea {
  lat: number;
  lng: number;
  radiusMiles: number;
}

const METRES_PER_MILE = 1609.344;

/** The frame's centre and the distance to its farthest corner, in whole miles (at least 1). */
function areaOnScreen(map: L.Map): MapArea {
  const center = map.getCenter().wrap();
  const corner = map.getBounds().getNorthEast();
  return {
    lat: Math.round(center.lat * 1e4) / 1e4,
    lng: Math.round(center.lng * 1e4) / 1e4,
    radiusMiles: Math.max(1, Math.ceil(map.getCenter().distanceTo(corner) / METRES_PER_MILE)),
  };
}

/** Beyond this zoom every location gets its own pin (the map itself goes to MAX_ZOOM). */
const CLUSTER_MAX_ZOOM = 16;
/**
 * Supercluster measures its radius against a 512-unit tile by default; Leaflet's tiles are 256 px,
 * so an extent of 256 makes the radius plain screen pixels.
 */
const CLUSTER_OPTIONS = { radius: 60, extent: 256, maxZoom: CLUSTER_MAX_ZOOM, minPoints: 2 } as const;
/** Keep markers just outside the view, so short pans do not make pins pop in. */
const BOUNDS_PADDING = 0.25;
const FIT_PADDING: L.PointTuple = [32, 32];
/** Light slate: with tiles missing (offline, blocked) the map is a plain, intentional-looking sheet. */
const MAP_BACKGROUND = "#f1f5f9";

interface PointProps {
  /** Index into `markers`. */
  i: number;
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function applyView(map: L.Map, view: MapView, animate: boolean) {
  if (view.kind === "center") {
    map.setView([view.center.lat, view.center.lng], view.zoom, { animate });
  } else {
    const bounds = L.latLngBounds([view.southWest.lat, view.southWest.lng], [view.northEast.lat, view.northEast.lng]);
    map.fitBounds(bounds, { maxZoom: view.maxZoom, padding: FIT_PADDING, animate });
  }
}

const pinIcon = () =>
  L.divIcon({
    html: PIN_SVG,
    // Replaces Leaflet's `leaflet-div-icon`, which would draw a white box behind the pin.
    className: "rv-map-pin",
    iconSize: [PIN_WIDTH, PIN_HEIGHT],
    iconAnchor: [PIN_WIDTH / 2, PIN_HEIGHT - 1],
    popupAnchor: [0, -PIN_HEIGHT + 4],
  });

function clusterIcon(count: number) {
  const size = clusterSize(count);
  return L.divIcon({ html: clusterHtml(count), className: "rv-map-cluster", iconSize: [size, size] });
}

function isCluster(
  feature: ClusterFeature<Record<string, never>> | PointFeature<PointProps>,
): feature is ClusterFeature<Record<string, never>> {
  return "cluster" in feature.properties && feature.properties.cluster === true;
}

export default function LeafletMap({
  markers,
  view,
  tileUrl,
  attribution,
  onMarkerFocus,
  place,
  highlightedId = null,
  fixed = false,
  onReady,
  onAreaChange,
}: LeafletMapProps) {
  const [map, setMap] = useState<L.Map | null>(null);
  /** A tile failed to load: offline, blocked, or the tile server is down. */
  const [tilesFailed, setTilesFailed] = useState(false);
  const markerFocused = useEffectEvent((id: string) => onMarkerFocus?.(id));
  /** The map that has had its first view: only later view changes (a new search) animate. */
  const viewed = useRef<L.Map | null>(null);
  /** The highlighted marker's id, for the marker effect's moves; `restyle` applies a change. */
  const highlighted = useRef<string | null>(highlightedId);
  const restyle = useRef<(() => void) | null>(null);
  /** The view was set by the page, not the visitor: the next move end is the new baseline. */
  const settingView = useRef(false);
  const areaChanged = useEffectEvent((area: MapArea | null) => onAreaChange?.(area));

  // A ref callback rather than an effect: the map exists as soon as its element does, and an error
  // thrown here (Leaflet failing to start) reaches results-map's error boundary.
  const attach = useCallback(
    (node: HTMLDivElement | null) => {
      if (!node) return;
      const reduced = prefersReducedMotion();
      const created = L.map(node, {
        center: [DEFAULT_CENTER.lat, DEFAULT_CENTER.lng],
        zoom: DEFAULT_ZOOM,
        minZoom: 2,
        maxZoom: MAX_ZOOM,
        keyboard: true,
        zoomAnimation: !reduced,
        fadeAnimation: !reduced,
        markerZoomAnimation: !reduced,
        inertia: !reduced,
        scrollWheelZoom: !fixed,
        dragging: !(fixed && L.Browser.mobile),
      });
      // Tiles are pictures of the same places the result list names; screen readers skip them.
      created.getPane("tilePane")?.setAttribute("aria-hidden", "true");
      // Leaflet only handles Escape while the map element itself has focus; a focused pin or a
      // link inside the popup should close the popup too.
      const closeOnEscape = (e: KeyboardEvent) => {
        if (e.key === "Escape") created.closePopup();
      };
      node.addEventListener("keydown", closeOnEscape);
      setMap(created);
      onReady();
      return () => {
        node.removeEventListener("keydown", closeOnEscape);
        setMap(null);
        created.remove();
      };
    },
    [onReady, fixed],
  );

  // "Search this area": how far the visitor has taken the map from the view it was given. Listens
  // before the view effect below sets the first view, whose move end is the first baseline.
  useEffect(() => {
    if (!map || fixed) return;
    let baseline = { center: map.getCenter(), zoom: map.getZoom() };
    const onMoveEnd = () => {
      if (settingView.current) {
        settingView.current = false;
        baseline = { center: map.getCenter(), zoom: map.getZoom() };
        areaChanged(null);
        return;
      }
      const size = map.getSize();
      const shift = map.latLngToContainerPoint(baseline.center).distanceTo(size.divideBy(2));
      const moved = map.getZoom() !== baseline.zoom || shift > Math.min(size.x, size.y) / 4;
      areaChanged(moved ? areaOnScreen(map) : null);
    };
    map.on("moveend", onMoveEnd);
    return () => {
      map.off("moveend", onMoveEnd);
    };
  }, [map, fixed]);

  // The view goes first, so that the markers below are computed for where the map ends up.
  useEffect(() => {
    if (!map) return;
    const container = map.getContainer();
    const hasSize = () => container.clientWidth > 0 && container.clientHeight > 0;
    // A hidden map (display: none behind the mobile toggle) has no size to fit bounds into; it
    // gets its view when it is shown.
    let pending = !hasSize();
    const animate = viewed.current === map && !prefersReducedMotion();
    viewed.current = map;
    if (!pending) {
      settingView.current = true;
      applyView(map, view, animate);
    }
    const observer = new ResizeObserver(() => {
      // A removed map has no panes: a last notification can arrive after the element's cleanup
      // removed the map and before this effect's (seen leaving a results page), and Leaflet
      // would throw on it.
      if (!map.getPane("mapPane")) return;
      // A new frame size moves the centre: not the visitor's move (its move end, if any, is sync).
      // The flag goes back to what it was: a view set just before and still animating must keep
      // its own move end from counting as the visitor's ("Search this area" showed after a search).
      const setting = settingView.current;
      settingView.current = true;
      map.invalidateSize({ animate: false });
      settingView.current = setting;
      if (pending && hasSize()) {
        pending = false;
        settingView.current = true;
        applyView(map, view, false);
      }
    });
    observer.observe(container);
    return () => observer.disconnect();
  }, [map, view]);

  useEffect(() => {
    if (!map || markers.length === 0) return;
    const index = new Supercluster<PointProps, Record<string, never>>(CLUSTER_OPTIONS).load(
      markers.map((m, i) => ({
        type: "Feature" as const,
        properties: { i },
        geometry: { type: "Point" as const, coordinates: [m.lng, m.lat] },
      })),
    );
    const layer = L.layerGroup().addTo(map);
    const icon = pinIcon();
    /** What is on the map now, by feature key, so each move only adds and removes the difference. */
    const shown = new Map<string, L.Marker>();
    const indexById = new Map(markers.map((m, i) => [m.id, i]));
    /** The marker drawn highlighted now, and how to draw it plain again. */
    let lit: { marker: L.Marker; undo: () => void } | null = null;

    /** The shown marker for point `i`: its own pin, else the cluster it is in (at most 500 leaves). */
    const shownFor = (i: number): { marker: L.Marker; cluster: boolean } | undefined => {
      const own = shown.get(`p${i}`);
      if (own) return { marker: own, cluster: false };
      for (const [key, marker] of shown) {
        if (!key.startsWith("c")) continue;
        const leaves = index.getLeaves(Number(key.slice(1)), Infinity);
        if (leaves.some((leaf) => leaf.properties.i === i)) return { marker, cluster: true };
      }
      return undefined;
    };
    const applyHighlight = () => {
      const i = highlighted.current === null ? undefined : indexById.get(highlighted.current);
      const found = i === undefined ? undefined : shownFor(i);
      if (found?.marker === lit?.marker) return;
      lit?.undo();
      lit = null;
      const element = found?.marker.getElement();
      if (!found || !element) return;
      const target = found.marker;
      const undoLook = found.cluster ? highlightCluster(element) : highlightPin(element);
      // In front of its neighbours, which may overlap it.
      target.setZIndexOffset(10_000);
      lit = {
        marker: target,
        undo: () => {
          undoLook();
          target.setZIndexOffset(0);
        },
      };
    };
    restyle.current = applyHighlight;

    const pointMarker = (m: MapMarker) => {
      // The place the whole page is about: a picture, not a control (the frame carries the label).
      if (fixed) return L.marker([m.lat, m.lng], { icon, interactive: false, keyboard: false });
      const marker = L.marker([m.lat, m.lng], { icon, title: m.name, keyboard: true, riseOnHover: true });
      // Built when opened: thousands of popups nobody opens would cost memory for nothing.
      marker.bindPopup(() => buildPopupContent(m), { maxWidth: 260, minWidth: 160 });
      marker.on("popupopen", (e) => {
        markerFocused(m.id);
        // Opened from the keyboard (Enter on the focused pin): move focus into the popup.
        if (document.activeElement === marker.getElement()) {
          e.popup.getElement()?.querySelector<HTMLAnchorElement>(".leaflet-popup-content a")?.focus();
        }
      });
      marker.on("popupclose", (e) => {
        // Closed with Escape or the close button: give focus back to the pin instead of the page.
        const active = document.activeElement;
        if (active === document.body || (active && e.popup.getElement()?.contains(active))) {
          marker.getElement()?.focus({ preventScroll: true });
        }
      });
      return marker;
    };

    const clusterMarker = (id: number, count: number, lat: number, lng: number) => {
      const marker = L.marker([lat, lng], {
        icon: clusterIcon(count),
        title: `${formatNumber(count)} locations. Press Enter to zoom in.`,
        keyboard: true,
        riseOnHover: true,
      });
      const zoomIn = () => {
        const zoom = Math.min(index.getClusterExpansionZoom(id), map.getMaxZoom());
        // This cluster disappears after the zoom; keep keyboard focus inside the map.
        if (document.activeElement === marker.getElement()) map.getContainer().focus({ preventScroll: true });
        map.setView([lat, lng], zoom, { animate: !prefersReducedMotion() });
      };
      marker.on("click", zoomIn);
      marker.on("keypress", (e) => {
        const key = (e as L.LeafletKeyboardEvent).originalEvent.key;
        if (key === "Enter" || key === " ") {
          (e as L.LeafletKeyboardEvent).originalEvent.preventDefault();
          zoomIn();
        }
      });
      return marker;
    };

    const update = () => {
      const b = map.getBounds().pad(BOUNDS_PADDING);
      const features = index.getClusters(
        [b.getWest(), Math.max(b.getSouth(), -90), b.getEast(), Math.min(b.getNorth(), 90)],
        Math.round(map.getZoom()),
      );
      const next = new Set<string>();
      for (const feature of features) {
        const [lng, lat] = feature.geometry.coordinates as [number, number];
        let key: string;
        let make: () => L.Marker | undefined;
        if (isCluster(feature)) {
          const { cluster_id: id, point_count: count } = feature.properties;
          key = `c${id}`;
          make = () => clusterMarker(id, count, lat, lng);
        } else {
          const i = feature.properties.i;
          key = `p${i}`;
          make = () => {
            const m = markers[i];
            return m && pointMarker(m);
          };
        }
        next.add(key);
        if (shown.has(key)) continue;
        const marker = make();
        if (!marker) continue;
        shown.set(key, marker);
        layer.addLayer(marker);
      }
      for (const [key, marker] of shown) {
        if (!next.has(key)) {
          if (lit?.marker === marker) lit = null;
          layer.removeLayer(marker);
          shown.delete(key);
        }
      }
      applyHighlight();
    };

    // Leaflet fires moveend after every pan and every zoom, so this one event covers zoomend too.
    map.on("moveend", update);
    update();
    return () => {
      map.off("moveend", update);
      restyle.current = null;
      layer.remove();
    };
  }, [map, markers, fixed]);

  useEffect(() => {
    highlighted.current = highlightedId;
    restyle.current?.();
  }, [highlightedId]);

  useEffect(() => {
    if (!map || !tileUrl) return;
    const tiles = L.tileLayer(tileUrl, { attribution, maxZoom: MAX_ZOOM });
    // Offline or blocked tiles are not a map error: markers and clusters still work. Hide the
    // broken image so the backdrop below shows instead of a half-drawn grid.
    tiles.on("tileerror", (e) => {
      (e as L.TileErrorEvent).tile.style.visibility = "hidden";
      setTilesFailed(true);
    });
    tiles.addTo(map);
    return () => {
      tiles.remove();
    };
  }, [map, tileUrl, attribution]);

  // Without tiles (none configured, offline, blocked) the map is never a blank sheet: the state
  // outlines and the searched place are drawn under the tiles, which cover them where they load.
  const backdropNeeded = !tileUrl || tilesFailed;
  useEffect(() => {
    if (!map || (!backdropNeeded && navigator.onLine !== false)) return;
    return drawOfflineBackdrop(map, place);
  }, [map, backdropNeeded, place]);

  return (
    <div
      ref={attach}
      className="h-full w-full"
      // Inline, because Leaflet's unlayered stylesheet overrides Tailwind's layered utilities:
      // the site's font instead of Helvetica, the light background, and a focus ring drawn inside
      // the map so that the rounded frame around it does not clip it.
      style={{ background: MAP_BACKGROUND, fontFamily: "inherit", fontSize: "0.875rem", outlineOffset: "-3px" }}
    />
  );
}
