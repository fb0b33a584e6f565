import { describe, expect, it } from "vitest";
import { STATES, resolveState, stateCodeFromName, stateNameFromCode, statesMatchingPrefix } from "./states";

describe("states", () => {
  it("has the 50 states and DC with unique codes", () => {
    expect(STATES).toHaveLength(51);
    expect(new Set(STATES.map((s) => s.code)).size).toBe(51);
    expect(new Set(STATES.map((s) => s.fips)).size).toBe(51);
  });

  it("stateCodeFromName is case-insensitive and trimmed", () => {
    expect(stateCodeFromName("Texas")).toBe("TX");
    expect(stateCodeFromName("  new   york ")).toBe("NY");
    expect(stateCodeFromName("DISTRICT OF COLUMBIA")).toBe("DC");
    expect(stateCodeFromName("TX")).toBeUndefined();
    expect(stateCodeFromName("Puerto Rico")).toBeUndefined();
    expect(stateCodeFromName("")).toBeUndefined();
  });

  it("resolveState accepts codes and names", () => {
    expect(resolveState("tx")).toBe("TX");
    expect(resolveState("D.C.")).toBe("DC");
    expect(resolveState("north carolina")).toBe("NC");
    expect(resolveState("Texass")).toBeUndefined();
    expect(stateNameFromCode("wa")).toBe("Washington");
  });

  it("statesMatchingPrefix matches names and codes", () => {
    expect(statesMatchingPrefix("t").sort()).toEqual(["TN", "TX"]);
    expect(statesMatchingPrefix("new").sort()).toEqual(["NH", "NJ", "NM", "NY"]);
    expect(statesMatchingPrefix("")).toEqual([]);
  });
});
