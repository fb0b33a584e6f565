import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  pgView,
  real,
  text,
  timestamp,
  varchar,
} from "drizzle-orm/pg-core";
import { TIERS } from "../../../domain/tiers";
import type { SizeOffer } from "../../../domain/listings";
import type { Dimension, Review, Viewport } from "../../locations/types";
import { timestamps } from "./columns";

export const tierEnum = pgEnum("tier", TIERS);

const flag = (name: string) => boolean(name).notNull().default(false);
const textList = (name: string) => jsonb(name).$type<string[]>().notNull().default([]);

/** One RV storage facility, keyed by its place id (docs/product.md section 3, "Location"). */
export const locations = pgTable(
  "locations",
  {
    placeId: text("place_id").primaryKey(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    shortFormattedAddress: text("short_formatted_address"),
    address: text("address"),
    city: text("city"),
    state: varchar("state", { length: 2 }),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    geohash: varchar("geohash", { length: 10 }),
    rating: real("rating"),
    userRatingsTotal: integer("user_ratings_total").notNull().default(0),
    /**
     * Reviews written here (docs/product.md section 16): how many are published and their stars'
     * sum, kept by the review service in the same transaction as each review. `rating` and
     * `user_ratings_total` stay the imported figures; pages show both combined.
     */
    reviewCount: integer("review_count").notNull().default(0),
    reviewStarSum: integer("review_star_sum").notNull().default(0),
    dimensions: jsonb("dimensions").$type<Dimension[]>().notNull().default([]),
    businessStatus: text("business_status"),
    description: text("description"),
    googleMapsUri: text("google_maps_uri"),
    imageCount: integer("image_count").notNull().default(0),
    imageUrls: textList("image_urls"),
    /**
     * The highest photo number ever given out for this listing (docs/product.md section 10,
     * "Photos"): photo files are served as immutable, so a new photo never reuses the number of
     * a deleted one.
     */
    photoSeq: integer("photo_seq").notNull().default(0),
    phoneNumber: text("phone_number"),
    internationalPhoneNumber: text("international_phone_number"),
    openingHours: textList("opening_hours"),
    /**
     * When the gate lets customers in, in the same day lines as `opening_hours` (docs/product.md
     * sections 3 and 10): at RV storage the gate often keeps other hours than the office. Empty
     * when the owner does not list them apart.
     */
    gateHours: textList("gate_hours"),
    currentOpeningHours: textList("current_opening_hours"),
    parkingOptions: text("parking_options"),
    paymentOptions: text("payment_options"),
    accessibilityOptions: text("accessibility_options"),
    priceLevel: text("price_level"),
    primaryType: text("primary_type"),
    primaryTypeDisplayName: text("primary_type_display_name"),
    types: textList("types"),
    viewport: jsonb("viewport").$type<Viewport>(),
    website: text("website"),
    reviews: jsonb("reviews").$type<Review[]>().notNull().default([]),
    photos: jsonb("photos").$type<unknown[]>().notNull().default([]),
    addressComponents: jsonb("address_components").$type<unknown[]>().notNull().default([]),
    tier: tierEnum("tier").notNull().default("Free"),
    isDemo: boolean("is_demo").notNull().default(false),

    /**
     * Owner edits (docs/product.md section 10): `version` grows with every saved edit, so a form
     * opened before another save is refused instead of overwriting it (ADR 014). `size_offers`
     * holds price and availability per size; `dimensions` stays the list search filters on.
     */
    version: integer("version").notNull().default(1),
    sizeOffers: jsonb("size_offers").$type<SizeOffer[]>().notNull().default([]),
    pricesConfirmedAt: timestamp("prices_confirmed_at", { withTimezone: true, mode: "date" }),
    /** When the owner was last emailed to confirm the availability (docs/product.md section 17). */
    availabilityRemindedAt: timestamp("availability_reminded_at", { withTimezone: true, mode: "date" }),
    coveredClearanceFeet: real("covered_clearance_feet"),

    hasPerimeterFencing: flag("has_perimeter_fencing"),
    hasSurveillanceFootage: flag("has_surveillance_footage"),
    hasUnitAlarms: flag("has_unit_alarms"),
    hasPersonalizedAccessCode: flag("has_personalized_access_code"),
    anytimeAccess: flag("anytime_access"),
    hasOnSiteStaff: flag("has_on_site_staff"),
    hasClimateControlled: flag("has_climate_controlled"),
    hasCoveredParking: flag("has_covered_parking"),
    hasUncoveredParking: flag("has_uncovered_parking"),
    hasEnclosedUnits: flag("has_enclosed_units"),
    dumpStation: flag("dump_station"),
    potableWater: flag("potable_water"),
    airStation: flag("air_station"),
    propaneStation: flag("propane_station"),
    rvWashbay: flag("rv_washbay"),
    pullThru: flag("pull_thru"),
    availableOutlet: flag("available_outlet"),
    available30Or50AmpOutlet: flag("available_30_or_50_amp_outlet"),

    /**
     * Visibility (docs/product.md section 12, "The catalogue"): a hidden listing is left out of
     * search, the sitemap and its public page (404) but stays with its owner; a deleted one is
     * also gone from the owner's console and its page answers 410. Both are soft and restorable.
     */
    hiddenAt: timestamp("hidden_at", { withTimezone: true, mode: "date" }),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),

    ...timestamps,
  },
  (t) => [
    check("locations_latitude_range", sql`${t.latitude} between -90 and 90`),
    check("locations_longitude_range", sql`${t.longitude} between -180 and 180`),
    check("locations_rating_range", sql`${t.rating} between 0 and 5`),
    check("locations_review_tally", sql`${t.reviewCount} >= 0 and ${t.reviewStarSum} >= 0`),
    check("locations_geohash_precision", sql`${t.geohash} is null or length(${t.geohash}) = 10`),
    index("locations_geohash_idx").on(t.geohash),
    index("locations_state_idx").on(t.state),
    index("locations_name_idx").on(t.name),
  ],
);

export type LocationRow = typeof locations.$inferSelect;

/** The listings visitors may see: neither hidden nor deleted (docs/product.md section 12). */
export const listedLocation = sql`${locations.hiddenAt} is null and ${locations.deletedAt} is null`;
export type NewLocationRow = typeof locations.$inferInsert;

/**
 * The place-name lookup of docs/product.md section 3 ("holds name and state"), read in batches by id.
 * A view rather than a copy, so it can never disagree with the catalogue.
 */
export const placeNames = pgView("place_names").as((qb) =>
  qb.select({ placeId: locations.placeId, name: locations.name, state: locations.state }).from(locations),
);
