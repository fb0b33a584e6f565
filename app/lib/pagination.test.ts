import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageWindow, showingText } from "./pagination";

describe("pageWindow", () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 10, [1, 2, 3, 4, 5]],
    [5, 10, [3, 4, 5, 6, 7]],
    [10, 10, [6, 7, 8, 9, 10]],
    [9, 10, [6, 7, 8, 9, 10]],
    [1, 0, []],
  ])("page %i of %i -> %j", (page, count, expected) => expect(pageWindow(page, count)).toEqual(expected));

  it("always shows at most 5 consecutive pages including the current one", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), (a, b) => {
        const [page, count] = [Math.min(a, b), Math.max(a, b)];
        const pages = pageWindow(page, count);
        expect(pages.length).toBe(Math.min(5, count));
        expect(pages).toContain(page);
        pages.forEach((p, i) => i > 0 && expect(p).toBe(pages[i - 1]! + 1));
        expect(pages[0]).toBeGreaterThanOrEqual(1);
        expect(pages.at(-1)).toBeLessThanOrEqual(count);
      }),
    );
  });
});

describe("showingText", () => {
  it("describes the page", () => {
    expect(showingText(1, 12, 30)).toBe("Showing 1 to 12 of 30 locations");
    expect(showingText(3, 12, 30)).toBe("Showing 25 to 30 of 30 locations");
    expect(showingText(1, 12, 0)).toBe("Showing 0 of 0 locations");
  });
});
