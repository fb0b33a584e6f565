import fc from "fast-check";
import KDBush from "kdbush";
import { describe, expect, it } from "vitest";
import { haversineMiles } from "../geo";
import { rangeInto, searchBox } from "./spatial";

const inBox = (box: ReturnType<typeof searchBox>, lat: number, lng: number) =>
  lat >= box.minLat && lat <= box.maxLat && box.lngRanges.some(([w, e]) => lng >= w && lng <= e);

describe("searchBox", () => {
  it("contains every point within the radius, anywhere on Earth (property)", () => {
    const lat = fc.double({ min: -90, max: 90, noNaN: true });
    const lng = fc.double({ min: -180, max: 180, noNaN: true });
    fc.assert(
      fc.property(
        lat,
        lng,
        fc.double({ min: 0.01, max: 500, noNaN: true }),
        lat,
        lng,
        (clat, clng, radius, plat, plng) => {
          // Pull the point towards the centre so that many land inside the circle.
          const p = { lat: clat + (plat - clat) * 0.02, lng: clng + (plng - clng) * 0.02 };
          if (haversineMiles({ lat: clat, lng: clng }, p) <= radius) {
            expect(inBox(searchBox(clat, clng, radius), p.lat, p.lng)).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("contains points just across the antimeridian (property)", () => {
    const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: 170, max: 180, noNaN: true }),
        fc.double({ min: -15, max: 15, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.boolean(),
        (lat, lng, dLng, dLat, west) => {
          const centre = { lat, lng: west ? -lng : lng };
          const p = { lat: lat + dLat, lng: wrap(centre.lng + dLng) };
          const miles = haversineMiles(centre, p);
          if (miles <= 500)
            expect(inBox(searchBox(centre.lat, centre.lng, Math.max(0.01, miles)), p.lat, p.lng)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("splits at the antimeridian and spans all longitudes near a pole", () => {
    expect(inBox(searchBox(52, 179.9, 100), 52, -179.95)).toBe(true);
    expect(searchBox(52, 179.9, 100).lngRanges).toHaveLength(2);
    expect(searchBox(52, -179.9, 100).lngRanges).toHaveLength(2);
    expect(searchBox(89.5, 10, 100).lngRanges).toEqual([[-180, 180]]);
    const austin = searchBox(30.27, -97.74, 100);
    expect(austin.lngRanges).toHaveLength(1);
    expect(austin.maxLat - austin.minLat).toBeCloseTo(2 * (100 / 3959) * (180 / Math.PI), 6);
  });
});

describe("rangeInto", () => {
  it("finds what kdbush's range finds (property)", () => {
    const point = fc.tuple(
      fc.double({ min: -10, max: 10, noNaN: true }),
      fc.double({ min: -10, max: 10, noNaN: true }),
    );
    fc.assert(
      fc.property(fc.array(point, { maxLength: 300 }), point, point, (points, a, b) => {
        const tree = new KDBush(points.length, 4);
        for (const [x, y] of points) tree.add(x, y);
        tree.finish();
        const [minX, maxX] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])];
        const [minY, maxY] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
        const out = new Uint32Array(points.length + 1);
        const n = rangeInto(tree, minX, minY, maxX, maxY, out, 1);
        expect([...out.subarray(1, n)].sort((p, q) => p - q)).toEqual(
          tree.range(minX, minY, maxX, maxY).sort((p, q) => p - q),
        );
      }),
    );
  });

  it("finds the same with many equal coordinates, where whole nodes are copied (property)", () => {
    // Few distinct values: points equal to a split value lie on both sides of it.
    const point = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }));
    fc.assert(
      fc.property(fc.array(point, { maxLength: 400 }), point, point, (points, a, b) => {
        const tree = new KDBush(points.length, 2);
        for (const [x, y] of points) tree.add(x, y);
        tree.finish();
        const [minX, maxX] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])];
        const [minY, maxY] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
        const out = new Uint32Array(points.length);
        const n = rangeInto(tree, minX, minY, maxX, maxY, out, 0);
        expect([...out.subarray(0, n)].sort((p, q) => p - q)).toEqual(
          tree.range(minX, minY, maxX, maxY).sort((p, q) => p - q),
        );
      }),
      { numRuns: 500 },
    );
  });
});
