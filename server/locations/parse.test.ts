import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ParseError,
  formatDate,
  formatDimensions,
  formatFlag,
  formatHours,
  formatNumber,
  formatReviews,
  parseCoordinate,
  parseCount,
  parseDate,
  parseDimensions,
  parseFlag,
  parseHours,
  parseJsonArray,
  parseNumber,
  parseReviews,
  parseStringList,
  parseText,
  parseTier,
  parseViewport,
} from "./parse";
import type { Review } from "./types";

/** Text as the parsers hand it back: trimmed. */
const trimmed = (options: fc.StringConstraints = {}) => fc.string(options).map((s) => s.trim());

describe("parseFlag", () => {
  it.each([
    ["True", true],
    ["true", true],
    ["1", true],
    [" TRUE ", true],
    ["yes", true],
    ["False", false],
    ["false", false],
    ["0", false],
    ["", false],
    [undefined, false],
    [null, false],
    [true, true],
    [false, false],
    [1, true],
    [0, false],
  ])("%j -> %s", (input, output) => expect(parseFlag(input)).toBe(output));

  it("rejects anything else, naming the value", () => {
    expect(() => parseFlag("maybe")).toThrow(new ParseError('"maybe" is not True or False'));
    expect(() => parseFlag(2)).toThrow(ParseError);
  });

  it("reads back what formatFlag writes", () => {
    fc.assert(
      fc.property(fc.boolean(), (b) => {
        expect(parseFlag(formatFlag(b))).toBe(b);
      }),
    );
  });

  it("either reads a flag or throws a ParseError, for any text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          expect(typeof parseFlag(text)).toBe("boolean");
        } catch (error) {
          expect(error).toBeInstanceOf(ParseError);
        }
      }),
    );
  });
});

describe("parseNumber, parseCount and parseCoordinate", () => {
  it("reads decimal text and typed numbers, empty as null", () => {
    expect(parseNumber("30.2672")).toBe(30.2672);
    expect(parseNumber(" -97.7431 ")).toBe(-97.7431);
    expect(parseNumber(4)).toBe(4);
    expect(parseNumber("1e-7")).toBe(1e-7);
    expect(parseNumber("")).toBeNull();
    expect(parseNumber("NULL")).toBeNull();
    expect(parseNumber(null)).toBeNull();
    expect(parseNumber("-0")).toBe(0);
  });

  it.each(["abc", "0x10", "Infinity", "1e400", "12abc", "1,5", "--1", "."])("rejects %j", (text) => {
    expect(() => parseNumber(text)).toThrow(ParseError);
  });

  it("reads counts with thousands separators and rejects fractions and negatives", () => {
    expect(parseCount("1,234")).toBe(1234);
    expect(parseCount("")).toBe(0);
    expect(() => parseCount("2.5")).toThrow(/non-negative whole number/);
    expect(() => parseCount("-3")).toThrow(/non-negative whole number/);
  });

  it("checks the range of each axis", () => {
    expect(parseCoordinate("90", "latitude")).toBe(90);
    expect(parseCoordinate("-180", "longitude")).toBe(-180);
    expect(() => parseCoordinate("95", "latitude")).toThrow(new ParseError("95 is out of range (-90 to 90)"));
    expect(() => parseCoordinate("-180.5", "longitude")).toThrow(/out of range \(-180 to 180\)/);
    expect(() => parseCoordinate("abc", "longitude")).toThrow(new ParseError('"abc" is not a number'));
  });

  it("reads back every coordinate it writes, exactly", () => {
    const axis = fc.constantFrom("latitude" as const, "longitude" as const);
    fc.assert(
      fc.property(axis, fc.double({ min: -180, max: 180, noNaN: true }), (which, value) => {
        fc.pre(which === "longitude" || Math.abs(value) <= 90);
        expect(parseCoordinate(formatNumber(value), which)).toBe(value === 0 ? 0 : value);
      }),
    );
  });

  it("rejects every coordinate out of range", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 90, noNaN: true, noDefaultInfinity: true, minExcluded: true }),
        fc.boolean(),
        (value, negative) => {
          expect(() => parseCoordinate(formatNumber(negative ? -value : value), "latitude")).toThrow(ParseError);
        },
      ),
    );
  });

  it("returns a number in range, null, or a ParseError for any text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          const value = parseCoordinate(text, "latitude");
          if (value !== null) expect(Math.abs(value)).toBeLessThanOrEqual(90);
        } catch (error) {
          expect(error).toBeInstanceOf(ParseError);
        }
      }),
    );
  });
});

describe("parseDimensions", () => {
  it("reads the tolerated spellings of a size", () => {
    expect(parseDimensions("10x20, 12 x 30, 14X40, 10'x25', 8.5 × 20")).toEqual([
      { width: 10, length: 20 },
      { width: 12, length: 30 },
      { width: 14, length: 40 },
      { width: 10, length: 25 },
      { width: 8.5, length: 20 },
    ]);
  });

  it("reads NULL, empty and typed lists", () => {
    expect(parseDimensions("NULL")).toEqual([]);
    expect(parseDimensions("")).toEqual([]);
    expect(parseDimensions(undefined)).toEqual([]);
    expect(parseDimensions([{ width: 10, length: 30 }, "12x40"])).toEqual([
      { width: 10, length: 30 },
      { width: 12, length: 40 },
    ]);
  });

  it("names the malformed piece", () => {
    expect(() => parseDimensions("10x20, 12by30")).toThrow(new ParseError('"12by30" is not a size like 10x20'));
    expect(() => parseDimensions("0x20")).toThrow(/"0x20"/);
    expect(() => parseDimensions("10x20x8")).toThrow(/"10x20x8"/);
  });

  const dimension = fc.record({
    width: fc.double({ min: 0.01, max: 10_000, noNaN: true }),
    length: fc.double({ min: 0.01, max: 10_000, noNaN: true }),
  });

  it("reads back what formatDimensions writes", () => {
    fc.assert(
      fc.property(fc.array(dimension), (dims) => {
        expect(parseDimensions(formatDimensions(dims))).toEqual(dims);
      }),
    );
  });

  it("reads whole-foot sizes in any tolerated spelling", () => {
    const spelling = fc.constantFrom(
      (w: number, l: number) => `${w}x${l}`,
      (w: number, l: number) => `${w} x ${l}`,
      (w: number, l: number) => `${w}X${l}`,
      (w: number, l: number) => `${w}'x${l}'`,
    );
    const size = fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), spelling);
    fc.assert(
      fc.property(fc.array(size, { minLength: 1 }), (sizes) => {
        const text = sizes.map(([w, l, spell]) => spell(w, l)).join(", ");
        expect(parseDimensions(text)).toEqual(sizes.map(([width, length]) => ({ width, length })));
      }),
    );
  });
});

describe("parseReviews", () => {
  it("splits entries on ' | ' only where a new entry starts", () => {
    expect(
      parseReviews(
        "[Jane D.] Rating: 5 (2 months ago) - Great place, secure. | [Bob] Rating: 3 (a year ago) - OK | not great",
      ),
    ).toEqual([
      { author: "Jane D.", rating: 5, relativeTime: "2 months ago", text: "Great place, secure." },
      { author: "Bob", rating: 3, relativeTime: "a year ago", text: "OK | not great" },
    ]);
  });

  it("reads empty input and typed entries", () => {
    expect(parseReviews("")).toEqual([]);
    expect(parseReviews([{ author: "Kim", rating: 4, time: "a week ago", text: " Fine " }])).toEqual([
      { author: "Kim", rating: 4, relativeTime: "a week ago", text: "Fine" },
    ]);
  });

  it("names a malformed entry", () => {
    expect(() => parseReviews("[Bob] rated it 3 | [Jane] Rating: 5 (today) - ok")).toThrow(/"\[Bob\] rated it 3"/);
    expect(() => parseReviews("Great place")).toThrow(
      'review "Great place" is not in the form "[author] Rating: N (time) - text"',
    );
    expect(() => parseReviews("[Jane] Rating: 9 (today) - ok")).toThrow(/outside 0 to 5/);
  });

  const review: fc.Arbitrary<Review> = fc.record({
    author: trimmed().filter((s) => !/[\]\n]/.test(s)),
    rating: fc.integer({ min: 0, max: 50 }).map((n) => n / 10),
    relativeTime: trimmed().filter((s) => !s.includes(")")),
    // Only text that itself looks like the start of another entry cannot be told apart.
    text: trimmed().filter((s) => !/ \| \[[^\]\n]*\] Rating: /.test(s)),
  });

  it("reads back what formatReviews writes", () => {
    fc.assert(
      fc.property(fc.array(review), (reviews) => {
        expect(parseReviews(formatReviews(reviews))).toEqual(reviews);
      }),
    );
  });
});

describe("parseHours", () => {
  it("splits day lines on semicolons (or line breaks)", () => {
    expect(parseHours("Monday: 8:00 AM – 6:00 PM; Tuesday: 8:00 AM – 6:00 PM;")).toEqual([
      "Monday: 8:00 AM – 6:00 PM",
      "Tuesday: 8:00 AM – 6:00 PM",
    ]);
    expect(parseHours("Monday: Closed\nTuesday: Closed")).toEqual(["Monday: Closed", "Tuesday: Closed"]);
    expect(parseHours(["Monday: Closed"])).toEqual(["Monday: Closed"]);
    expect(parseHours("")).toEqual([]);
  });

  it("reads back what formatHours writes", () => {
    const line = trimmed().filter((s) => s !== "" && !/[;\r\n]/.test(s));
    fc.assert(
      fc.property(fc.array(line), (lines) => {
        expect(parseHours(formatHours(lines))).toEqual(lines);
      }),
    );
  });
});

describe("other fields", () => {
  it("reads lists as JSON arrays, ' | ' lists or comma lists", () => {
    expect(parseStringList('["a.jpg", "b,c.jpg"]')).toEqual(["a.jpg", "b,c.jpg"]);
    expect(parseStringList("a.jpg | b.jpg")).toEqual(["a.jpg", "b.jpg"]);
    expect(parseStringList("storage, establishment")).toEqual(["storage", "establishment"]);
    expect(() => parseStringList("[1,")).toThrow(/not valid JSON/);
  });

  it("reads JSON arrays and viewports in both Places API shapes", () => {
    expect(parseJsonArray('[{"a":1}]')).toEqual([{ a: 1 }]);
    expect(() => parseJsonArray('{"a":1}')).toThrow(/not a JSON array/);
    const viewport = { low: { latitude: 1, longitude: 2 }, high: { latitude: 3, longitude: 4 } };
    expect(parseViewport(JSON.stringify(viewport))).toEqual(viewport);
    expect(parseViewport({ southwest: { lat: 1, lng: 2 }, northeast: { lat: 3, lng: 4 } })).toEqual(viewport);
    expect(parseViewport("")).toBeNull();
    expect(() => parseViewport('{"low":1}')).toThrow(/not a viewport/);
  });

  it("reads ISO dates, a time without a zone as UTC, and rejects impossible days", () => {
    expect(parseDate("2024-03-01 08:30:00")?.toISOString()).toBe("2024-03-01T08:30:00.000Z");
    expect(parseDate("2024-03-01")?.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(parseDate("2024-03-01T08:30:00-05:00")?.toISOString()).toBe("2024-03-01T13:30:00.000Z");
    expect(parseDate("")).toBeNull();
    expect(() => parseDate("2024-02-31")).toThrow(/not an ISO date/);
    expect(() => parseDate("yesterday")).toThrow(/"yesterday" is not an ISO date/);
  });

  it("reads back every date it writes", () => {
    const date = fc.date({
      min: new Date("1900-01-01T00:00:00Z"),
      max: new Date("2200-01-01T00:00:00Z"),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(date, (d) => {
        expect(parseDate(formatDate(d))?.getTime()).toBe(d.getTime());
      }),
    );
  });

  it("reads tiers in any case, empty as Free", () => {
    expect(parseTier("pro")).toBe("Pro");
    expect(parseTier("PREFERRED")).toBe("Preferred");
    expect(parseTier("")).toBe("Free");
    expect(() => parseTier("Gold")).toThrow('"Gold" is not one of Pro, Preferred, Basic, Free');
  });

  it("keeps free text trimmed, and typed values as text", () => {
    expect(parseText("  a  ")).toBe("a");
    expect(parseText("   ")).toBeNull();
    expect(parseText(6025550100)).toBe("6025550100");
    expect(parseText({ freeParkingLot: true })).toBe('{"freeParkingLot":true}');
  });
});
