import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SWIPE_MIN_PX, hiddenPhotoCount, swipeStep, wrapIndex } from "./gallery";

describe("gallery", () => {
  it("wraps around at both ends", () => {
    expect(wrapIndex(0, -1, 5)).toBe(4);
    expect(wrapIndex(4, 1, 5)).toBe(0);
    expect(wrapIndex(2, 1, 5)).toBe(3);
    expect(wrapIndex(0, 1, 0)).toBe(0);
  });

  it("always lands inside the gallery, and n steps forward return to the start", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 49 }),
        fc.integer({ min: -200, max: 200 }),
        (n, start, step) => {
          const i = start % n;
          const next = wrapIndex(i, step, n);
          expect(next).toBeGreaterThanOrEqual(0);
          expect(next).toBeLessThan(n);
          expect(wrapIndex(i, n, n)).toBe(i);
        },
      ),
    );
  });

  it("counts the photos beyond the main one and 14 thumbnails", () => {
    expect(hiddenPhotoCount(1)).toBe(0);
    expect(hiddenPhotoCount(15)).toBe(0);
    expect(hiddenPhotoCount(20)).toBe(5);
  });

  it("reads a swipe left as next, right as previous, and taps and scrolls as nothing", () => {
    expect(swipeStep(-80, 10)).toBe(1);
    expect(swipeStep(80, -10)).toBe(-1);
    expect(swipeStep(5, 3)).toBe(0);
    expect(swipeStep(-SWIPE_MIN_PX + 1, 0)).toBe(0);
    expect(swipeStep(-60, 200)).toBe(0);
    expect(swipeStep(Number.NaN, 0)).toBe(0);
  });

  it("never steps on a move shorter than the threshold or steeper than horizontal", () => {
    fc.assert(
      fc.property(fc.double({ min: -2000, max: 2000 }), fc.double({ min: -2000, max: 2000 }), (dx, dy) => {
        const step = swipeStep(dx, dy);
        if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dy) > Math.abs(dx)) expect(step).toBe(0);
        if (step !== 0) expect(step).toBe(dx < 0 ? 1 : -1);
      }),
    );
  });
});
