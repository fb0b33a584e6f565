/**
 * Parsing the search part of a URL query (zod). Kept apart from the search contract so that the
 * browser bundle, which needs only the contract's constants and types, does not carry zod.
 */
import { z } from "zod";
import { isAmenityFilter, type AmenityFilter } from "./amenities";
import { MAX_TEXT_FILTER_LENGTH, tooLongMessage } from "./input-limits";
import { LISTING_LIMITS } from "./listings";
import { parseMyRv } from "./rv-fit";
import { DEFAULT_RADIUS_MILES, MAX_RADIUS_MILES, PAGE_SIZE, SORTS, type SearchFilters, type SortOrder } from "./search";
import { SIZE_OPTIONS_LIST, type SizeOption } from "./sizes";

const number = (name: string) =>
  z
    .string()
    .trim()
    .min(1, `${name} must not be empty`)
    .transform(Number)
    .refine((n) => Number.isFinite(n), `${name} must be a number`);

const single = (params: URLSearchParams, key: string) => {
  const all = params.getAll(key);
  return all.length === 0 ? undefined : all[all.length - 1];
};

/** Repeated or comma-separated values: `size=10x20&size=12x30` or `size=10x20,12x30`. */
const list = (params: URLSearchParams, key: string) =>
  params
    .getAll(key)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

export interface SearchParamError {
  parameter: string;
  message: string;
}

export type ParsedSearchParams =
  | {
      ok: true;
      filters: SearchFilters;
      sort: SortOrder;
      page: number;
      radius: number;
      point?: { lat: number; lng: number };
      pageSize: number;
    }
  | { ok: false; errors: SearchParamError[] };

// Built once: constructing zod schemas costs far more than running them (~300 us per request).
const LAT = number("lat").refine((n) => n >= -90 && n <= 90, "lat must be between -90 and 90");
const LNG = number("lng").refine((n) => n >= -180 && n <= 180, "lng must be between -180 and 180");
const RADIUS = number("radius").refine(
  (n) => n > 0 && n <= MAX_RADIUS_MILES,
  `radius must be above 0 and at most ${MAX_RADIUS_MILES} miles`,
);
const PAGE = number("page").refine(
  (n) => Number.isInteger(n) && n >= 1 && n <= 100_000,
  "page must be a whole number from 1",
);
const PAGE_SIZE_PARAM = number("pageSize").refine(
  (n) => Number.isInteger(n) && n >= 0 && n <= 100,
  "pageSize must be a whole number from 0 to 100",
);
const SORT = z.enum(SORTS, { error: "sort must be distance, rating or price" });
/** Whole dollars a month, as owners give prices (LISTING_LIMITS.maxMonthlyPrice). */
export const MAX_PRICE_LIMIT = LISTING_LIMITS.maxMonthlyPrice;
const MAX_PRICE = z
  .string()
  .trim()
  .regex(/^\d{1,6}$/, `maxPrice must be whole dollars a month, from 0 to ${MAX_PRICE_LIMIT}`)
  .transform(Number)
  .refine((n) => n <= MAX_PRICE_LIMIT, `maxPrice must be whole dollars a month, from 0 to ${MAX_PRICE_LIMIT}`);

/** "Available now": `available=1` (`0` or absent: every status). */
const AVAILABLE = z.enum(["1", "0"], { error: "available must be 1 (available now) or 0" }).transform((v) => v === "1");

/**
 * Parses the search part of a URL query. Every problem names its parameter, so an API client or
 * a hand-edited URL gets a clear 400 instead of a guess.
 */
export function parseSearchParams(params: URLSearchParams): ParsedSearchParams {
  const errors: SearchParamError[] = [];
  const check = <T>(parameter: string, schema: z.ZodType<T>, raw: string | undefined, fallback: T): T => {
    if (raw === undefined) return fallback;
    const result = schema.safeParse(raw);
    if (result.success) return result.data;
    errors.push({ parameter, message: result.error.issues[0]?.message ?? `${parameter} is invalid` });
    return fallback;
  };

  const latRaw = single(params, "lat");
  const lngRaw = single(params, "lng");
  const lat = check("lat", LAT, latRaw, NaN);
  const lng = check("lng", LNG, lngRaw, NaN);
  if ((latRaw === undefined) !== (lngRaw === undefined)) {
    errors.push({ parameter: latRaw === undefined ? "lat" : "lng", message: "lat and lng must be given together" });
  }
  const radius = check("radius", RADIUS, single(params, "radius"), DEFAULT_RADIUS_MILES);
  const page = check("page", PAGE, single(params, "page"), 1);
  const pageSize = check("pageSize", PAGE_SIZE_PARAM, single(params, "pageSize"), PAGE_SIZE);
  const sort = check("sort", SORT, single(params, "sort"), "distance");

  const sizes: SizeOption[] = [];
  for (const value of list(params, "size")) {
    const normalized = value.toLowerCase().replace(/\s+/g, "");
    if ((SIZE_OPTIONS_LIST as readonly string[]).includes(normalized)) {
      if (!sizes.includes(normalized as SizeOption)) sizes.push(normalized as SizeOption);
    } else
      errors.push({
        parameter: "size",
        message: `unknown size "${value}"; use one of ${SIZE_OPTIONS_LIST.join(", ")}`,
      });
  }
  const amenities: AmenityFilter[] = [];
  for (const value of list(params, "amenity")) {
    if (isAmenityFilter(value)) {
      if (!amenities.includes(value)) amenities.push(value);
    } else errors.push({ parameter: "amenity", message: `unknown amenity "${value}"` });
  }
  // Free text: over the cap it is refused, not cut, so that a client learns why (input-limits.ts).
  const qRaw = single(params, "q");
  if (qRaw !== undefined && qRaw.length > MAX_TEXT_FILTER_LENGTH) {
    errors.push({ parameter: "q", message: tooLongMessage("q", MAX_TEXT_FILTER_LENGTH) });
  }
  const q = qRaw?.trim() || undefined;
  // My RV (domain/rv-fit.ts) and the price cap (docs/product.md, "My RV" and "Prices").
  const myRv = parseMyRv(params);
  if (!myRv.ok) errors.push({ parameter: myRv.parameter, message: myRv.message });
  const rv = myRv.ok ? myRv.rv : undefined;
  const maxPrice = check<number | undefined>("maxPrice", MAX_PRICE, single(params, "maxPrice"), undefined);
  const available = check("available", AVAILABLE, single(params, "available"), false);

  if (errors.length > 0) return { ok: false, errors };
  const point = Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : undefined;
  return {
    ok: true,
    filters: {
      sizes,
      amenities,
      ...(q ? { q } : {}),
      ...(rv ? { rv } : {}),
      ...(maxPrice !== undefined ? { maxPrice } : {}),
      ...(available ? { available } : {}),
    },
    sort,
    page,
    radius,
    pageSize,
    ...(point ? { point } : {}),
  };
}
