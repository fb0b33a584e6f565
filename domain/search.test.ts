import { describe, expect, it } from "vitest";
import { placedByTier } from "./search";
import { TIERS } from "./tiers";

describe("placedByTier", () => {
  it("marks every paid tier under the distance sort, which ranks them first", () => {
    expect(TIERS.filter((tier) => placedByTier(tier, "distance"))).toEqual(["Pro", "Preferred", "Basic"]);
  });

  it("marks nothing under the rating sort, which ignores tiers", () => {
    expect(TIERS.filter((tier) => placedByTier(tier, "rating"))).toEqual([]);
  });
});
