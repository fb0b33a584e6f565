import { describe, expect, it } from "vitest";
import { applySummary } from "./catalogue";

describe("applySummary", () => {
  it("counts new and updated listings in words that agree with the numbers", () => {
    expect(applySummary(1, 0)).toBe("1 new listing is added, all at once.");
    expect(applySummary(2, 0)).toBe("2 new listings are added, all at once.");
    expect(applySummary(0, 1)).toBe("1 existing listing is updated, all at once.");
    expect(applySummary(1, 1)).toBe("1 new listing is added and 1 existing one updated, all at once.");
    expect(applySummary(1200, 3)).toBe("1,200 new listings are added and 3 existing ones updated, all at once.");
  });
});
