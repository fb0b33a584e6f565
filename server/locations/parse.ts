/**
 * Parsers for the raw field values of the old system's exports (docs/product.md section 3), and the
 * formatters the export uses to write them back, such that `parseX(formatX(x))` equals `x`.
 *
 * Pure and browser-safe (no Node imports). A value that cannot be read throws a `ParseError`
 * whose message says what is wrong with the value; the caller adds the field name.
 */
import {
  AVAILABILITIES,
  LISTING_LIMITS,
  MAX_OPEN_SPACES,
  type Availability,
  type SizeOffer,
} from "../../domain/listings";

/** A size's `statusAt`: an ISO time (date, then an optional time and zone), parsed by Date. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
import { TIERS, type Tier } from "../../domain/tiers";
import type { Dimension, Review, Viewport } from "./types";
import { sizeKey } from "../../domain/availability";

export class ParseError extends Error {
  override name = "ParseError";
}

/** A short, quoted rendering of a bad value for error messages. */
export function quote(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const clipped = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return JSON.stringify(clipped);
}

/** Absent, null, or only whitespace: the field was left empty. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/**
 * SQL dumps write a missing value as NULL; structured fields (numbers, sizes, JSON) treat it as
 * empty. Free text keeps the word, since it may be meant.
 */
export function isBlankOrNull(value: unknown): boolean {
  return isBlank(value) || (typeof value === "string" && value.trim().toUpperCase() === "NULL");
}

/**
 * Free text: trimmed, empty -> null. JSON input may hold a number (a phone number) or an object
 * (Google's parking options), which are kept as their text.
 */
export function parseText(value: unknown): string | null {
  if (isBlank(value)) return null;
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

export function formatText(value: string | null | undefined): string {
  return value ?? "";
}

// ---------------------------------------------------------------------------------------------
// Flags

const TRUE_WORDS = new Set(["true", "1", "yes", "y", "t"]);
const FALSE_WORDS = new Set(["false", "0", "no", "n", "f", ""]);

/** Amenity and demo flags: True/true/1/yes or False/false/0/no/empty (typed booleans too). */
export function parseFlag(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number" && (value === 0 || value === 1)) return value === 1;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  throw new ParseError(`${quote(value)} is not True or False`);
}

export function formatFlag(value: boolean): "True" | "False" {
  return value ? "True" : "False";
}

// ---------------------------------------------------------------------------------------------
// Numbers

/** Strict decimal syntax: Number() alone would accept "", "0x1f" and "Infinity". */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Thousands separators, as spreadsheets write review counts ("1,234"). */
const GROUPED_INTEGER = /^\d{1,3}(?:,\d{3})+$/;

/** A finite number, or null when empty. -0 becomes 0 so that it prints and compares as 0. */
export function parseNumber(value: unknown): number | null {
  if (isBlankOrNull(value)) return null;
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string") {
    const text = value.trim();
    const digits = GROUPED_INTEGER.test(text) ? text.replace(/,/g, "") : text;
    n = DECIMAL.test(digits) ? Number(digits) : Number.NaN;
  } else n = Number.NaN;
  if (!Number.isFinite(n)) throw new ParseError(`${quote(value)} is not a number`);
  return n === 0 ? 0 : n;
}

/** A number within [min, max], or null when empty. */
export function parseNumberInRange(value: unknown, min: number, max: number): number | null {
  const n = parseNumber(value);
  if (n !== null && (n < min || n > max)) throw new ParseError(`${n} is out of range (${min} to ${max})`);
  return n;
}

/** A non-negative whole number; empty gives `fallback`. */
export function parseCount(value: unknown, fallback = 0): number {
  const n = parseNumber(value);
  if (n === null) return fallback;
  if (!Number.isInteger(n) || n < 0) throw new ParseError(`${quote(value)} is not a non-negative whole number`);
  if (n > 2_147_483_647) throw new ParseError(`${n} is too large`);
  return n;
}

export type Axis = "latitude" | "longitude";
const AXIS_LIMIT: Record<Axis, number> = { latitude: 90, longitude: 180 };

/** A latitude (-90..90) or longitude (-180..180) in decimal degrees, or null when empty. */
export function parseCoordinate(value: unknown, axis: Axis): number | null {
  const limit = AXIS_LIMIT[axis];
  return parseNumberInRange(value, -limit, limit);
}

/** The shortest text that reads back as the same double (what String() gives). */
export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

// ---------------------------------------------------------------------------------------------
// Dimensions

const SIZE_NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
/**
 * "10x20", "10 x 20", "10X20", "10'x20'", "10' × 20'". The foot mark owns the spaces after it,
 * so no two `\s*` can share the spaces around an absent mark.
 */
const SIZE = new RegExp(String.raw`^${SIZE_NUMBER}\s*(?:['′]\s*)?[xX×]\s*${SIZE_NUMBER}\s*['′]?$`);

function parseSize(piece: string): Dimension {
  const match = SIZE.exec(piece);
  const width = Number(match?.[1]);
  const length = Number(match?.[2]);
  if (!match || !(width > 0) || !(length > 0)) throw new ParseError(`${quote(piece)} is not a size like 10x20`);
  return { width, length };
}

function isDimension(value: unknown): value is Dimension {
  if (typeof value !== "object" || value === null) return false;
  const { width, length } = value as Record<string, unknown>;
  return (
    typeof width === "number" &&
    typeof length === "number" &&
    width > 0 &&
    length > 0 &&
    Number.isFinite(width + length)
  );
}

/** Sizes in feet from "10x20, 12x30"; "NULL" or empty means none listed. */
export function parseDimensions(value: unknown): Dimension[] {
  if (isBlankOrNull(value)) return [];
  if (Array.isArray(value)) {
    return value.map((item) => {
      if (typeof item === "string") return parseSize(item.trim());
      if (isDimension(item)) return { width: item.width, length: item.length };
      throw new ParseError(`${quote(item)} is not a size like 10x20`);
    });
  }
  if (typeof value !== "string") throw new ParseError(`${quote(value)} is not a list of sizes like 10x20, 12x30`);
  return value
    .split(/[,;]/)
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map(parseSize);
}

// ---------------------------------------------------------------------------------------------
// Sizes with prices (the owner's editor, docs/product.md section 10)

const OFFER_KEYS = new Set(["width", "length", "monthlyPrice", "availability", "openSpaces", "statusAt"]);

function parseOffer(item: unknown): SizeOffer {
  if (typeof item !== "object" || item === null || Array.isArray(item))
    throw new ParseError(`${quote(item)} is not a size like {"width":12,"length":30,"monthlyPrice":150}`);
  const fields = item as Record<string, unknown>;
  const stray = Object.keys(fields).find((key) => !OFFER_KEYS.has(key));
  if (stray !== undefined)
    throw new ParseError(
      `${quote(stray)} is not a size field (width, length, monthlyPrice, availability, openSpaces, statusAt)`,
    );
  if (!isDimension(fields)) throw new ParseError(`${quote(item)} needs a positive width and length in feet`);
  const { width, length, monthlyPrice = null, availability = null, openSpaces = null, statusAt = null } = fields;
  if (width > LISTING_LIMITS.maxSizeFeet || length > LISTING_LIMITS.maxSizeFeet)
    throw new ParseError(`${width}x${length} is larger than ${LISTING_LIMITS.maxSizeFeet} feet`);
  if (
    monthlyPrice !== null &&
    !(
      typeof monthlyPrice === "number" &&
      Number.isInteger(monthlyPrice) &&
      monthlyPrice >= 0 &&
      monthlyPrice <= LISTING_LIMITS.maxMonthlyPrice
    )
  )
    throw new ParseError(
      `monthlyPrice ${quote(monthlyPrice)} is not whole dollars from 0 to ${LISTING_LIMITS.maxMonthlyPrice}`,
    );
  if (availability !== null && !(AVAILABILITIES as readonly unknown[]).includes(availability))
    throw new ParseError(`availability ${quote(availability)} is not one of ${AVAILABILITIES.join(", ")}`);
  if (
    openSpaces !== null &&
    !(
      typeof openSpaces === "number" &&
      Number.isInteger(openSpaces) &&
      openSpaces >= 0 &&
      openSpaces <= MAX_OPEN_SPACES
    )
  )
    throw new ParseError(`openSpaces ${quote(openSpaces)} is not a whole number from 0 to ${MAX_OPEN_SPACES}`);
  if (
    statusAt !== null &&
    !(
      typeof statusAt === "string" &&
      statusAt.length <= 40 &&
      ISO_TIME.test(statusAt) &&
      !Number.isNaN(Date.parse(statusAt))
    )
  )
    throw new ParseError(`statusAt ${quote(statusAt)} is not a time like 2026-11-28T10:00:00.000Z`);
  return {
    width,
    length,
    monthlyPrice: monthlyPrice as number | null,
    availability: availability as Availability | null,
    ...(openSpaces === null ? {} : { openSpaces: openSpaces as number }),
    ...(statusAt === null ? {} : { statusAt: new Date(statusAt as string).toISOString() }),
  };
}

/** A JSON array of sizes with price and availability; empty or NULL means none. */
export function parseSizeOffers(value: unknown): SizeOffer[] {
  const offers = (Array.isArray(value) ? value : parseJsonArray(value)).map(parseOffer);
  const seen = new Set<string>();
  for (const { width, length } of offers) {
    const key = `${width}x${length}`;
    if (seen.has(key)) throw new ParseError(`size ${key} is listed twice`);
    seen.add(key);
  }
  return offers;
}

export function formatDimensions(dimensions: readonly Dimension[]): string {
  return dimensions.length === 0 ? "NULL" : dimensions.map((d) => sizeKey(d)).join(", ");
}

// ---------------------------------------------------------------------------------------------
// Reviews

/** A new entry starts where " | " is followed by "[author] Rating: ", so texts may hold " | ". */
const REVIEW_SEPARATOR = / \| (?=\[[^\]\n]*\] Rating: )/;
const REVIEW = /^\[([^\]\n]*)\] Rating: ([+-]?\d+(?:\.\d+)?)(?: \(([^)]*)\))?(?: -(?: ([\s\S]*))?)?$/;

function checkReviewRating(rating: number, entry: unknown): number {
  if (!(rating >= 0 && rating <= 5)) throw new ParseError(`review ${quote(entry)} has a rating outside 0 to 5`);
  return rating;
}

function parseReviewEntry(entry: string): Review {
  const match = REVIEW.exec(entry.trim());
  if (!match) throw new ParseError(`review ${quote(entry)} is not in the form "[author] Rating: N (time) - text"`);
  const [, author = "", rating = "", relativeTime = "", text = ""] = match;
  return {
    author: author.trim(),
    rating: checkReviewRating(Number(rating), entry),
    relativeTime: relativeTime.trim(),
    text: text.trim(),
  };
}

function parseReviewObject(item: unknown): Review {
  if (typeof item === "string") return parseReviewEntry(item);
  const fields = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
  const rating = parseNumber(fields.rating);
  if (rating === null) throw new ParseError(`review ${quote(item)} has no rating`);
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string).trim() : "");
  return {
    author: text("author"),
    rating: checkReviewRating(rating, item),
    relativeTime: text("relativeTime") || text("time"),
    text: text("text"),
  };
}

/** Reviews from "[author] Rating: N (time) - text | [author] ...", or an array of entries. */
export function parseReviews(value: unknown): Review[] {
  if (isBlankOrNull(value)) return [];
  if (Array.isArray(value)) return value.map(parseReviewObject);
  if (typeof value !== "string") throw new ParseError(`${quote(value)} is not a list of reviews`);
  return value.trim().split(REVIEW_SEPARATOR).map(parseReviewEntry);
}

export function formatReviews(reviews: readonly Review[]): string {
  return reviews.map((r) => `[${r.author}] Rating: ${r.rating} (${r.relativeTime}) - ${r.text}`).join(" | ");
}

// ---------------------------------------------------------------------------------------------
// Opening hours and other lists

function parseLines(value: unknown, separator: RegExp, what: string): string[] {
  if (isBlankOrNull(value)) return [];
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(separator) : undefined;
  if (!items) throw new ParseError(`${quote(value)} is not a list of ${what}`);
  return items
    .map((item) => {
      if (typeof item !== "string") throw new ParseError(`${quote(item)} is not text`);
      return item.trim();
    })
    .filter(Boolean);
}

/** Day lines, "Monday: 8:00 AM – 6:00 PM; Tuesday: ..." (or one per line). */
export function parseHours(value: unknown): string[] {
  return parseLines(value, /[;\r\n]+/, "opening hours");
}

export function formatHours(lines: readonly string[]): string {
  return lines.join("; ");
}

/**
 * A list of strings (image URLs, place types): a JSON array, or text separated by " | " when it
 * holds one, else by commas.
 */
export function parseStringList(value: unknown): string[] {
  if (typeof value === "string" && value.trim().startsWith("[")) return parseLines(parseJson(value), /,/, "strings");
  const separator = typeof value === "string" && value.includes(" | ") ? / \| / : /,/;
  return parseLines(value, separator, "strings");
}

// ---------------------------------------------------------------------------------------------
// JSON columns

/** A JSON value from its text, or the value itself when the input was already typed. */
export function parseJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    throw new ParseError(`is not valid JSON (${(error as Error).message})`);
  }
}

export function formatJson(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value);
}

/** A JSON array (photos, address components); empty means []. */
export function parseJsonArray(value: unknown): unknown[] {
  if (isBlankOrNull(value)) return [];
  const parsed = parseJson(value);
  if (!Array.isArray(parsed)) throw new ParseError(`${quote(value)} is not a JSON array`);
  return parsed;
}

function point(value: unknown, lat: string, lng: string): { latitude: number; longitude: number } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  const latitude = fields[lat];
  const longitude = fields[lng];
  return typeof latitude === "number" && typeof longitude === "number" ? { latitude, longitude } : undefined;
}

/**
 * The map viewport, {"low": {latitude, longitude}, "high": {...}} as the Places API (New) gives
 * it, or the legacy {"southwest": {lat, lng}, "northeast": {...}}. Empty means null.
 */
export function parseViewport(value: unknown): Viewport | null {
  if (isBlankOrNull(value)) return null;
  const parsed = parseJson(value);
  const fields = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const low = point(fields.low, "latitude", "longitude") ?? point(fields.southwest, "lat", "lng");
  const high = point(fields.high, "latitude", "longitude") ?? point(fields.northeast, "lat", "lng");
  if (!low || !high) throw new ParseError(`${quote(value)} is not a viewport with low and high corners`);
  return { low, high };
}

// ---------------------------------------------------------------------------------------------
// Dates and tiers

/** ISO 8601: a date, optionally a time (with "T" or a space), optionally a zone. */
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Date rolls 2024-02-31 over to March; a day that does not print back is not real. */
function isRealDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

/** An ISO date; a time without a zone is read as UTC, so the result does not depend on the machine. */
export function parseDate(value: unknown): Date | null {
  if (isBlankOrNull(value)) return null;
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  const match = typeof value === "string" ? ISO_DATE.exec(value.trim()) : null;
  if (match) {
    const [, day = "", time = "00:00:00", zone = "Z"] = match;
    const date = new Date(`${day}T${time}${zone}`);
    if (!Number.isNaN(date.getTime()) && isRealDay(day)) return date;
  }
  throw new ParseError(`${quote(value)} is not an ISO date such as 2024-05-01T12:00:00Z`);
}

export function formatDate(value: Date | null | undefined): string {
  return value ? value.toISOString() : "";
}

/** Pro, Preferred, Basic or Free in any case; empty means Free. */
export function parseTier(value: unknown): Tier {
  if (isBlankOrNull(value)) return "Free";
  const word = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  const tier = TIERS.find((t) => t.toLowerCase() === word);
  if (!tier) throw new ParseError(`${quote(value)} is not one of ${TIERS.join(", ")}`);
  return tier;
}
