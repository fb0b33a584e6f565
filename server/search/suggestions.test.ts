import { describe, expect, it } from "vitest";
import type { Place } from "../geo";
import { toPlaceSuggestion } from "./suggestions";

const base = { state: "TX", stateName: "Texas", lat: 30.27, lng: -97.74, population: 1 };

describe("toPlaceSuggestion", () => {
  it("labels towns, ZIP codes and states", () => {
    const town: Place = { ...base, name: "San Marcos", kind: "city" };
    expect(toPlaceSuggestion(town)).toEqual({
      label: "San Marcos, TX",
      city: "San Marcos",
      state: "TX",
      stateName: "Texas",
      lat: 30.27,
      lng: -97.74,
      slug: "san-marcos-tx",
    });
    const zip: Place = { ...base, name: "Austin", kind: "zip", zip: "78701", lat: 30.27, lng: -97.74 };
    expect(toPlaceSuggestion(zip)).toMatchObject({ label: "78701 (Austin, TX)", city: "Austin", slug: "austin-tx" });
    const state: Place = { ...base, name: "Texas", kind: "state" };
    expect(toPlaceSuggestion(state)).toMatchObject({ label: "Texas", city: null, slug: "tx" });
  });
});
