import { describe, expect, it } from "vitest";
import { formatCount } from "./numbers";

describe("formatCount", () => {
  it("writes what en-US Intl writes, for whole numbers of every size and sign and for others", () => {
    const intl = new Intl.NumberFormat("en-US");
    for (const n of [0, 7, 999, 1000, 12_345, -1234, 1_000_000, 987_654_321, Number.MAX_SAFE_INTEGER, -999_999]) {
      expect(formatCount(n), String(n)).toBe(intl.format(n));
    }
    expect(formatCount(1234.5)).toBe("1,234.5");
    expect(formatCount(Number.MAX_SAFE_INTEGER + 2)).toBe(intl.format(Number.MAX_SAFE_INTEGER + 2));
  });
});
