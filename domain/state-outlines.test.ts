import { describe, expect, it } from "vitest";
import { STATE_OUTLINES_VERSION, decodeStateOutlines } from "./state-outlines";

describe("state outlines file", () => {
  it("decodes delta-coded rings into [lat, lng] points and the towns into objects", () => {
    const decoded = decodeStateOutlines({
      version: STATE_OUTLINES_VERSION,
      unit: 0.01,
      states: [{ code: "TX", name: "Texas", lat: 31, lng: -99, rings: [[-10000, 3000, 100, 0, 0, 100]] }],
      towns: [["Austin", 30.27, -97.74, 961855]],
    });
    expect(decoded.states[0]!.rings[0]).toEqual([
      [30, -100],
      [30, -99],
      [31, -99],
    ]);
    expect(decoded.states[0]!.label).toEqual({ lat: 31, lng: -99 });
    expect(decoded.towns).toEqual([{ name: "Austin", lat: 30.27, lng: -97.74, population: 961855 }]);
  });

  it("draws nothing from a malformed or unknown file instead of throwing", () => {
    const empty = { states: [], towns: [] };
    expect(decodeStateOutlines(null)).toEqual(empty);
    expect(decodeStateOutlines({ version: 99, unit: 0.01, states: [], towns: [] })).toEqual(empty);
    expect(
      decodeStateOutlines({ version: STATE_OUTLINES_VERSION, unit: 0.01, states: [{ code: 1 }], towns: [] }),
    ).toEqual(empty);
  });
});
