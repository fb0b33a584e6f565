/**
 * URL slugs (docs/product.md section 5). Browser-safe and pure.
 *
 * Results pages: `/rv-storage/{city}-{st}` or `/rv-storage/{st}`.
 * Detail pages: `/location/{name}-{area}-{st}-{placeid}`, where the place id is the final piece.
 */

/** Lower-case, non-word characters removed, spaces/underscores/dashes collapsed to single dashes. */
export function slugify(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^\w\s-]/g, "")
      .replace(/[\s_-]+/g, "-")
      // Runs are single dashes by now; `-+$` would rescan a run of dashes from each of its starts.
      .replace(/^-|-$/g, "")
  );
}

/** Whitespace is trimmed first, so the pattern needs no `\s*` on either side of the ZIP. */
const TRAILING_ZIP = /\b\d{5}(?:-\d{4})?$/;

/** Strips a trailing US ZIP (5 digits, optionally 4 more) from an address part. */
export function stripZip(part: string): string {
  return part.trim().replace(TRAILING_ZIP, "").trim();
}

/** A place id piece: longer than 10 characters of letters, digits, underscore or dash. */
export const PLACE_ID_PATTERN = /^[A-Za-z0-9_-]{11,}$/;

export function isPlaceId(piece: string): boolean {
  return PLACE_ID_PATTERN.test(piece);
}

export interface LocationSlugInput {
  name: string;
  /** The town or area; falls back to the address's second-to-last part. */
  area?: string | null;
  state?: string | null;
  placeId: string;
}

export function buildLocationSlug({ name, area, state, placeId }: LocationSlugInput): string {
  const parts = [slugify(name), area ? slugify(stripZip(area)) : "", state ? slugify(state) : ""].filter(Boolean);
  // Place ids are case-sensitive and may hold dashes; the slug keeps a lower-cased, dash-free
  // copy as its last piece, and the page looks the slug up rather than rebuilding the id.
  const id = placeId.toLowerCase().replace(/[^a-z0-9_]/g, "");
  return [...parts, id].join("-");
}

export interface ParsedLocationSlug {
  /** The lower-cased place id piece (the last piece), when it looks like one. */
  placeIdPiece?: string;
  city?: string;
  state?: string;
}

/** Parses a detail slug back to its place id piece, and the city and state before it. */
export function parseLocationSlug(slug: string): ParsedLocationSlug {
  const pieces = slug.toLowerCase().split("-").filter(Boolean);
  const last = pieces.at(-1);
  if (!last || !isPlaceId(last)) return {};
  const rest = pieces.slice(0, -1);
  const state = rest.at(-1);
  if (!state || !/^[a-z]{2}$/.test(state)) return { placeIdPiece: last };
  return { placeIdPiece: last, state: state.toUpperCase() };
}

/** Results-page slug: 'austin-tx' for a place, 'tx' for a whole state. */
export function buildPlaceSlug(city: string | null | undefined, state: string): string {
  const st = state.toLowerCase();
  return city ? `${slugify(city)}-${st}` : st;
}

export interface ParsedPlaceSlug {
  /** The city part with dashes turned back into spaces ('san antonio'), absent for a state page. */
  city?: string;
  state: string;
}

/** Parses a results-page slug; undefined when it does not end in a two-letter region code. */
export function parsePlaceSlug(slug: string): ParsedPlaceSlug | undefined {
  const clean = slugify(slug);
  const match = /^(?:(.+)-)?([a-z]{2})$/.exec(clean);
  if (!match?.[2]) return undefined;
  const city = match[1]?.replace(/-/g, " ").trim();
  return city ? { city, state: match[2].toUpperCase() } : { state: match[2].toUpperCase() };
}
