/**
 * One raw record of the old system's exports (keys = the docs/product.md section 3 field names) to a row
 * of the `locations` table, and back. Derived columns (city, slug, geohash) are computed here, so
 * a file never has to carry them and cannot contradict them.
 */
import ngeohash from "ngeohash";
import { z } from "zod";
import { AMENITY_FLAGS, type AmenityFlag } from "../../domain/amenities";
import { LISTING_LIMITS, type SizeOffer } from "../../domain/listings";
import { buildLocationSlug } from "../../domain/slug";
import { normalizeWebsite } from "../../domain/web-address";
import type { LocationRow, NewLocationRow } from "../db/schema";
import { resolveState } from "../geo/states";
import { cityFromShortAddress, placeFromAddress } from "./address";
import type { Dimension } from "./types";
import { FLAG_COLUMN } from "./amenities";
import {
  ParseError,
  formatDate,
  formatDimensions,
  formatFlag,
  formatHours,
  formatJson,
  formatNumber,
  formatReviews,
  formatText,
  isBlankOrNull,
  parseCoordinate,
  parseCount,
  parseDate,
  parseDimensions,
  parseFlag,
  parseHours,
  parseJsonArray,
  parseNumber,
  parseNumberInRange,
  parseReviews,
  parseSizeOffers,
  parseStringList,
  parseText,
  parseTier,
  parseViewport,
  quote,
} from "./parse";
import { sizeKey } from "../../domain/availability";

/**
 * Fields the owner's editor added (docs/product.md section 10). A file without one of them leaves
 * the stored value alone on update (server/locations/import.ts), so re-importing an export of the
 * old system never wipes an owner's prices.
 */
export const OWNER_FIELDS = ["size_offers", "prices_confirmed_at", "covered_clearance_feet", "gate_hours"] as const;
export type OwnerField = (typeof OWNER_FIELDS)[number];

/** The raw field names, in the order the export writes them. */
export const RAW_FIELDS = [
  "place_id",
  "name",
  "short_formatted_address",
  "address",
  "state",
  "latitude",
  "longitude",
  "geohash",
  "rating",
  "user_ratings_total",
  "dimensions",
  "business_status",
  "created_at",
  "updated_at",
  "description",
  "google_maps_uri",
  "image_count",
  "image_urls",
  "phone_number",
  "international_phone_number",
  "opening_hours",
  "current_opening_hours",
  "parking_options",
  "payment_options",
  "accessibility_options",
  "price_level",
  "primary_type",
  "primary_type_display_name",
  "types",
  "viewport",
  "website",
  "reviews",
  "photos",
  "address_components",
  "tier",
  "is_demo",
  ...AMENITY_FLAGS,
  ...OWNER_FIELDS,
] as const;

export type RawField = (typeof RAW_FIELDS)[number];
export type RawRecord = Record<string, unknown>;

const KNOWN_FIELDS: ReadonlySet<string> = new Set(RAW_FIELDS);

export interface FieldError {
  field: string;
  reason: string;
}

export type RecordResult =
  { ok: true; row: NewLocationRow & { slug: string } } | { ok: false; placeId?: string; errors: FieldError[] };

/** Header names and JSON keys are matched trimmed and case-insensitively. */
export function normalizeKey(key: string): string {
  return key.trim().toLowerCase();
}

/** The keys of a record that are not raw field names (reported once as a warning, not an error). */
export function unknownFields(record: RawRecord): string[] {
  return Object.keys(record).filter((key) => !KNOWN_FIELDS.has(normalizeKey(key)));
}

/**
 * A zod field that runs one of the `parse` functions, turning its ParseError into an issue.
 * Optional in zod's eyes, so that an absent key reaches `parse` (which knows its default).
 */
function field<T>(parse: (value: unknown) => T) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): T => {
      try {
        return parse(value);
      } catch (error) {
        if (!(error instanceof ParseError)) throw error;
        ctx.addIssue({ code: "custom", message: error.message });
        return z.NEVER;
      }
    });
}

function requiredText(value: unknown): string {
  const text = parseText(value);
  if (text === null) throw new ParseError("is required");
  return text;
}

function parsePlaceId(value: unknown): string {
  const id = requiredText(value);
  if (/\s/.test(id)) throw new ParseError(`${quote(id)} must not contain whitespace`);
  return id;
}

/** A two-letter code (any case) or a state name; empty means "take it from the address". */
function parseState(value: unknown): string | null {
  const text = parseText(value);
  if (text === null) return null;
  const code = resolveState(text);
  if (!code) throw new ParseError(`${quote(text)} is not a US state name or two-letter code`);
  return code;
}

/**
 * A website as the owner's form takes it (domain/web-address.ts): http or https only, stored as
 * the normalised address, so a `javascript:` link never reaches the page or its JSON-LD.
 */
function parseWebsite(value: unknown): string | null {
  const text = parseText(value);
  if (text === null) return null;
  const url = normalizeWebsite(text);
  if (!url) throw new ParseError(`${quote(text)} is not a web address starting with http:// or https://`);
  return url;
}

const flags = Object.fromEntries(AMENITY_FLAGS.map((flag) => [flag, field(parseFlag)])) as Record<
  AmenityFlag,
  ReturnType<typeof field<boolean>>
>;

const rawLocationSchema = z.object({
  place_id: field(parsePlaceId),
  name: field(requiredText),
  short_formatted_address: field(parseText),
  address: field(parseText),
  state: field(parseState),
  latitude: field((v) => parseCoordinate(v, "latitude")),
  longitude: field((v) => parseCoordinate(v, "longitude")),
  rating: field((v) => parseNumberInRange(v, 0, 5)),
  user_ratings_total: field((v) => parseCount(v)),
  dimensions: field(parseDimensions),
  business_status: field(parseText),
  created_at: field(parseDate),
  updated_at: field(parseDate),
  description: field(parseText),
  google_maps_uri: field(parseText),
  image_count: field((v) => (parseNumber(v) === null ? null : parseCount(v))),
  image_urls: field(parseStringList),
  phone_number: field(parseText),
  international_phone_number: field(parseText),
  opening_hours: field(parseHours),
  current_opening_hours: field(parseHours),
  parking_options: field(parseText),
  payment_options: field(parseText),
  accessibility_options: field(parseText),
  price_level: field(parseText),
  primary_type: field(parseText),
  primary_type_display_name: field(parseText),
  types: field(parseStringList),
  viewport: field(parseViewport),
  website: field(parseWebsite),
  reviews: field(parseReviews),
  photos: field(parseJsonArray),
  address_components: field(parseJsonArray),
  tier: field(parseTier),
  is_demo: field(parseFlag),
  ...flags,
  size_offers: field(parseSizeOffers),
  prices_confirmed_at: field(parseDate),
  covered_clearance_feet: field((v) =>
    parseNumberInRange(v, LISTING_LIMITS.minClearanceFeet, LISTING_LIMITS.maxClearanceFeet),
  ),
  gate_hours: field(parseHours),
});

type ParsedRaw = z.infer<typeof rawLocationSchema>;

/** Offers for every listed size: a dimension without an offer gets one with no price (docs/product.md section 10). */
function offersFor(dimensions: readonly Dimension[], offers: readonly SizeOffer[]): SizeOffer[] {
  if (offers.length === 0) return [];
  const key = (size: Dimension) => sizeKey(size);
  const byKey = new Map(offers.map((o) => [key(o), o]));
  const listed = dimensions.map(
    (d) => byKey.get(key(d)) ?? { width: d.width, length: d.length, monthlyPrice: null, availability: null },
  );
  const listedKeys = new Set(dimensions.map(key));
  return [...listed, ...offers.filter((o) => !listedKeys.has(key(o)))];
}

function toRow(raw: ParsedRaw, now: Date, present: ReadonlySet<OwnerField>): NewLocationRow & { slug: string } {
  const { latitude, longitude } = raw;
  const fromAddress = placeFromAddress(raw.address);
  const state = raw.state ?? fromAddress.state ?? null;
  const city = fromAddress.city ?? cityFromShortAddress(raw.short_formatted_address) ?? null;
  const hasPoint = latitude !== null && longitude !== null;
  const row: NewLocationRow & { slug: string } = {
    placeId: raw.place_id,
    slug: buildLocationSlug({ name: raw.name, area: city, state, placeId: raw.place_id }),
    name: raw.name,
    shortFormattedAddress: raw.short_formatted_address,
    address: raw.address,
    city,
    state,
    latitude,
    longitude,
    geohash: hasPoint ? ngeohash.encode(latitude, longitude, 10) : null,
    rating: raw.rating,
    userRatingsTotal: raw.user_ratings_total,
    dimensions: raw.dimensions,
    businessStatus: raw.business_status,
    description: raw.description,
    googleMapsUri: raw.google_maps_uri,
    imageCount: raw.image_count ?? raw.image_urls.length,
    imageUrls: raw.image_urls,
    phoneNumber: raw.phone_number,
    internationalPhoneNumber: raw.international_phone_number,
    openingHours: raw.opening_hours,
    currentOpeningHours: raw.current_opening_hours,
    parkingOptions: raw.parking_options,
    paymentOptions: raw.payment_options,
    accessibilityOptions: raw.accessibility_options,
    priceLevel: raw.price_level,
    primaryType: raw.primary_type,
    primaryTypeDisplayName: raw.primary_type_display_name,
    types: raw.types,
    viewport: raw.viewport,
    website: raw.website,
    reviews: raw.reviews,
    photos: raw.photos,
    addressComponents: raw.address_components,
    tier: raw.tier,
    isDemo: raw.is_demo,
    createdAt: raw.created_at ?? now,
    updatedAt: raw.updated_at ?? now,
  };
  for (const flag of AMENITY_FLAGS) Object.assign(row, { [FLAG_COLUMN[flag]]: raw[flag] });
  // Owner fields are set only when the record carries them; `undefined` means "keep what is stored".
  if (present.has("size_offers")) {
    row.sizeOffers = offersFor(raw.dimensions, raw.size_offers);
    if (row.sizeOffers.length > 0) row.dimensions = row.sizeOffers.map((o) => ({ width: o.width, length: o.length }));
  }
  if (present.has("prices_confirmed_at")) row.pricesConfirmedAt = raw.prices_confirmed_at;
  if (present.has("covered_clearance_feet")) row.coveredClearanceFeet = raw.covered_clearance_feet;
  if (present.has("gate_hours")) row.gateHours = raw.gate_hours;
  return row;
}

export interface ParseRecordOptions {
  /** The time given to created_at / updated_at when the record has none. */
  now?: Date;
}

/** Validates one raw record; every problem is returned, each naming its field. */
export function parseLocationRecord(record: RawRecord, { now = new Date() }: ParseRecordOptions = {}): RecordResult {
  const normalized: RawRecord = {};
  for (const [key, value] of Object.entries(record)) normalized[normalizeKey(key)] = value;

  const errors: FieldError[] = [];
  const result = rawLocationSchema.safeParse(normalized);
  if (!result.success) {
    for (const issue of result.error.issues)
      errors.push({ field: String(issue.path[0] ?? "record"), reason: issue.message });
  }
  // A point needs both halves; a lone one is more likely a mistake than a facility without a pin.
  const noLatitude = isBlankOrNull(normalized.latitude);
  const noLongitude = isBlankOrNull(normalized.longitude);
  if (noLatitude && !noLongitude) errors.push({ field: "latitude", reason: "is empty while longitude is set" });
  if (noLongitude && !noLatitude) errors.push({ field: "longitude", reason: "is empty while latitude is set" });
  const present = new Set(OWNER_FIELDS.filter((key) => key in normalized));
  if (result.success && errors.length === 0) return { ok: true, row: toRow(result.data, now, present) };

  const placeId = parseText(normalized.place_id) ?? undefined;
  return placeId === undefined ? { ok: false, errors } : { ok: false, placeId, errors };
}

/** A stored row in the raw shape, every value as the text the import reads back to the same row. */
export function formatLocationRecord(row: LocationRow): Record<RawField, string> {
  const record: Record<Exclude<RawField, AmenityFlag | OwnerField>, string> = {
    place_id: row.placeId,
    name: row.name,
    short_formatted_address: formatText(row.shortFormattedAddress),
    address: formatText(row.address),
    state: formatText(row.state),
    latitude: formatNumber(row.latitude),
    longitude: formatNumber(row.longitude),
    geohash: formatText(row.geohash),
    rating: formatNumber(row.rating),
    user_ratings_total: formatNumber(row.userRatingsTotal),
    dimensions: formatDimensions(row.dimensions),
    business_status: formatText(row.businessStatus),
    created_at: formatDate(row.createdAt),
    updated_at: formatDate(row.updatedAt),
    description: formatText(row.description),
    google_maps_uri: formatText(row.googleMapsUri),
    image_count: formatNumber(row.imageCount),
    image_urls: formatJson(row.imageUrls),
    phone_number: formatText(row.phoneNumber),
    international_phone_number: formatText(row.internationalPhoneNumber),
    opening_hours: formatHours(row.openingHours),
    current_opening_hours: formatHours(row.currentOpeningHours),
    parking_options: formatText(row.parkingOptions),
    payment_options: formatText(row.paymentOptions),
    accessibility_options: formatText(row.accessibilityOptions),
    price_level: formatText(row.priceLevel),
    primary_type: formatText(row.primaryType),
    primary_type_display_name: formatText(row.primaryTypeDisplayName),
    types: formatJson(row.types),
    viewport: formatJson(row.viewport),
    website: formatText(row.website),
    reviews: formatReviews(row.reviews),
    photos: formatJson(row.photos),
    address_components: formatJson(row.addressComponents),
    tier: row.tier,
    is_demo: formatFlag(row.isDemo),
  };
  const flagTexts = AMENITY_FLAGS.map((flag) => [flag, formatFlag(row[FLAG_COLUMN[flag]] === true)]);
  const owner: Record<OwnerField, string> = {
    // Rows read from a file may lack owner fields (undefined = "keep what is stored").
    size_offers: (row.sizeOffers as SizeOffer[] | undefined)?.length ? formatJson(row.sizeOffers) : "",
    prices_confirmed_at: formatDate(row.pricesConfirmedAt),
    covered_clearance_feet: formatNumber(row.coveredClearanceFeet),
    gate_hours: formatHours((row.gateHours as string[] | undefined) ?? []),
  };
  return { ...record, ...(Object.fromEntries(flagTexts) as Record<AmenityFlag, string>), ...owner };
}
