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

/**
 * A numeric parameter: its zod schema, which names any problem, and the rule it checks as a
 * plain function, which takes a well-formed value without zod's machinery (a search parses three
 * or more of them per request, and zod's pipes took ~2 us each). `accepts` must take only what the
 * schema takes (search-params.test.ts compares them); anything it does not take goes to the schema.
 */
interface NumberParam {
  schema: z.ZodType<number>;
  accepts: (n: number) => boolean;
}

function numberParam(name: string, accepts: (n: number) => boolean, message: string): NumberParam {
  return { schema: number(name).refine(accepts, message), accepts };
}

// Built once: constructing zod schemas costs far more than running them (~300 us per request).
export const NUMBER_PARAMS = {
  lat: numberParam("lat", (n) => n >= -90 && n <= 90, "lat must be between -90 and 90"),
  lng: numberParam("lng", (n) => n >= -180 && n <= 180, "lng must be between -180 and 180"),
  radius: numberParam(
    "radius",
    (n) => n > 0 && n <= MAX_RADIUS_MILES,
    `radius must be above 0 and at most ${MAX_RADIUS_MILES} miles`,
  ),
  page: numberParam("page", (n) => Number.isInteger(n) && n >= 1 && n <= 100_000, "page must be a whole number from 1"),
  pageSize: numberParam(
    "pageSize",
    (n) => Number.isInteger(n) && n >= 0 && n <= 100,
    "pageSize must be a whole number from 0 to 100",
  ),
};

/** A numeric parameter's value when it is well formed and within its rule, else undefined. */
export function plainNumber(param: NumberParam, raw: string): number | undefined {
  const trimmed = raw.trim();
  if (trimmed === "") return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) && param.accepts(n) ? n : undefined;
}
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

  const numeric = (parameter: keyof typeof NUMBER_PARAMS, raw: string | undefined, fallback: number): number => {
    const param = NUMBER_PARAMS[parameter];
    return (raw === undefined ? undefined : plainNumber(param, raw)) ?? check(parameter, param.schema, raw, fallback);
  };

  const latRaw = single(params, "lat");
  const lngRaw = single(params, "lng");
  const lat = numeric("lat", latRaw, NaN);
  const lng = numeric("lng", lngRaw, NaN);
  if ((latRaw === undefined) !== (lngRaw === undefined)) {
    errors.push({ parameter: latRaw === undefined ? "lat" : "lng", message: "lat and lng must be given together" });
  }
  const radius = numeric("radius", single(params, "radius"), DEFAULT_RADIUS_MILES);
  const page = numeric("page", single(params, "page"), 1);
  const pageSize = numeric("pageSize", single(params, "pageSize"), PAGE_SIZE);
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
  // Optional keys added one by one rather than spread in: spreading made objects that every later
  // copy of them paid for (a few microseconds a search, as much as the parse).
  const filters: SearchFilters = { sizes, amenities };
  if (q) filters.q = q;
  if (rv) filters.rv = rv;
  if (maxPrice !== undefined) filters.maxPrice = maxPrice;
  if (available) filters.available = available;
  const parsed: ParsedSearchParams = { ok: true, filters, sort, page, radius, pageSize };
  if (Number.isFinite(lat) && Number.isFinite(lng)) parsed.point = { lat, lng };
  return parsed;
}
