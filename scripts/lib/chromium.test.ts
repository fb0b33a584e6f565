import { describe, expect, it } from "vitest";
import { DISABLED_FEATURES, assertFeaturesKept, disableFeaturesFlag, disabledFeatureLists } from "./chromium";

describe("one --disable-features for Chromium", () => {
  it("adds ours after a launcher's defaults, once each", () => {
    const flag = disableFeaturesFlag(["MediaRouter", DISABLED_FEATURES[0]!]);
    expect(flag).toBe(`--disable-features=MediaRouter,${DISABLED_FEATURES.join(",")}`);
  });

  it("reads every --disable-features in order", () => {
    expect(disabledFeatureLists(["--no-sandbox", "--disable-features=A,B", "--disable-features=C"])).toEqual([
      ["A", "B"],
      ["C"],
    ]);
  });

  it("accepts a last flag that keeps the defaults, and names a lost one", () => {
    expect(() => assertFeaturesKept(["--disable-features=A,B", disableFeaturesFlag(["A", "B"])])).not.toThrow();
    expect(() => assertFeaturesKept(["--disable-features=A,PaintHolding", disableFeaturesFlag(["A"])])).toThrow(
      /no longer disable PaintHolding/,
    );
  });
});
