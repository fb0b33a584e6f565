import { AMENITY_LABELS, type AmenityFlag } from "../../domain/amenities";
import { imageRefFromUrl } from "../../domain/images";
import {
  AVAILABILITY_LABELS,
  LISTING_FIELD_LABELS,
  priceLabel,
  type Availability,
  type ChangeLine,
  type ListingField,
  type SizeOffer,
} from "../../domain/listings";

/**
 * A revision's or pending change's values in words (docs/product.md section 10), for the admin's
 * moderation screens and the owner's history: what a person reads, not the stored JSON.
 */
export const EMPTY_VALUE = "(empty)";

/** At most this many characters of one value are shown; the rest is cut with an ellipsis. */
export const MAX_SHOWN_VALUE = 600;

export const fieldLabel = (field: string) => LISTING_FIELD_LABELS[field as ListingField] ?? field;

const cut = (text: string) => (text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE - 1)}…` : text);

function sizeText(size: SizeOffer): string {
  const parts = [`${size.width}' x ${size.length}'`];
  const price = priceLabel(size.monthlyPrice ?? null);
  if (price) parts.push(price);
  if (size.availability) parts.push(AVAILABILITY_LABELS[size.availability as Availability] ?? size.availability);
  return parts.join(" · ");
}

/** A photo list by the numbers in its file names, in order: "3 photos: #4, #1, #2" (the first is the main photo). */
function photosText(urls: readonly unknown[]): string {
  const numbers = urls.map((url) => {
    const ref = typeof url === "string" ? imageRefFromUrl(url) : undefined;
    return ref ? `#${ref.index}` : "?";
  });
  return cut(`${urls.length} ${urls.length === 1 ? "photo" : "photos"}: ${numbers.join(", ")}`);
}

export function describeValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return EMPTY_VALUE;
  if (field === "photos" && Array.isArray(value)) return value.length === 0 ? "No photos" : photosText(value);
  if (Array.isArray(value)) {
    if (value.length === 0)
      return field === "amenities" ? "None" : field === "gateHours" ? "Same as the office hours" : EMPTY_VALUE;
    if (field === "amenities") return cut(value.map((f) => AMENITY_LABELS[f as AmenityFlag] ?? String(f)).join(", "));
    if (field === "sizes") return cut(value.map((s) => sizeText(s as SizeOffer)).join("; "));
    return cut(value.map(String).join("; "));
  }
  if (field === "coveredClearanceFeet" && typeof value === "number") return `${value} ft`;
  if (typeof value === "object") return cut(JSON.stringify(value));
  return cut(String(value));
}

export type { ChangeLine };

/**
 * One line per changed field, before → after. Latitude and longitude make one "Map position" line
 * with both numbers on each side, so a reviewer sees the whole point even when one number moved.
 */
export function changeLines(
  fields: readonly string[],
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): ChangeLine[] {
  const lines: ChangeLine[] = [];
  const known = (v: unknown) => v !== null && v !== undefined;
  const coordinate = (values: Record<string, unknown>, fallback: Record<string, unknown>, key: string) =>
    key in values ? values[key] : fallback[key];
  const point = (values: Record<string, unknown>, fallback: Record<string, unknown>) => {
    const lat = coordinate(values, fallback, "latitude");
    const lng = coordinate(values, fallback, "longitude");
    if (!known(lat) && !known(lng)) return EMPTY_VALUE;
    return known(lat) && known(lng) ? `${String(lat)}, ${String(lng)}` : null;
  };
  const pointBefore = point(before, after);
  const pointAfter = point(after, before);
  const together = pointBefore !== null && pointAfter !== null;
  let pointShown = false;
  for (const field of fields) {
    if (together && (field === "latitude" || field === "longitude")) {
      if (pointShown) continue;
      pointShown = true;
      lines.push({ label: "Map position", before: pointBefore, after: pointAfter });
      continue;
    }
    lines.push({
      label: fieldLabel(field),
      before: describeValue(field, before[field]),
      after: describeValue(field, after[field]),
    });
  }
  return lines;
}
