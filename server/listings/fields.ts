import ngeohash from "ngeohash";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { AMENITY_FLAGS, type AmenityFlag } from "../../domain/amenities";
import { KEY_FIELDS, type KeyField, type ListingField, type SizeOffer } from "../../domain/listings";
import type { LocationRow, NewLocationRow } from "../db/schema";
import { FLAG_COLUMN } from "../locations/amenities";

/**
 * The owner-editable fields of a listing (docs/product.md sections 3 and 10) as one flat record:
 * what a revision stores before and after, and what a form submits. `phone` is the national
 * form shown on the page; amenities are the flags that are on, in the catalogue's order.
 */
export interface ListingFields {
  name: string;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  description: string | null;
  phone: string | null;
  website: string | null;
  openingHours: string[];
  /** Day lines as `openingHours`; empty when the gate keeps the office hours. */
  gateHours: string[];
  amenities: AmenityFlag[];
  parkingOptions: string | null;
  paymentOptions: string | null;
  accessibilityOptions: string | null;
  sizes: SizeOffer[];
  coveredClearanceFeet: number | null;
  /** Administrators only (docs/product.md section 12): owners' forms never send these. */
  city: string | null;
  state: string | null;
  businessStatus: string | null;
}

export type EditableField = keyof ListingFields;
export type ListingChanges = Partial<ListingFields>;

export const EDITABLE_FIELDS = [
  "name",
  "address",
  "latitude",
  "longitude",
  "description",
  "phone",
  "website",
  "openingHours",
  "gateHours",
  "amenities",
  "parkingOptions",
  "paymentOptions",
  "accessibilityOptions",
  "sizes",
  "coveredClearanceFeet",
  "city",
  "state",
  "businessStatus",
] as const satisfies readonly (EditableField & ListingField)[];

export const isKeyField = (field: string): field is KeyField => (KEY_FIELDS as readonly string[]).includes(field);

/** Sizes without a price or availability recorded yet are the catalogue's plain dimensions. */
function sizesOf(row: LocationRow): SizeOffer[] {
  if (row.sizeOffers.length > 0) return row.sizeOffers;
  return row.dimensions.map((d) => ({ width: d.width, length: d.length, monthlyPrice: null, availability: null }));
}

export function fieldsOf(row: LocationRow): ListingFields {
  return {
    name: row.name,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    description: row.description,
    phone: row.phoneNumber ?? row.internationalPhoneNumber,
    website: row.website,
    openingHours: row.openingHours,
    gateHours: row.gateHours,
    amenities: AMENITY_FLAGS.filter((flag) => row[FLAG_COLUMN[flag]] === true),
    parkingOptions: row.parkingOptions,
    paymentOptions: row.paymentOptions,
    accessibilityOptions: row.accessibilityOptions,
    sizes: sizesOf(row),
    coveredClearanceFeet: row.coveredClearanceFeet,
    city: row.city,
    state: row.state,
    businessStatus: row.businessStatus,
  };
}

/** The column values that store `changes` (derived columns included: geohash, dimensions, both phone forms). */
export function columnsFor(changes: ListingChanges, current: ListingFields): Partial<NewLocationRow> {
  const set: Record<string, unknown> = {};
  for (const field of Object.keys(changes) as EditableField[]) {
    switch (field) {
      case "phone": {
        const parsed = changes.phone ? parsePhoneNumberFromString(changes.phone, "US") : undefined;
        set.phoneNumber = parsed ? parsed.formatNational() : (changes.phone ?? null);
        set.internationalPhoneNumber = parsed ? parsed.formatInternational() : null;
        break;
      }
      case "amenities": {
        const on = new Set(changes.amenities);
        for (const flag of AMENITY_FLAGS) set[FLAG_COLUMN[flag]] = on.has(flag);
        break;
      }
      case "sizes":
        set.sizeOffers = changes.sizes!;
        set.dimensions = changes.sizes!.map((s) => ({ width: s.width, length: s.length }));
        break;
      default:
        set[field] = changes[field];
    }
  }
  if ("latitude" in changes || "longitude" in changes) {
    const lat = changes.latitude !== undefined ? changes.latitude : current.latitude;
    const lng = changes.longitude !== undefined ? changes.longitude : current.longitude;
    set.geohash = lat !== null && lng !== null ? ngeohash.encode(lat, lng, 10) : null;
  }
  return set as Partial<NewLocationRow>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * A value as compared for "did it change": the form sends the phone in E.164 while the listing
 * shows it nationally, ticks amenities in the editor's group order, and sorts sizes by area, so
 * without this an untouched form would record the phone, amenities and sizes as changed.
 */
function comparable(field: EditableField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field === "phone" && typeof value === "string") return parsePhoneNumberFromString(value, "US")?.number ?? value;
  if (field === "amenities" && Array.isArray(value)) return [...(value as string[])].sort();
  if (field === "sizes" && Array.isArray(value))
    return (value as SizeOffer[])
      .map((s) => ({
        width: s.width,
        length: s.length,
        monthlyPrice: s.monthlyPrice ?? null,
        availability: s.availability ?? null,
        // The open spaces and the status's date are part of the sizes (docs/product.md section 17).
        openSpaces: s.openSpaces ?? null,
        statusAt: s.statusAt ?? null,
      }))
      .sort((a, b) => a.width - b.width || a.length - b.length);
  return value;
}

/** The fields whose submitted value differs from the current one, in the form's order. */
export function changedFields(current: ListingFields, submitted: ListingChanges): EditableField[] {
  return EDITABLE_FIELDS.filter((f) => f in submitted && !same(comparable(f, current[f]), comparable(f, submitted[f])));
}

export function pick<T extends object>(record: T, fields: readonly (keyof T)[]): Partial<T> {
  return Object.fromEntries(fields.map((f) => [f, record[f] ?? null])) as Partial<T>;
}
