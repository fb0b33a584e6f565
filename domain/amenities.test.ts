import { describe, expect, it } from "vitest";
import {
  AMENITY_FILTERS,
  AMENITY_FILTER_GROUPS,
  AMENITY_FLAGS,
  AMENITY_GROUPS,
  AMENITY_LABELS,
  amenityFilterLabel,
  isAmenityFilter,
} from "./amenities";

describe("amenities", () => {
  it("groups every flag exactly once", () => {
    const grouped = AMENITY_GROUPS.flatMap((g) => g.flags);
    expect([...grouped].sort()).toEqual([...AMENITY_FLAGS].sort());
  });

  it("labels every flag", () => {
    for (const flag of AMENITY_FLAGS) expect(AMENITY_LABELS[flag]).toBeTruthy();
  });

  it("offers every flag and text amenity once in the search filter, each with a label", () => {
    const grouped = AMENITY_FILTER_GROUPS.flatMap((g) => g.options);
    expect([...grouped].sort()).toEqual([...AMENITY_FILTERS].sort());
    for (const value of AMENITY_FILTERS) expect(amenityFilterLabel(value)).toBeTruthy();
    expect(isAmenityFilter("payment_options")).toBe(true);
    expect(isAmenityFilter("parkingOptions")).toBe(false);
  });
});
