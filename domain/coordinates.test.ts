import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haversineMiles, parseCoordinates } from "./coordinates";

const lat = fc.double({ min: -90, max: 90, noNaN: true });
const lng = fc.double({ min: -180, max: 180, noNaN: true });
const separator = fc.constantFrom(",", ", ", " ,", " , ", " ", "  ", "\t", ",\t");
/** Formats a number as String() does, or with a fixed number of decimals. */
const format = fc.oneof(
  fc.constant((x: number) => String(x)),
  fc.integer({ min: 0, max: 8 }).map((digits) => (x: number) => x.toFixed(digits)),
);

describe("parseCoordinates", () => {
  it("parses the documented forms", () => {
    expect(parseCoordinates("30.27, -97.74")).toEqual({ lat: 30.27, lng: -97.74 });
    expect(parseCoordinates("30.27 -97.74")).toEqual({ lat: 30.27, lng: -97.74 });
    expect(parseCoordinates("  30.27,-97.74  ")).toEqual({ lat: 30.27, lng: -97.74 });
    expect(parseCoordinates("(30.27, -97.74)")).toEqual({ lat: 30.27, lng: -97.74 });
    expect(parseCoordinates("30.27° N, 97.74° W")).toEqual({ lat: 30.27, lng: -97.74 });
    expect(parseCoordinates("97.74W 30.27N")).toEqual({ lat: 30.27, lng: -97.74 });
  });

  it("rejects other text", () => {
    for (const text of [
      "",
      "78701",
      "Austin, TX",
      "30.27",
      "30.27, -97.74, 5",
      "1.2.3 4",
      "30.27 N 40 S",
      "-30 S, 20",
    ]) {
      expect(parseCoordinates(text)).toBeUndefined();
    }
  });

  it("round-trips any valid latitude and longitude, comma- or space-separated", () => {
    fc.assert(
      fc.property(lat, lng, separator, format, (la, ln, sep, fmt) => {
        const latText = fmt(la);
        const lngText = fmt(ln);
        const expected = { lat: Number(latText) + 0, lng: Number(lngText) + 0 };
        if (Math.abs(expected.lat) > 90 || Math.abs(expected.lng) > 180) return true; // Rounded past the edge.
        expect(parseCoordinates(`${latText}${sep}${lngText}`)).toEqual(expected);
        return true;
      }),
    );
  });

  it("rejects latitudes beyond ±90 and longitudes beyond ±180", () => {
    const badLat = fc.oneof(
      fc.double({ min: 90, max: 1e9, minExcluded: true, noNaN: true }),
      fc.double({ min: -1e9, max: -90, maxExcluded: true, noNaN: true }),
    );
    const badLng = fc.oneof(
      fc.double({ min: 180, max: 1e9, minExcluded: true, noNaN: true }),
      fc.double({ min: -1e9, max: -180, maxExcluded: true, noNaN: true }),
    );
    fc.assert(fc.property(badLat, lng, separator, (la, ln, sep) => parseCoordinates(`${la}${sep}${ln}`) === undefined));
    fc.assert(fc.property(lat, badLng, separator, (la, ln, sep) => parseCoordinates(`${la}${sep}${ln}`) === undefined));
  });
});

describe("haversineMiles", () => {
  it("uses an Earth radius of 3959 miles", () => {
    // A quarter of a meridian is pi/2 * R.
    expect(haversineMiles({ lat: 0, lng: 0 }, { lat: 90, lng: 0 })).toBeCloseTo((Math.PI / 2) * 3959, 6);
    // Austin to Denver, about 775 miles.
    const d = haversineMiles({ lat: 30.2672, lng: -97.7431 }, { lat: 39.7392, lng: -104.9903 });
    expect(d).toBeGreaterThan(765);
    expect(d).toBeLessThan(785);
  });

  it("is symmetric and zero on the diagonal", () => {
    fc.assert(
      fc.property(lat, lng, lat, lng, (a1, o1, a2, o2) => {
        const a = { lat: a1, lng: o1 };
        const b = { lat: a2, lng: o2 };
        return Math.abs(haversineMiles(a, b) - haversineMiles(b, a)) < 1e-6 && haversineMiles(a, a) === 0;
      }),
    );
  });
});
