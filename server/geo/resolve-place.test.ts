import { describe, expect, it } from "vitest";
import { placeFromPoint, placeFromSlug, placeFromText, suggestPlaces } from "./resolve-place";

describe("resolving results places", () => {
  it("parses city and state slugs", () => {
    expect(placeFromSlug("austin-tx")).toMatchObject({
      kind: "city",
      city: "Austin",
      state: "TX",
      stateName: "Texas",
      slug: "austin-tx",
    });
    expect(placeFromSlug("san-antonio-tx")).toMatchObject({ city: "San Antonio", state: "TX" });
    expect(placeFromSlug("tx")).toMatchObject({ kind: "state", city: null, state: "TX", slug: "tx" });
  });

  it("rejects unknown places and malformed slugs", () => {
    expect(placeFromSlug("atlantis-tx")).toBeUndefined();
    expect(placeFromSlug("austin-zz")).toBeUndefined();
    expect(placeFromSlug("austin")).toBeUndefined();
  });

  it("resolves typed text, ZIP codes and coordinates", () => {
    expect(placeFromText("Austin, TX")).toMatchObject({ kind: "city", slug: "austin-tx" });
    expect(placeFromText("78701")).toMatchObject({ city: "Austin", state: "TX" });
    expect(placeFromText("Texas")).toMatchObject({ kind: "state", slug: "tx" });
    expect(placeFromText("39.7392, -104.9903")).toMatchObject({
      kind: "point",
      city: "Denver",
      state: "CO",
      lat: 39.7392,
    });
  });

  it("labels a point with its nearest town, and knows nothing at sea", () => {
    expect(placeFromPoint(30.27, -97.74)).toMatchObject({ kind: "point", city: "Austin", state: "TX" });
    expect(placeFromPoint(0, -150)).toBeUndefined();
  });

  it("offers suggestions for a near miss", () => {
    expect(suggestPlaces("san-anto")[0]).toMatchObject({ city: "San Antonio" });
  });
});
