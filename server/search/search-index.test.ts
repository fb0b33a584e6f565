import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AMENITY_FILTERS,
  AMENITY_FLAGS,
  isAmenityFlag,
  type AmenityFilter,
  type AmenityFlag,
} from "../../domain/amenities";
import type { SearchQuery, SearchResult } from "../../domain/search";
import { SIZE_OPTIONS_LIST, type SizeOption } from "../../domain/sizes";
import { TIERS } from "../../domain/tiers";
import type { Availability } from "../../domain/listings";
import type { NewLocationRow } from "../db/schema";
import { SAMPLE_LOCATION } from "../locations/sample";
import { createSearchIndex } from "./search-index";
import { searchRowFromLocation } from "./source-row";
import { availabilitySummary } from "../../domain/availability";
import { isValidLatLng } from "../geo/coordinates";
import { demoRowsAround, referenceSearch, townAt } from "./test-support";

const indexOf = (rows: readonly NewLocationRow[]) => createSearchIndex(rows.map(searchRowFromLocation));

const query = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  lat: 30.2672,
  lng: -97.7431,
  radius: 100,
  sizes: [],
  amenities: [],
  sort: "distance",
  page: 1,
  pageSize: 12,
  ...overrides,
});

const DAY = 24 * 60 * 60_000;
let serial = 0;
/** A location `milesNorth` miles due north of Austin (69.09 miles per degree at R = 3959). */
function at(milesNorth: number, overrides: Partial<NewLocationRow> = {}): NewLocationRow {
  const id = `test_${String(serial++).padStart(6, "0")}`;
  return {
    ...SAMPLE_LOCATION,
    placeId: id,
    slug: `test-${id}`,
    latitude: 30.2672 + milesNorth / ((3959 * Math.PI) / 180),
    longitude: -97.7431,
    ...overrides,
  };
}

const ids = (result: { items: { id: string }[] }) => result.items.map((item) => item.id);

describe("search index: rules", () => {
  it("skips locations without usable coordinates", () => {
    const rows = [
      at(1),
      at(2, { latitude: null }),
      at(3, { longitude: null }),
      at(4, { latitude: Number.NaN }),
      at(5, { latitude: 95 }),
      at(6, { longitude: -181 }),
      at(7, { latitude: 0, longitude: 0 }),
    ];
    const index = indexOf(rows);
    expect(index.size).toBe(1);
    expect(index.skipped).toBe(6);
    expect(ids(index.query(query({ radius: 500 })))).toEqual([rows[0]!.placeId]);
  });

  it("drops results beyond the radius and measures with R = 3959 miles", () => {
    const inside = at(99.9);
    const outside = at(100.1);
    const result = indexOf([inside, outside]).query(query());
    expect(ids(result)).toEqual([inside.placeId]);
    expect(result.items[0]!.distanceMiles).toBe(99.9);
  });

  it("sorts by tier weight, then distance, then id", () => {
    const rows = [
      at(50, { tier: "Free" }),
      at(5, { tier: "Free" }),
      at(80, { tier: "Pro" }),
      at(60, { tier: "Preferred" }),
      at(10, { tier: "Basic" }),
      at(20, { tier: "Preferred" }),
    ];
    const twin = { ...rows[1]!, placeId: "test_000000a", slug: "twin" };
    const result = indexOf([...rows, twin]).query(query());
    expect(result.items.map((item) => [item.tier, item.distanceMiles])).toEqual([
      ["Pro", 80],
      ["Preferred", 20],
      ["Preferred", 60],
      ["Basic", 10],
      ["Free", 5],
      ["Free", 5],
      ["Free", 50],
    ]);
    // Same place, same tier: the smaller id first, whatever the input order.
    const fives = result.items.filter((item) => item.distanceMiles === 5).map((item) => item.id);
    expect(fives).toEqual([rows[1]!.placeId, twin.placeId].sort());
  });

  it("sorts by rating (unrated last), then review count, then distance", () => {
    const rows = [
      at(1, { rating: null, userRatingsTotal: 0, tier: "Pro" }),
      at(2, { rating: 4.1, userRatingsTotal: 10 }),
      at(3, { rating: 4.8, userRatingsTotal: 5 }),
      at(4, { rating: 4.8, userRatingsTotal: 50 }),
      at(9, { rating: 4.1, userRatingsTotal: 10 }),
      at(6, { rating: 0, userRatingsTotal: 1 }),
    ];
    const result = indexOf(rows).query(query({ sort: "rating" }));
    expect(result.items.map((item) => [item.rating, item.reviewCount, item.distanceMiles])).toEqual([
      [4.8, 50, 4],
      [4.8, 5, 3],
      [4.1, 10, 2],
      [4.1, 10, 9],
      [0, 1, 6],
      [null, 0, 1],
    ]);
  });

  it("pages, and answers a page past the end with no items and the real total", () => {
    const rows = Array.from({ length: 30 }, (_, i) => at(i + 1));
    const index = indexOf(rows);
    const page3 = index.query(query({ page: 3, pageSize: 12 }));
    expect(page3).toMatchObject({ total: 30, page: 3, pageSize: 12 });
    expect(page3.items.map((item) => item.distanceMiles)).toEqual([25, 26, 27, 28, 29, 30]);
    const past = index.query(query({ page: 4, pageSize: 12 }));
    expect(past.items).toEqual([]);
    expect(past.total).toBe(30);
    const countOnly = index.query(query({ pageSize: 0 }));
    expect(countOnly.items).toEqual([]);
    expect(countOnly.total).toBe(30);
    expect(countOnly.facets.sizes["10x20"]).toBe(30);
  });

  it("requires every selected size; a size matches a dimension at least as wide and as long", () => {
    const both = at(1, {
      dimensions: [
        { width: 10, length: 20 },
        { width: 12, length: 30 },
      ],
    });
    const long = at(2, { dimensions: [{ width: 10, length: 40 }] });
    const none = at(3, { dimensions: [] });
    const index = indexOf([both, long, none]);
    const matching = (sizes: SizeOption[]) => ids(index.query(query({ sizes })));
    expect(matching(["10x20"])).toEqual([both.placeId, long.placeId]);
    expect(matching(["12x30"])).toEqual([both.placeId]);
    expect(matching(["10x20", "12x30"])).toEqual([both.placeId]);
    expect(matching(["10x30", "12x25"])).toEqual([both.placeId]);
    expect(matching(["15x20"])).toEqual([]);
    expect(matching(["10x10", "20x40"])).toEqual([]);
  });

  it("requires every selected amenity, but covered and uncovered parking are alternatives", () => {
    const covered = at(1, { hasCoveredParking: true, hasUncoveredParking: false, dumpStation: true });
    const uncovered = at(2, { hasCoveredParking: false, hasUncoveredParking: true, dumpStation: true });
    const neither = at(3, { hasCoveredParking: false, hasUncoveredParking: false, dumpStation: true });
    const index = indexOf([covered, uncovered, neither]);
    const matching = (amenities: AmenityFlag[]) => ids(index.query(query({ amenities })));
    expect(matching(["has_covered_parking"])).toEqual([covered.placeId]);
    expect(matching(["has_uncovered_parking"])).toEqual([uncovered.placeId]);
    expect(matching(["has_covered_parking", "has_uncovered_parking"])).toEqual([covered.placeId, uncovered.placeId]);
    expect(matching(["has_covered_parking", "has_uncovered_parking", "dump_station"])).toHaveLength(2);
    expect(matching(["dump_station", "has_unit_alarms"])).toEqual([]);
  });

  it("filters text case-insensitively on name, address and state, never across fields", () => {
    const a = at(1, { name: "Eagle Point RV Storage", address: "12 Main St, Austin, TX 78701, USA", state: "TX" });
    const b = at(2, { name: "Lakeside Boat Storage", address: "9 Oak Rd, Round Rock, TX", state: "TX" });
    const index = indexOf([a, b]);
    const matching = (q: string) => ids(index.query(query({ q })));
    expect(matching("EAGLE point")).toEqual([a.placeId]);
    expect(matching("round rock")).toEqual([b.placeId]);
    expect(matching("storage")).toEqual([a.placeId, b.placeId]);
    expect(matching("tx")).toEqual([a.placeId, b.placeId]);
    expect(matching("storage 12")).toEqual([]);
  });

  it("counts facets over the filtered results", () => {
    const rows = [
      at(1, { dimensions: [{ width: 12, length: 30 }], hasCoveredParking: true, dumpStation: true }),
      at(2, { dimensions: [{ width: 10, length: 20 }], hasCoveredParking: true, dumpStation: false }),
      at(3, { dimensions: [{ width: 20, length: 40 }], hasCoveredParking: false, dumpStation: true }),
      at(300, { dimensions: [{ width: 20, length: 40 }], hasCoveredParking: true, dumpStation: true }),
    ];
    const { facets, total } = indexOf(rows).query(query({ amenities: ["dump_station"] }));
    expect(total).toBe(2);
    expect(facets.amenities.dump_station).toBe(2);
    expect(facets.amenities.has_covered_parking).toBe(1);
    expect(facets.sizes["10x10"]).toBe(2);
    expect(facets.sizes["12x30"]).toBe(2);
    expect(facets.sizes["15x30"]).toBe(1);
    expect(facets.sizes["20x40"]).toBe(1);
    expect(Object.keys(facets.sizes)).toEqual([...SIZE_OPTIONS_LIST]);
    expect(Object.keys(facets.amenities)).toEqual([...AMENITY_FILTERS]);
  });

  it("filters and counts the text amenities: present when the text is not blank", () => {
    const rows = [
      at(1, { paymentOptions: "Credit cards", parkingOptions: null }),
      at(2, { paymentOptions: "  ", parkingOptions: "Free lot" }),
      at(3, { paymentOptions: "Cash only", parkingOptions: "Street" }),
    ];
    const index = indexOf(rows);
    const all = index.query(query());
    expect(all.facets.amenities.payment_options).toBe(2);
    expect(all.facets.amenities.parking_options).toBe(2);
    expect(all.facets.amenities.accessibility_options).toBe(rows.filter((r) => r.accessibilityOptions?.trim()).length);
    expect(ids(index.query(query({ amenities: ["payment_options"] })))).toEqual([rows[0]!.placeId, rows[2]!.placeId]);
    const both = index.query(query({ amenities: ["payment_options", "parking_options"] }));
    expect(ids(both)).toEqual([rows[2]!.placeId]);
    expect(both.facets.amenities.payment_options).toBe(1);
  });

  it("builds result items: rounded distance, first photo, flags in order, sizes as WxL", () => {
    const row = at(12.34, {
      imageUrls: ["/a.jpg", "/b.jpg"],
      rating: 4.6,
      dimensions: [
        { width: 10, length: 20 },
        { width: 12, length: 40 },
      ],
      tier: "Preferred",
    });
    const [item] = indexOf([row, at(20, { imageUrls: [] })]).query(query()).items;
    expect(item).toEqual({
      id: row.placeId,
      slug: row.slug,
      name: row.name,
      address: row.address,
      state: "TX",
      lat: row.latitude,
      lng: row.longitude,
      distanceMiles: 12.3,
      rating: 4.6,
      reviewCount: row.userRatingsTotal,
      tier: "Preferred",
      isDemo: true,
      photo: "/a.jpg",
      amenities: AMENITY_FLAGS.filter((f) => searchRowFromLocation(row).amenityMask & (1 << AMENITY_FLAGS.indexOf(f))),
      sizes: ["10x20", "12x40"],
      minMonthlyPrice: null,
      clearanceFeet: null,
      availability: null,
    });
    expect(item!.amenities).toContain("has_covered_parking");
    expect(indexOf([at(1, { imageUrls: [] })]).query(query()).items[0]!.photo).toBeNull();
  });

  it("keeps, for an RV, only places with a space at least that long (My RV)", () => {
    const long = at(1, {
      dimensions: [
        { width: 10, length: 20 },
        { width: 14, length: 45 },
      ],
    });
    const exact = at(2, { dimensions: [{ width: 12, length: 40 }] });
    const short = at(3, { dimensions: [{ width: 12, length: 39.5 }] });
    const none = at(4, { dimensions: [] });
    const index = indexOf([long, exact, short, none]);
    const fitting = (lengthFeet: number) => ids(index.query(query({ rv: { lengthFeet } })));
    expect(fitting(40)).toEqual([long.placeId, exact.placeId]);
    expect(fitting(45)).toEqual([long.placeId]);
    expect(fitting(39.5)).toEqual([long.placeId, exact.placeId, short.placeId]);
    expect(fitting(46)).toEqual([]);
    expect(index.query(query()).total).toBe(4);
  });

  it("drops a stated clearance below the RV only where covered or enclosed space is asked for", () => {
    const space = [{ width: 12, length: 45 }];
    const low = at(1, {
      dimensions: space,
      coveredClearanceFeet: 12.5,
      hasCoveredParking: true,
      hasUncoveredParking: false,
      hasEnclosedUnits: true,
    });
    const high = at(2, {
      dimensions: space,
      coveredClearanceFeet: 14,
      hasCoveredParking: true,
      hasUncoveredParking: false,
      hasEnclosedUnits: true,
    });
    const unknown = at(3, {
      dimensions: space,
      coveredClearanceFeet: null,
      hasCoveredParking: true,
      hasUncoveredParking: false,
      hasEnclosedUnits: true,
    });
    const lowWithLot = at(4, {
      dimensions: space,
      coveredClearanceFeet: 12,
      hasCoveredParking: true,
      hasUncoveredParking: true,
      hasEnclosedUnits: true,
    });
    const index = indexOf([low, high, unknown, lowWithLot]);
    const matching = (amenities: AmenityFlag[], heightFeet?: number) =>
      ids(
        index.query(query({ amenities, rv: { lengthFeet: 40, ...(heightFeet === undefined ? {} : { heightFeet }) } })),
      );
    const all = [low.placeId, high.placeId, unknown.placeId, lowWithLot.placeId];
    // No height, or no covered space asked for: clearance does not matter.
    expect(matching(["has_covered_parking"])).toEqual(all);
    expect(matching([], 13.5)).toEqual(all);
    // Covered or enclosed asked for: a stated clearance must clear it; an unknown one is kept.
    expect(matching(["has_covered_parking"], 13.5)).toEqual([high.placeId, unknown.placeId]);
    expect(matching(["has_enclosed_units"], 13.5)).toEqual([high.placeId, unknown.placeId]);
    expect(matching(["has_covered_parking"], 12.5)).toEqual([low.placeId, high.placeId, unknown.placeId]);
    // Covered or uncovered: the lot still takes a tall RV.
    expect(matching(["has_covered_parking", "has_uncovered_parking"], 13.5)).toEqual([
      high.placeId,
      unknown.placeId,
      lowWithLot.placeId,
    ]);
    expect(matching(["has_covered_parking", "has_uncovered_parking", "has_enclosed_units"], 13.5)).toEqual([
      high.placeId,
      unknown.placeId,
    ]);
    const [item] = index.query(query({ rv: { lengthFeet: 40, heightFeet: 13 } })).items;
    expect(item!.clearanceFeet).toBe(12.5);
  });

  it("gives the lowest owner price, among the spaces that fit an RV when one is set", () => {
    const offers = (...list: [number, number | null][]) =>
      list.map(([length, monthlyPrice]) => ({ width: 12, length, monthlyPrice, availability: null }));
    const cheapShort = at(1, {
      dimensions: [
        { width: 12, length: 20 },
        { width: 12, length: 45 },
      ],
      sizeOffers: offers([20, 90], [45, 260]),
    });
    const flat = at(2, { dimensions: [{ width: 12, length: 40 }], sizeOffers: offers([40, 150]) });
    const unpricedLong = at(3, {
      dimensions: [
        { width: 12, length: 20 },
        { width: 12, length: 50 },
      ],
      sizeOffers: offers([20, 80], [50, null]),
    });
    const unknown = at(4, { dimensions: [{ width: 12, length: 40 }], sizeOffers: [] });
    const index = indexOf([cheapShort, flat, unpricedLong, unknown]);
    const prices = (q: Partial<SearchQuery>) =>
      index.query(query(q)).items.map((item) => [item.id, item.minMonthlyPrice]);
    expect(prices({})).toEqual([
      [cheapShort.placeId, 90],
      [flat.placeId, 150],
      [unpricedLong.placeId, 80],
      [unknown.placeId, null],
    ]);
    expect(prices({ rv: { lengthFeet: 40 } })).toEqual([
      [cheapShort.placeId, 260],
      [flat.placeId, 150],
      [unpricedLong.placeId, null],
      [unknown.placeId, null],
    ]);
    // The price sort: lowest first, unknown last (then by distance).
    expect(prices({ sort: "price" }).map(([id]) => id)).toEqual([
      unpricedLong.placeId,
      cheapShort.placeId,
      flat.placeId,
      unknown.placeId,
    ]);
    expect(prices({ sort: "price", rv: { lengthFeet: 40 } }).map(([id]) => id)).toEqual([
      flat.placeId,
      cheapShort.placeId,
      unpricedLong.placeId,
      unknown.placeId,
    ]);
    // The max price keeps known prices at most that; `priced` counts priced results without it.
    expect(prices({ maxPrice: 90 }).map(([id]) => id)).toEqual([cheapShort.placeId, unpricedLong.placeId]);
    expect(prices({ maxPrice: 200, rv: { lengthFeet: 40 } }).map(([id]) => id)).toEqual([flat.placeId]);
    expect(index.query(query({ maxPrice: 0 }))).toMatchObject({ total: 0, facets: { priced: 3 } });
    expect(index.query(query()).facets.priced).toBe(3);
    expect(index.query(query({ rv: { lengthFeet: 40 } })).facets.priced).toBe(2);
    expect(indexOf([unknown]).query(query()).facets.priced).toBe(0);
  });

  it("filters Available now: a fresh open status, on a size long enough for the RV, and counts it", () => {
    const now = Date.parse("2026-11-28T12:00:00Z");
    const ago = (days: number) => new Date(now - days * DAY).toISOString();
    const size = (length: number, availability: Availability | null, statusAt: string | null) => ({
      width: 12,
      length,
      monthlyPrice: 150,
      availability,
      statusAt,
    });
    const long = at(1, { sizeOffers: [size(40, "available", ago(3)), size(20, "full", ago(1))] });
    const short = at(2, { sizeOffers: [size(20, "few_left", ago(30.5))] });
    const stale = at(3, { sizeOffers: [size(45, "available", ago(31))] });
    const waiting = at(4, { sizeOffers: [size(45, "waitlist", ago(0)), size(30, "full", ago(2))] });
    const silent = at(5, { sizeOffers: [size(45, null, null)] });
    const index = indexOf([long, short, stale, waiting, silent]);
    const run = (over: Partial<SearchQuery>) => index.query(query(over), { now });
    expect(run({})).toMatchObject({ total: 5, facets: { available: 2 } });
    expect(ids(run({ available: true }))).toEqual([long.placeId, short.placeId]);
    expect(run({ available: true }).facets.available).toBe(2);
    // With an RV: only a size that takes it counts (the 20 ft few-left one does not take 35 ft).
    expect(ids(run({ available: true, rv: { lengthFeet: 35 } }))).toEqual([long.placeId]);
    expect(run({ rv: { lengthFeet: 35 } }).facets.available).toBe(1);
    // A day later the 30.5-day-old status stops counting.
    expect(ids(index.query(query({ available: true }), { now: now + DAY }))).toEqual([long.placeId]);
    expect(run({}).items.map((item) => item.availability)).toEqual([
      { text: "Spaces available · updated yesterday", tone: "open" },
      { text: "Spaces available · updated 30 days ago", tone: "open" },
      { text: "Availability not confirmed recently", tone: "stale" },
      { text: "Full · waitlist open · updated today", tone: "full" },
      null,
    ]);
  });

  it("reads only whole, non-negative prices of usable sizes", () => {
    const row = at(1, {
      sizeOffers: [
        { width: 12, length: 30, monthlyPrice: 99.5, availability: null },
        { width: 12, length: 30, monthlyPrice: -5, availability: null },
        { width: 0, length: 30, monthlyPrice: 10, availability: null },
        null as never,
        { width: 12, length: 30, monthlyPrice: 0, availability: null },
      ],
    });
    expect(indexOf([row]).query(query()).items[0]!.minMonthlyPrice).toBe(0);
  });

  it("finds neighbours across the antimeridian and around a pole", () => {
    const east = at(0, { latitude: 52, longitude: 179.9 });
    const west = at(0, { latitude: 52, longitude: -179.9 });
    const far = at(0, { latitude: 52, longitude: -170 });
    const index = indexOf([east, west, far]);
    expect(ids(index.query(query({ lat: 52, lng: 179.95 })))).toEqual([east.placeId, west.placeId].sort());
    expect(ids(index.query(query({ lat: 52, lng: -180 }))).sort()).toEqual([east.placeId, west.placeId].sort());
    const a = at(0, { latitude: 89.5, longitude: 0 });
    const b = at(0, { latitude: 89.5, longitude: 180 });
    const polar = indexOf([a, b]);
    // 0.5 degrees each side of the pole: ~69 miles apart through the pole.
    expect(polar.query(query({ lat: 89.5, lng: 90, radius: 100 })).total).toBe(2);
    expect(polar.query(query({ lat: 89.9, lng: -45, radius: 50 })).total).toBe(2);
  });

  it("searches a whole state by distance from the point when scoped to it", () => {
    const near = at(5, { state: "TX" });
    const farInState = at(600, { state: "TX" });
    const otherState = at(6, { state: "OK" });
    const index = indexOf([near, farInState, otherState]);
    expect(ids(index.query(query(), { state: "tx" }))).toEqual([near.placeId, farInState.placeId]);
    expect(index.query(query(), { state: "ZZ" }).total).toBe(0);
  });

  it("gives map markers for the nearest results whatever the sort", () => {
    const rows = [at(30, { tier: "Pro" }), at(10), at(20)];
    const { result, markers } = indexOf(rows).search(query({ pageSize: 1 }), { maxMarkers: 2 });
    expect(ids(result)).toEqual([rows[0]!.placeId]);
    expect(markers.map((m) => m.distanceMiles)).toEqual([10, 20]);
    expect(markers[0]).toMatchObject({ id: rows[1]!.placeId, href: `/location/${rows[1]!.slug}` });
  });

  it("answers an empty index and an invalid point with nothing", () => {
    expect(createSearchIndex([]).query(query())).toMatchObject({ total: 0, items: [] });
    expect(indexOf([at(1)]).query(query({ lat: Number.NaN })).total).toBe(0);
  });
});

// ---------------------------------------------------------------- property-based

// Beyond ASCII too: the index searches ASCII text in place and keeps a lower-cased copy of the rest
// (text.ts); "k" also matches the Kelvin sign, which lower-cases to it.
const TEXTS = ["rv", "Storage", "BOAT", "tx", "ca", "cedar", "main st", "zz", "usa", "señ", "ÉCOLE", "k s", "ǅ"];
/** Names with characters beyond ASCII, upper case that lower-cases to ASCII among them. */
const UNUSUAL_NAMES = ["Señor RV Storage", "ÉCOLE Boat Storage", "\u212A Storage", "ǅemal Storage", "Ünder Main St"];
const STATES = ["TX", "CA"] as const;

/** Centres in ordinary, antimeridian and polar regions. */
const centre = fc.oneof(
  fc.record({
    lat: fc.double({ min: 25, max: 49, noNaN: true }),
    lng: fc.double({ min: -125, max: -67, noNaN: true }),
  }),
  fc.record({ lat: fc.double({ min: -60, max: 60, noNaN: true }), lng: fc.constantFrom(179.95, -179.95, 180, -180) }),
  fc.record({
    lat: fc.double({ min: 86, max: 89.9, noNaN: true }),
    lng: fc.double({ min: -180, max: 180, noNaN: true }),
  }),
);

const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom(
    "noCoordinates",
    "zeroPoint",
    "samePointAs",
    "twinOf",
    "twinOf",
    "tier",
    "noSizes",
    "badSizes",
    "unrated",
    "noAddress",
    "unusualName",
    "clearance",
    "noPrices",
    "statuses",
  ),
  other: fc.nat(),
});

const scenario = fc.record({
  centre,
  towns: fc.array(
    fc.record({
      dLat: fc.double({ min: -1.5, max: 1.5, noNaN: true }),
      dLng: fc.double({ min: -3, max: 3, noNaN: true }),
      state: fc.constantFrom(...STATES),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  count: fc.integer({ min: 0, max: 80 }),
  seed: fc.integer(),
  mutations: fc.array(mutation, { maxLength: 12 }),
  radius: fc.oneof(fc.integer({ min: 1, max: 500 }), fc.double({ min: 0.1, max: 500, noNaN: true })),
  sizes: fc.subarray([...SIZE_OPTIONS_LIST], { maxLength: 3 }),
  amenities: fc.oneof(
    fc.subarray<AmenityFilter>([...AMENITY_FILTERS], { maxLength: 3 }),
    fc
      .subarray<AmenityFilter>([...AMENITY_FILTERS], { maxLength: 2 })
      .map((a) => [...new Set<AmenityFilter>([...a, "has_covered_parking", "has_uncovered_parking"])]),
  ),
  q: fc.option(fc.constantFrom(...TEXTS), { nil: undefined }),
  sort: fc.constantFrom("distance" as const, "rating" as const, "price" as const),
  rv: fc.option(
    fc.record({
      lengthFeet: fc.constantFrom(15, 20, 30, 35, 40, 42.5, 50),
      heightFeet: fc.option(fc.constantFrom(11, 12, 13.3, 13.5, 15), { nil: undefined }),
    }),
    { nil: undefined },
  ),
  maxPrice: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined, freq: 3 }),
  page: fc.integer({ min: 1, max: 4 }),
  pageSize: fc.integer({ min: 0, max: 15 }),
  state: fc.option(fc.constantFrom(...STATES), { nil: undefined, freq: 5 }),
  available: fc.boolean(),
  /** The query runs this many days after the rows were made: statuses go stale on the way. */
  laterDays: fc.double({ min: -1, max: 50, noNaN: true }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** The scenario's search: its centre, radius, order and page, and its filters unless told not to. */
function scenarioQuery(s: Scenario, { filters = true, rvHeight = true } = {}): SearchQuery {
  const rv = s.rv && (rvHeight && s.rv.heightFeet !== undefined ? s.rv : { lengthFeet: s.rv.lengthFeet });
  return query({
    lat: s.centre.lat,
    lng: s.centre.lng,
    radius: s.radius,
    sort: s.sort,
    page: s.page,
    pageSize: s.pageSize,
    ...(filters
      ? {
          sizes: s.sizes,
          amenities: s.amenities,
          ...(s.q ? { q: s.q } : {}),
          ...(rv ? { rv } : {}),
          ...(s.maxPrice === undefined ? {} : { maxPrice: s.maxPrice }),
          ...(s.available ? { available: true } : {}),
        }
      : {}),
  });
}

/** The index's answer is the brute-force search's: total, facets, and the page's rows as cards show them. */
function expectReferenceAnswer(
  actual: SearchResult,
  expected: ReturnType<typeof referenceSearch>,
  s: Scenario,
  now: Date,
): void {
  const offset = (s.page - 1) * s.pageSize;
  const page = s.pageSize === 0 ? [] : expected.ordered.slice(offset, offset + s.pageSize);
  expect(actual.total).toBe(expected.total);
  expect(actual.facets).toEqual(expected.facets);
  expect(actual.items.map((item) => [item.id, item.distanceMiles, item.minMonthlyPrice, item.availability])).toEqual(
    page.map((hit) => [
      hit.row.placeId,
      Math.round(hit.miles * 10) / 10,
      hit.price,
      availabilitySummary(hit.row.sizeOffers ?? [], now),
    ]),
  );
}

const daysBefore = (days: number) => new Date(Date.now() - days * DAY).toISOString();

function rowsOf(s: Scenario): NewLocationRow[] {
  const towns = s.towns.map((t, i) =>
    townAt(Math.max(-89.99, Math.min(89.99, s.centre.lat + t.dLat)), s.centre.lng + t.dLng, `Town ${i}`, t.state),
  );
  const rows = demoRowsAround(towns, s.count, s.seed);
  for (const m of s.mutations) {
    const row = rows[m.at % Math.max(1, rows.length)];
    const other = rows[m.other % Math.max(1, rows.length)];
    if (!row || !other) continue;
    if (m.kind === "noCoordinates") row.latitude = null;
    else if (m.kind === "zeroPoint") Object.assign(row, { latitude: 0, longitude: 0 });
    else if (m.kind === "samePointAs") Object.assign(row, { latitude: other.latitude, longitude: other.longitude });
    else if (m.kind === "twinOf") Object.assign(row, { ...other, placeId: row.placeId, slug: row.slug });
    else if (m.kind === "tier") row.tier = TIERS[m.other % TIERS.length]!;
    else if (m.kind === "noSizes") row.dimensions = [];
    else if (m.kind === "badSizes") row.dimensions = [{ width: Number.NaN, length: 20 }, null as never];
    else if (m.kind === "unrated") Object.assign(row, { rating: null, userRatingsTotal: 0 });
    else if (m.kind === "noAddress") row.address = null;
    else if (m.kind === "unusualName") row.name = UNUSUAL_NAMES[m.other % UNUSUAL_NAMES.length]!;
    else if (m.kind === "clearance") row.coveredClearanceFeet = [null, 11.5, 12, 13.3, 14, 15][m.other % 6]!;
    else if (m.kind === "noPrices") row.sizeOffers = [];
    else if (m.kind === "statuses") {
      // Every status, fresh and stale dates, a missing and an unreadable one.
      const kinds = ["available", "few_left", "waitlist", "full", null] as const;
      row.sizeOffers = (row.sizeOffers ?? []).map((offer, i) => {
        const dates = [daysBefore((m.other + i * 7) % 45), daysBefore(i * 13), null, "not a date"];
        return { ...offer, availability: kinds[(m.other + i) % kinds.length]!, statusAt: dates[(m.other + i) % 4]! };
      });
    }
  }
  return rows;
}

describe("search index: equals a brute-force search", () => {
  it("on total, page order, distances and facet counts", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const rows = rowsOf(s);
        const q = scenarioQuery(s);
        const now = new Date(Date.now() + s.laterDays * DAY);
        const scope = { ...(s.state ? { state: s.state } : {}), now: now.getTime() };
        expectReferenceAnswer(indexOf(rows).query(q, scope), referenceSearch(rows, q, s.state, now), s, now);
      }),
      { numRuns: 400 },
    );
  });

  it("every result of a size or amenity filter offers all of it (parking pair: either)", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const rows = rowsOf(s);
        const q = query({
          lat: s.centre.lat,
          lng: s.centre.lng,
          radius: s.radius,
          sizes: s.sizes,
          amenities: s.amenities,
          pageSize: 100,
        });
        const result = indexOf(rows).query(q);
        const either = s.amenities.includes("has_covered_parking") && s.amenities.includes("has_uncovered_parking");
        for (const item of result.items) {
          for (const size of s.sizes) expect(result.facets.sizes[size]).toBe(result.total);
          for (const flag of s.amenities) {
            if (either && (flag === "has_covered_parking" || flag === "has_uncovered_parking")) {
              expect(
                item.amenities.includes("has_covered_parking") || item.amenities.includes("has_uncovered_parking"),
              ).toBe(true);
            } else if (isAmenityFlag(flag)) expect(item.amenities).toContain(flag);
            // Items list flags only; a text amenity shows as every result having it.
            else expect(result.facets.amenities[flag]).toBe(result.total);
          }
          expect(item.distanceMiles).toBeLessThanOrEqual(Math.round(s.radius * 10) / 10 + 0.05);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("search index: a large search, from block summaries, equals a brute-force search", () => {
  // Hundreds of rows around a few towns, so that blocks of 64 (blocks.ts) lie wholly inside some
  // circles; some rows deleted or changed since the build (their blocks are then read row by row);
  // no filters, all of them, or only those that whole blocks answer from their bitsets.
  const plain = fc.record({
    base: scenario,
    count: fc.integer({ min: 64, max: 400 }),
    markers: fc.integer({ min: 0, max: 30 }),
    // "masks": only the filters the blocks' row bitsets decide alone (sizes, amenities, available
    // now), so that whole blocks of filtered results are counted without reading their rows.
    filters: fc.constantFrom("none" as const, "all" as const, "masks" as const),
    changes: fc.array(fc.record({ at: fc.nat(), remove: fc.boolean() }), { maxLength: 6 }),
  });

  it("on totals, facets, page order, distances, prices, availability and map markers", () => {
    fc.assert(
      fc.property(plain, ({ base, count, markers, filters, changes }) => {
        const start = rowsOf({ ...base, count });
        const index = indexOf(start);
        const current = new Map(start.map((row) => [row.placeId, row]));
        for (const change of changes) {
          const ids = [...current.keys()];
          const id = ids[change.at % Math.max(1, ids.length)];
          if (id === undefined) continue;
          if (change.remove) {
            current.delete(id);
            index.apply({ removed: [id] });
          } else {
            // A rating counts with its reviews (docs/product.md section 16): both are changed.
            const next = {
              ...current.get(id)!,
              tier: TIERS[change.at % TIERS.length]!,
              rating: 4.5,
              userRatingsTotal: 1 + (change.at % 400),
            };
            current.set(id, next);
            index.apply({ rows: [searchRowFromLocation(next)] });
          }
        }
        const rows = [...current.values()];
        const q =
          filters === "masks"
            ? scenarioQuery({ ...base, q: undefined, rv: undefined, maxPrice: undefined })
            : scenarioQuery(base, { filters: filters === "all" });
        const now = new Date(Date.now() + base.laterDays * DAY);
        const actual = index.search(q, { now: now.getTime(), maxMarkers: markers });
        const expected = referenceSearch(rows, q, undefined, now);
        expectReferenceAnswer(actual.result, expected, base, now);
        // The nearest results, whatever the sort (ties at the last one may be either).
        const nearest = expected.ordered.map((hit) => Math.round(hit.miles * 10) / 10).sort((a, b) => a - b);
        expect(actual.markers.map((marker) => marker.distanceMiles)).toEqual(nearest.slice(0, markers));
        const found = new Set(expected.ordered.map((hit) => hit.row.placeId));
        for (const marker of actual.markers) expect(found.has(marker.id), marker.id).toBe(true);
        expect(index.queryJson(q, { now: now.getTime() }).toString()).toBe(JSON.stringify(actual.result));
        // The bytes keep each card's availability line until it may change: later and earlier
        // moments give the lines the objects give then.
        for (const days of [0.4, 3, 45, -2]) {
          const then = { now: now.getTime() + days * DAY };
          expect(index.queryJson(q, then).toString()).toBe(JSON.stringify(index.search(q, then).result));
        }
      }),
      { numRuns: 250 },
    );
  });
});

describe("search index: changes in place equal a brute-force search of the changed rows", () => {
  const edit = fc.record({
    kind: fc.constantFrom("insert", "edit", "edit", "move", "delete", "noPoint", "reinsert"),
    at: fc.nat(),
    other: fc.nat(),
  });
  const changes = fc.record({
    base: scenario,
    edits: fc.array(edit, { minLength: 1, maxLength: 25 }),
    fold: fc.boolean(),
  });

  it("on totals, page order, distances, prices and facets, before and after a rebuild", () => {
    fc.assert(
      fc.property(changes, ({ base, edits, fold }) => {
        const start = rowsOf(base);
        const spare = rowsOf({ ...base, seed: base.seed + 1, mutations: [] }).map((row, i) => ({
          ...row,
          placeId: `new_${i}`,
          slug: `new-${i}`,
        }));
        const index = indexOf(start);
        // Fragments of the rows before the changes are kept: a changed row must not show them.
        index.queryJson(query({ lat: base.centre.lat, lng: base.centre.lng, radius: 500, pageSize: 100 }));
        const current = new Map(start.map((row) => [row.placeId, row]));
        const removedIds: string[] = [];
        for (const e of edits) {
          const ids = [...current.keys()];
          const id = ids[e.at % Math.max(1, ids.length)];
          const other = start[e.other % Math.max(1, start.length)];
          if (e.kind === "insert" && spare.length > 0) {
            const row = spare.shift()!;
            current.set(row.placeId, row);
            index.apply({ rows: [searchRowFromLocation(row)] });
          } else if (e.kind === "reinsert" && removedIds.length > 0) {
            const back = start.find((row) => row.placeId === removedIds[e.at % removedIds.length]);
            if (back && !current.has(back.placeId)) {
              current.set(back.placeId, back);
              index.apply({ rows: [searchRowFromLocation(back)] });
            }
          } else if (id !== undefined && e.kind === "delete") {
            current.delete(id);
            removedIds.push(id);
            index.apply({ removed: [id] });
          } else if (id !== undefined && other) {
            const was = current.get(id)!;
            const next: NewLocationRow =
              e.kind === "move"
                ? { ...was, latitude: other.latitude, longitude: (((other.longitude ?? 0) + 0.01 + 540) % 360) - 180 }
                : e.kind === "noPoint"
                  ? { ...was, latitude: null }
                  : {
                      ...was,
                      tier: TIERS[e.other % TIERS.length]!,
                      rating: other.rating,
                      userRatingsTotal: other.userRatingsTotal,
                      dimensions: other.dimensions,
                      sizeOffers: other.sizeOffers,
                      hasCoveredParking: other.hasCoveredParking,
                      name: other.name,
                    };
            current.set(id, next);
            index.apply({ rows: [searchRowFromLocation(next)] });
          }
        }
        const rows = [...current.values()];
        const q = scenarioQuery(base, { rvHeight: false });
        const now = Date.now();
        const scope = { ...(base.state ? { state: base.state } : {}), now };
        const expected = referenceSearch(rows, q, base.state, new Date(now));
        const offset = (base.page - 1) * base.pageSize;
        const page = base.pageSize === 0 ? [] : expected.ordered.slice(offset, offset + base.pageSize);
        const searched = fold ? indexOf(rows) : index;
        const actual = searched.query(q, scope);
        // The API's JSON, made from kept fragments, is the same text as the objects' (twice: the
        // second time from the fragments kept by the first).
        expect(searched.queryJson(q, scope).toString()).toBe(JSON.stringify(actual));
        expect(searched.queryJson(q, scope).toString()).toBe(JSON.stringify(actual));
        expect(actual.total).toBe(expected.total);
        expect(actual.facets).toEqual(expected.facets);
        expect(actual.items.map((item) => [item.id, item.distanceMiles, item.minMonthlyPrice])).toEqual(
          page.map((hit) => [hit.row.placeId, Math.round(hit.miles * 10) / 10, hit.price]),
        );
        expect(searched.size).toBe(indexOf(rows).size);
        for (const row of rows) {
          const { latitude: lat, longitude: lng } = row;
          const listed =
            typeof lat === "number" && typeof lng === "number" && isValidLatLng(lat, lng) && !(lat === 0 && lng === 0);
          if (listed) expect(index.has(row.placeId), row.placeId).toBe(true);
        }
        for (const id of removedIds) if (!current.has(id)) expect(index.has(id)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("finds every listing by id whether the rows came in id order or not", () => {
    const rows = demoRowsAround([townAt(30.2672, -97.7431, "Austin")], 300, 4);
    const sorted = [...rows].sort((a, b) => (a.placeId < b.placeId ? -1 : 1));
    for (const order of [rows, sorted, [...sorted].reverse()]) {
      const index = indexOf(order);
      for (const row of rows) expect(index.has(row.placeId), row.placeId).toBe(true);
      expect(index.has("demo_not_there")).toBe(false);
      index.apply({ removed: [sorted[150]!.placeId] });
      expect(index.has(sorted[150]!.placeId)).toBe(false);
      expect(index.has(sorted[149]!.placeId)).toBe(true);
    }
  });

  it("counts each change as a new version and finds a changed listing by text", () => {
    const rows = [at(1, { name: "Old Name Storage" }), at(2), at(3)];
    const index = indexOf(rows);
    const before = index.version;
    index.apply({ rows: [searchRowFromLocation({ ...rows[0]!, name: "Fresh Paint Storage" })] });
    expect(index.version).toBe(before + 1);
    expect(index.findByText("fresh paint").items.map((i) => i.id)).toEqual([rows[0]!.placeId]);
    expect(index.findByText("old name").total).toBe(0);
    index.apply({ removed: [rows[1]!.placeId, "no-such-listing"] });
    expect(index.size).toBe(2);
    expect(index.appended).toBe(1);
  });
});

describe("findByText", () => {
  const rows = [
    at(1, { name: "Lakeside RV Storage", address: "1 Lake Rd, Austin, TX", state: "TX" }),
    at(2, { name: "Austin Boat & RV", address: "9 Main St, Austin, TX", state: "TX" }),
    at(900, { name: "Desert Storage", address: "5 Sun Ave, Phoenix, AZ", state: "AZ" }),
  ];

  it("matches every word across name, address and state, name prefixes first, nationwide", () => {
    const index = indexOf(rows);
    expect(index.findByText("austin").items.map((i) => i.name)).toEqual(["Austin Boat & RV", "Lakeside RV Storage"]);
    expect(index.findByText("  STORAGE   phoenix ").items.map((i) => i.id)).toEqual([rows[2]!.placeId]);
    expect(index.findByText("storage", 1)).toMatchObject({ total: 2, items: [{ name: "Desert Storage" }] });
    expect(index.findByText("   ").total).toBe(0);
  });
});
