import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AMENITY_FLAGS } from "../../domain/amenities";
import { SIZE_OPTIONS_LIST, sizeOptionDimensions } from "../../domain/sizes";
import {
  AMENITY_BIT,
  PARKING_BITS,
  amenityFlagsOfMask,
  amenityMaskOf,
  amenityRequirement,
  sizeLabelsOf,
  sizeMaskOf,
  sizeRequirement,
} from "./masks";

const bitOf = (size: (typeof SIZE_OPTIONS_LIST)[number]) => 1 << SIZE_OPTIONS_LIST.indexOf(size);

describe("size masks", () => {
  it("sets option k when some dimension is at least as wide and as long", () => {
    const mask = sizeMaskOf([{ width: 12, length: 25 }]);
    expect(mask & bitOf("10x20")).not.toBe(0);
    expect(mask & bitOf("12x25")).not.toBe(0);
    expect(mask & bitOf("12x30")).toBe(0);
    expect(mask & bitOf("15x20")).toBe(0);
    // Not rotated: 40 wide by 12 long is not 12 wide by 40 long.
    expect(sizeMaskOf([{ width: 40, length: 12 }]) & bitOf("10x20")).toBe(0);
  });

  it("gives 0 without a parseable dimension", () => {
    expect(sizeMaskOf([])).toBe(0);
    expect(sizeMaskOf(null)).toBe(0);
    expect(sizeMaskOf([{ width: "10", length: 20 }, { width: Number.NaN, length: 30 }, null, 7])).toBe(0);
    expect(
      sizeLabelsOf([
        { width: 10, length: 20 },
        { width: -1, length: 5 },
      ]),
    ).toEqual(["10x20"]);
  });

  it("agrees with the rule for any dimensions (property)", () => {
    const dimension = fc.record({ width: fc.integer({ min: 1, max: 60 }), length: fc.integer({ min: 1, max: 60 }) });
    fc.assert(
      fc.property(fc.array(dimension, { maxLength: 5 }), (dims) => {
        const mask = sizeMaskOf(dims);
        for (const size of SIZE_OPTIONS_LIST) {
          const { width, length } = sizeOptionDimensions(size);
          const expected = dims.some((d) => d.width >= width && d.length >= length);
          expect((mask & bitOf(size)) !== 0).toBe(expected);
        }
      }),
    );
  });

  it("requires every selected size", () => {
    expect(sizeRequirement(["10x20", "12x30"])).toBe(bitOf("10x20") | bitOf("12x30"));
    expect(sizeRequirement([])).toBe(0);
  });
});

describe("amenity masks", () => {
  it("holds the 18 flags in order, then the non-empty text amenities", () => {
    const mask = amenityMaskOf(
      { has_perimeter_fencing: true, dump_station: true, pull_thru: false },
      { parking_options: "Free lot", payment_options: "  ", accessibility_options: null },
    );
    expect(amenityFlagsOfMask(mask)).toEqual(["has_perimeter_fencing", "dump_station"]);
    expect(mask >>> AMENITY_FLAGS.length).toBe(0b001);
    expect(amenityFlagsOfMask((1 << AMENITY_FLAGS.length) - 1)).toEqual([...AMENITY_FLAGS]);
  });

  it("requires every selected flag; the parking pair together means either", () => {
    expect(amenityRequirement(["dump_station", "has_covered_parking"])).toEqual({
      all: AMENITY_BIT.dump_station | AMENITY_BIT.has_covered_parking,
      anyOf: 0,
    });
    expect(amenityRequirement(["has_uncovered_parking", "dump_station", "has_covered_parking"])).toEqual({
      all: AMENITY_BIT.dump_station,
      anyOf: PARKING_BITS,
    });
  });
});
