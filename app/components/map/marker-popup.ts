/**
 * A marker's popup, built with DOM calls rather than an HTML string: names come from imported
 * listings, and text nodes cannot smuggle markup into the page.
 */
import type { MapMarker } from "./map-view";
import { formatNumber } from "../../lib/format";

/** "4.6 ★ (38 reviews)", or "No reviews yet" as on the result cards. */
export function ratingText(rating: number | null, reviewCount: number): string {
  if (rating === null || !Number.isFinite(rating) || reviewCount <= 0) return "No reviews yet";
  const reviews = `${formatNumber(reviewCount)} ${reviewCount === 1 ? "review" : "reviews"}`;
  return `${rating.toFixed(1)} ★ (${reviews})`;
}

/** Miles to one decimal (docs/product.md section 9). */
export function distanceText(miles: number | undefined): string | null {
  return miles === undefined || !Number.isFinite(miles) ? null : `${miles.toFixed(1)} mi away`;
}

export function buildPopupContent(marker: MapMarker): HTMLElement {
  const root = document.createElement("div");
  root.className = "min-w-40 max-w-60 space-y-1 text-sm leading-snug text-slate-700";

  const link = document.createElement("a");
  link.href = marker.href;
  link.textContent = marker.name;
  link.className = "block text-base font-semibold underline-offset-2 hover:underline";
  // Leaflet's unlayered `.leaflet-container a` colour beats Tailwind's layered text utilities.
  link.style.color = "#2540b0";
  root.append(link);

  // <div>, not <p>: Leaflet gives popup paragraphs a 1.3em margin from its unlayered stylesheet.
  const rating = document.createElement("div");
  rating.textContent = ratingText(marker.rating, marker.reviewCount);
  root.append(rating);

  const distance = distanceText(marker.distanceMiles);
  if (distance) {
    const line = document.createElement("div");
    line.className = "text-slate-600";
    line.textContent = distance;
    root.append(line);
  }
  return root;
}
