/**
 * Marker and cluster artwork as HTML strings for Leaflet's divIcon. Inline SVG instead of
 * Leaflet's default marker PNGs: those are fetched from a path guessed at run time, which breaks
 * under a bundler, and nothing here may come from another host.
 */
import { MARKER_COLOR } from "./map-view";
import { formatNumber } from "../../lib/format";

export const PIN_WIDTH = 28;
export const PIN_HEIGHT = 40;

/** A teardrop pin with a white dot; the white outline keeps it visible on any tile colour. */
export const PIN_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" width="${PIN_WIDTH}" height="${PIN_HEIGHT}" viewBox="0 0 28 40" ` +
  `aria-hidden="true" focusable="false" style="display:block;filter:drop-shadow(0 1px 1.5px rgb(15 23 42 / 0.35))">` +
  `<path d="M14 1.25C7 1.25 1.25 6.9 1.25 13.9c0 9.4 11.3 22.5 12.1 23.4a.85.85 0 0 0 1.3 0c.8-.9 12.1-14 12.1-23.4C26.75 6.9 21 1.25 14 1.25z" ` +
  `fill="${MARKER_COLOR}" stroke="#fff" stroke-width="2.5"/>` +
  `<circle cx="14" cy="13.9" r="4.75" fill="#fff"/></svg>`;

/** Diameter in pixels: larger clusters read as "more" at a glance. */
export function clusterSize(count: number): number {
  if (count < 10) return 34;
  if (count < 100) return 40;
  if (count < 1000) return 48;
  return 56;
}

export function clusterLabel(count: number): string {
  return count >= 10_000 ? `${Math.round(count / 1000)}k` : formatNumber(count);
}

/**
 * The cluster bubble. Colours are inline styles because Leaflet's stylesheet is unlayered and
 * would otherwise win over Tailwind's layered utilities inside the map.
 */
export function clusterHtml(count: number): string {
  const size = clusterSize(count);
  return (
    `<div aria-hidden="true" style="width:${size}px;height:${size}px;background:${MARKER_COLOR};` +
    `box-shadow:0 0 0 4px rgb(70 104 242 / 0.3),0 1px 3px rgb(15 23 42 / 0.35)" ` +
    `class="flex items-center justify-center rounded-full border-2 border-white text-sm font-semibold text-white">` +
    `${clusterLabel(count)}</div>`
  );
}

/** A highlighted pin (its result card is hovered or focused): darker and larger, from its tip. */
export const HIGHLIGHT_COLOR = "#0f172a";

/** Restyles a pin's element in place (keeping its focus, if any); returns the undo. */
export function highlightPin(element: HTMLElement): () => void {
  const svg = element.querySelector("svg");
  const path = svg?.querySelector("path");
  if (!svg || !path) return () => {};
  path.setAttribute("fill", HIGHLIGHT_COLOR);
  svg.style.transformOrigin = "50% 100%";
  svg.style.transform = "scale(1.3)";
  element.dataset.highlighted = "true";
  return () => {
    path.setAttribute("fill", MARKER_COLOR);
    svg.style.transform = "";
    delete element.dataset.highlighted;
  };
}

/** Restyles a cluster bubble holding the highlighted location; returns the undo. */
export function highlightCluster(element: HTMLElement): () => void {
  const bubble = element.firstElementChild as HTMLElement | null;
  if (!bubble) return () => {};
  const background = bubble.style.background;
  bubble.style.background = HIGHLIGHT_COLOR;
  element.dataset.highlighted = "true";
  return () => {
    bubble.style.background = background;
    delete element.dataset.highlighted;
  };
}
