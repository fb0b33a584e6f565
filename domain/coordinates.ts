/**
 * Pure coordinate helpers (no Node imports), shared by the browser and the server.
 */

export interface LatLng {
  lat: number;
  lng: number;
}

/** Mean Earth radius in miles used for distances (docs/product.md section 9). */
export const EARTH_RADIUS_MILES = 3959;

const RAD = Math.PI / 180;

/** Great-circle distance in miles between two points (haversine, Earth radius 3959 miles). */
export function haversineMiles(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(s)));
}

export function isValidLatLng(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;
}

/** A decimal number, optionally signed, with an optional exponent ("1e-7" is what String() gives). */
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
/**
 * One coordinate: a number, an optional degree sign and hemisphere letter ("30.27° N"). Each piece
 * owns the whitespace after it, so no two quantifiers can take the same spaces (a pattern with
 * `\s*` on both sides of an optional piece backtracks for minutes on a line of spaces).
 * The first part keeps its trailing whitespace, which tells whether a separator followed it.
 */
const FIRST_PART = new RegExp(String.raw`^(${NUMBER})\s*(?:°\s*)?(?:([NSEWnsew])\s*)?`);
const SECOND_PART = new RegExp(String.raw`^(${NUMBER})\s*(?:°\s*)?([NSEWnsew])?$`);

const isSpace = (c: string | undefined) => c !== undefined && c.trim() === "";

/**
 * Splits "lat, lng" into its two parts without a pattern spanning both: brackets and outer
 * whitespace go first (`trim` removes exactly what `\s` matches), then the first part, then a
 * comma or at least one whitespace character, then the second part to the end.
 */
function matchParts(text: string): [RegExpExecArray, RegExpExecArray] | undefined {
  let rest = text.trim();
  if (rest.startsWith("(") || rest.startsWith("[")) rest = rest.slice(1).trimStart();
  if (rest.endsWith(")") || rest.endsWith("]")) rest = rest.slice(0, -1).trimEnd();
  const first = FIRST_PART.exec(rest);
  if (!first) return undefined;
  rest = rest.slice(first[0].length);
  if (rest.startsWith(",")) rest = rest.slice(1).trimStart();
  else if (!isSpace(first[0].at(-1))) return undefined;
  const second = SECOND_PART.exec(rest);
  return second ? [first, second] : undefined;
}

function applyHemisphere(value: number, hemisphere: string | undefined): number | undefined {
  if (hemisphere === undefined) return value;
  if (value < 0) return undefined; // "-30 S" is ambiguous: reject.
  return /[SWsw]/.test(hemisphere) ? -value : value;
}

/**
 * Parses "lat, lng" or "lat lng" (two decimal numbers separated by a comma or whitespace;
 * optional surrounding brackets, degree signs and N/S/E/W letters, "97.74 W, 30.27 N" swapped).
 * Returns undefined unless lat is within -90..90 and lng within -180..180.
 */
export function parseCoordinates(text: string): LatLng | undefined {
  const parts = matchParts(text);
  if (!parts) return undefined;
  const [[, firstRaw = "", firstHemi], [, secondRaw = "", secondHemi]] = parts;
  let first = applyHemisphere(Number(firstRaw), firstHemi);
  let second = applyHemisphere(Number(secondRaw), secondHemi);
  if (first === undefined || second === undefined) return undefined;
  const firstIsLng = firstHemi !== undefined && /[EWew]/.test(firstHemi);
  const secondIsLat = secondHemi !== undefined && /[NSns]/.test(secondHemi);
  const firstIsLat = firstHemi !== undefined && /[NSns]/.test(firstHemi);
  const secondIsLng = secondHemi !== undefined && /[EWew]/.test(secondHemi);
  if (firstIsLat && secondIsLat) return undefined;
  if (firstIsLng && secondIsLng) return undefined;
  if (firstIsLng || secondIsLat) [first, second] = [second, first];
  // Normalise -0 to 0.
  const lat = first + 0;
  const lng = second + 0;
  return isValidLatLng(lat, lng) ? { lat, lng } : undefined;
}

/** Formats a point as "lat, lng" with 4 decimals (about 11 m). */
export function formatCoordinates(point: LatLng, decimals = 4): string {
  return `${point.lat.toFixed(decimals)}, ${point.lng.toFixed(decimals)}`;
}
