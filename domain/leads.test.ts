import { describe, expect, it } from "vitest";
import { askQueryFromSearch, coverFromSearch, lengthFromSearch } from "./leads";

describe("the question's length from the size filter", () => {
  it("takes the longest size chosen, within the form's range", () => {
    expect(lengthFromSearch("?size=12x30&size=20x40")).toBe(40);
    // My RV's length comes first (rounded up to whole feet); out of the form's range, the sizes.
    expect(lengthFromSearch("?size=12x30&rvLength=38.5")).toBe(39);
    expect(lengthFromSearch("?size=12x30&rvLength=80")).toBe(30);
    expect(lengthFromSearch("?size=12x30,20x25&sort=rating")).toBe(30);
    expect(lengthFromSearch("?size=10X15")).toBe(15);
    expect(lengthFromSearch("")).toBeNull();
    expect(lengthFromSearch("?size=9x9")).toBeNull();
    expect(lengthFromSearch("?size=10x999")).toBeNull();
    expect(lengthFromSearch("?size=garbage&size=x&size=10x")).toBeNull();
  });
});

describe("the question's kind of space from the amenity filter", () => {
  it("takes the space the filter asks for", () => {
    expect(coverFromSearch("?amenity=has_covered_parking")).toBe("covered");
    expect(coverFromSearch("?amenity=anytime_access,has_uncovered_parking")).toBe("uncovered");
    expect(coverFromSearch("?amenity=has_covered_parking&amenity=has_enclosed_units")).toBe("enclosed");
    // Covered or uncovered, either will do: the form keeps "Any".
    expect(coverFromSearch("?amenity=has_covered_parking&amenity=has_uncovered_parking")).toBeNull();
    expect(coverFromSearch("?amenity=dump_station")).toBeNull();
    expect(coverFromSearch("")).toBeNull();
  });

  it("builds the form link's query from both", () => {
    expect(askQueryFromSearch("?size=12x30&amenity=has_covered_parking")).toBe("?length=30&cover=covered");
    expect(askQueryFromSearch("?amenity=has_covered_parking")).toBe("?cover=covered");
    expect(askQueryFromSearch("?sort=rating")).toBe("");
  });
});
