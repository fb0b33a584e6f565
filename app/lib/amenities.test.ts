import { describe, expect, it } from "vitest";
import { AMENITY_FLAGS, AMENITY_GROUPS, AMENITY_LABELS } from "./amenities";

describe("amenities", () => {
  it("groups every flag exactly once", () => {
    const grouped = AMENITY_GROUPS.flatMap((g) => g.flags);
    expect([...grouped].sort()).toEqual([...AMENITY_FLAGS].sort());
  });

  it("labels every flag", () => {
    for (const flag of AMENITY_FLAGS) expect(AMENITY_LABELS[flag]).toBeTruthy();
  });
});
