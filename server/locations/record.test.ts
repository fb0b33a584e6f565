import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LocationRow } from "../db/schema";
import { cityFromShortAddress, placeFromAddress } from "./address";
import { RAW_FIELDS, formatLocationRecord, parseLocationRecord, unknownFields, type RawRecord } from "./record";

const NOW = new Date("2025-01-01T00:00:00Z");

function accepted(record: RawRecord) {
  const result = parseLocationRecord(record, { now: NOW });
  if (!result.ok) throw new Error(`expected the record to be accepted: ${JSON.stringify(result.errors)}`);
  return result.row;
}

function errorsOf(record: RawRecord) {
  const result = parseLocationRecord(record, { now: NOW });
  if (result.ok) throw new Error("expected the record to be rejected");
  return result.errors;
}

const base = { place_id: "ChIJrecord-test-0001", name: "Test Storage" };

describe("placeFromAddress", () => {
  it.each([
    ["123 Main St, Austin, TX 78701, USA", { city: "Austin", state: "TX" }],
    ["123 Main St, Suite 4, San Antonio, TX 78205-1234, United States", { city: "San Antonio", state: "TX" }],
    ["900 Colfax Ave, Denver, Colorado 80204", { city: "Denver", state: "CO" }],
    ["1 Pennsylvania Ave, Washington, DC 20500, USA", { city: "Washington", state: "DC" }],
    ["Austin, TX, 78701", { city: "Austin", state: "TX" }],
    ["12 Oak Rd, TX 78701", { state: "TX" }],
    ["123 Main St, Austin", {}],
    ["", {}],
  ])("%s", (address, place) => expect(placeFromAddress(address)).toEqual(place));

  it("takes the town from a short address", () => {
    expect(cityFromShortAddress("123 Main St, Austin")).toBe("Austin");
    expect(cityFromShortAddress("123 Main St")).toBeUndefined();
  });
});

describe("parseLocationRecord", () => {
  it("derives city, state, slug and geohash", () => {
    const row = accepted({
      ...base,
      address: "123 Main St, Austin, TX 78701, USA",
      latitude: "30.2672",
      longitude: "-97.7431",
      geohash: "stale",
    });
    expect(row).toMatchObject({
      city: "Austin",
      state: "TX",
      slug: "test-storage-austin-tx-chijrecordtest0001",
      geohash: "9v6kpvcxhx",
      latitude: 30.2672,
      longitude: -97.7431,
    });
  });

  it("converts a state name, upper-cases a code, and lets the column win over the address", () => {
    expect(accepted({ ...base, state: "new mexico" }).state).toBe("NM");
    expect(accepted({ ...base, state: " tx " }).state).toBe("TX");
    expect(accepted({ ...base, state: "OK", address: "1 A St, Tulsa, TX 74103" }).state).toBe("OK");
  });

  it("applies the defaults: no coordinates, Free, no flags, dates now", () => {
    const row = accepted(base);
    expect(row).toMatchObject({
      latitude: null,
      longitude: null,
      geohash: null,
      tier: "Free",
      isDemo: false,
      hasCoveredParking: false,
      userRatingsTotal: 0,
      dimensions: [],
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it("matches keys trimmed and in any case", () => {
    expect(accepted({ " Place_ID ": "ChIJrecord-test-0002", NAME: "Upper" })).toMatchObject({
      placeId: "ChIJrecord-test-0002",
      name: "Upper",
    });
  });

  it.each([
    [{ place_id: "", name: "x" }, "place_id", "is required"],
    [{ place_id: "ChIJ with space", name: "x" }, "place_id", '"ChIJ with space" must not contain whitespace'],
    [{ place_id: "ChIJok", name: "  " }, "name", "is required"],
    [{ ...base, latitude: "95", longitude: "1" }, "latitude", "95 is out of range (-90 to 90)"],
    [{ ...base, latitude: "1", longitude: "abc" }, "longitude", '"abc" is not a number'],
    [{ ...base, latitude: "30.1" }, "longitude", "is empty while latitude is set"],
    [{ ...base, longitude: "-97" }, "latitude", "is empty while longitude is set"],
    [{ ...base, rating: "5.5" }, "rating", "5.5 is out of range (0 to 5)"],
    [{ ...base, user_ratings_total: "-1" }, "user_ratings_total", '"-1" is not a non-negative whole number'],
    [{ ...base, state: "Texsa" }, "state", '"Texsa" is not a US state name or two-letter code'],
    [{ ...base, state: "ZZ" }, "state", '"ZZ" is not a US state name or two-letter code'],
    [{ ...base, created_at: "yesterday" }, "created_at", '"yesterday" is not an ISO date such as 2024-05-01T12:00:00Z'],
    [{ ...base, dimensions: "10x20, big" }, "dimensions", '"big" is not a size like 10x20'],
    [{ ...base, tier: "Gold" }, "tier", '"Gold" is not one of Pro, Preferred, Basic, Free'],
    [{ ...base, dump_station: "maybe" }, "dump_station", '"maybe" is not True or False'],
    [{ ...base, photos: "{" }, "photos", expect.stringMatching(/^is not valid JSON/)],
    [
      { ...base, size_offers: "[1]" },
      "size_offers",
      '"1" is not a size like {"width":12,"length":30,"monthlyPrice":150}',
    ],
    [
      { ...base, size_offers: [{ width: 12, length: 30, price: 5 }] },
      "size_offers",
      '"price" is not a size field (width, length, monthlyPrice, availability, openSpaces, statusAt)',
    ],
    [
      { ...base, size_offers: [{ width: 12, length: 30, monthlyPrice: 9.5 }] },
      "size_offers",
      'monthlyPrice "9.5" is not whole dollars from 0 to 100000',
    ],
    [
      { ...base, size_offers: [{ width: 12, length: 30, availability: "soon" }] },
      "size_offers",
      'availability "soon" is not one of available, few_left, waitlist, full',
    ],
    [
      {
        ...base,
        size_offers: [
          { width: 12, length: 30 },
          { width: 12, length: 30 },
        ],
      },
      "size_offers",
      "size 12x30 is listed twice",
    ],
    [{ ...base, covered_clearance_feet: "90" }, "covered_clearance_feet", "90 is out of range (6 to 40)"],
  ])("rejects %j: %s", (record, field, reason) => {
    expect(errorsOf(record)).toEqual([{ field, reason }]);
  });

  it("reports every problem of a record at once, with its place id", () => {
    const result = parseLocationRecord({ place_id: " ChIJmany ", rating: "9", latitude: "1", tier: "x" }, { now: NOW });
    expect(result).toMatchObject({ ok: false, placeId: "ChIJmany" });
    expect(result.ok ? [] : result.errors.map((e) => e.field).sort()).toEqual(["longitude", "name", "rating", "tier"]);
  });

  it("lists every size with a price when the record has size_offers, and leaves owner fields out otherwise", () => {
    const row = accepted({
      ...base,
      dimensions: "10x20, 12x30",
      size_offers: '[{"width":12,"length":30,"monthlyPrice":165,"availability":"full"}]',
    });
    expect(row.sizeOffers).toEqual([
      { width: 10, length: 20, monthlyPrice: null, availability: null },
      { width: 12, length: 30, monthlyPrice: 165, availability: "full" },
    ]);
    const extra = accepted({ ...base, dimensions: "10x20", size_offers: [{ width: 12, length: 40 }] });
    expect(extra.dimensions).toEqual([
      { width: 10, length: 20 },
      { width: 12, length: 40 },
    ]);
    const plain = accepted({ ...base, dimensions: "10x20" });
    expect(plain.sizeOffers).toBeUndefined();
    expect(plain.pricesConfirmedAt).toBeUndefined();
    expect(plain.coveredClearanceFeet).toBeUndefined();
  });

  it("lists the keys that are not raw fields", () => {
    expect(unknownFields({ place_id: "x", Name: "y", legacy_notes: "z" })).toEqual(["legacy_notes"]);
  });
});

describe("formatLocationRecord", () => {
  it("writes every raw field, and reads back to the same row", () => {
    const row = accepted({
      ...base,
      address: "5 Main St, Tulsa, OK 74103, USA",
      latitude: 36.154,
      longitude: -95.9928,
      rating: 4.5,
      dimensions: "10x20, 12x30",
      reviews: "[Ann] Rating: 5 (a day ago) - Great, clean. | [Bo] Rating: 2 (a year ago) - Meh",
      opening_hours: "Monday: Closed; Tuesday: 9 AM – 5 PM",
      viewport: { low: { latitude: 1, longitude: 2 }, high: { latitude: 3, longitude: 4 } },
      photos: [{ name: "p/1" }],
      tier: "preferred",
      pull_thru: true,
      size_offers: [{ width: 12, length: 30, monthlyPrice: 165, availability: "waitlist" }],
      prices_confirmed_at: "2026-11-02T09:00:00Z",
      covered_clearance_feet: 14.5,
      gate_hours: "Monday: 6:00 AM – 10:00 PM; Tuesday: Open 24 hours",
    });
    const record = formatLocationRecord(row as LocationRow);
    expect(record.gate_hours).toBe("Monday: 6:00 AM – 10:00 PM; Tuesday: Open 24 hours");
    expect(Object.keys(record)).toEqual([...RAW_FIELDS]);
    expect(record).toMatchObject({
      dimensions: "10x20, 12x30",
      pull_thru: "True",
      dump_station: "False",
      tier: "Preferred",
      latitude: "36.154",
    });
    expect(accepted(record)).toEqual(row);
  });

  it("reads back any valid coordinates, rating and counts unchanged", () => {
    const values = fc.record({
      latitude: fc.double({ min: -90, max: 90, noNaN: true }),
      longitude: fc.double({ min: -180, max: 180, noNaN: true }),
      rating: fc.option(fc.integer({ min: 0, max: 50 }).map((n) => n / 10)),
      user_ratings_total: fc.nat(),
      name: fc.string({ minLength: 1 }).map((s) => `x${s.trim()}`),
    });
    fc.assert(
      fc.property(values, (record) => {
        const row = accepted({ ...base, ...record });
        // A written file always carries the owner fields, empty when the row has none.
        const written = { ...row, sizeOffers: [], pricesConfirmedAt: null, coveredClearanceFeet: null, gateHours: [] };
        expect(accepted(formatLocationRecord(row as LocationRow))).toEqual(written);
      }),
    );
  });
});
