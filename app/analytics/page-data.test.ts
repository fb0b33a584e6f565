import { describe, expect, it } from "vitest";
import { locationIdsBySlug, pageLocationId } from "./page-data";

describe("page data", () => {
  it("maps the slugs of listed locations to their place ids", () => {
    const results = {
      result: {
        items: [
          { id: "ChIJ_A", slug: "a-tx-chij_a" },
          { id: "B", slug: "b-tx-b" },
        ],
      },
    };
    const detail = { location: { placeId: "C", slug: "c-tx-c" }, nearby: [{ id: "D", slug: "d-tx-d" }] };
    const map = locationIdsBySlug([undefined, results, detail]);
    expect(Object.fromEntries(map)).toEqual({ "a-tx-chij_a": "ChIJ_A", "b-tx-b": "B", "c-tx-c": "C", "d-tx-d": "D" });
  });

  it("finds the facility of a detail page", () => {
    expect(
      pageLocationId([{ id: "root" }, { id: "routes/location", loaderData: { location: { placeId: "C" } } }]),
    ).toBe("C");
    expect(pageLocationId([{ id: "routes/rv-storage", loaderData: { location: { placeId: "C" } } }])).toBeNull();
  });
});
