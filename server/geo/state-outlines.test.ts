import { describe, expect, it } from "vitest";
import { decodeStateOutlines } from "../../domain/state-outlines";
import { stateOutlines } from "./state-outlines";

describe("the map's offline outlines", () => {
  it("covers the 50 states and DC, small enough for a backdrop, with Texas where Texas is", () => {
    const { json } = stateOutlines();
    expect(json.length).toBeLessThan(80_000);
    const { states, towns } = decodeStateOutlines(JSON.parse(json));
    expect(states).toHaveLength(51);
    expect(states.every((s) => s.rings.length > 0 && s.rings.every((r) => r.length >= 3))).toBe(true);
    const texas = states.find((s) => s.code === "TX")!;
    const points = texas.rings.flat();
    expect(Math.min(...points.map(([lat]) => lat))).toBeCloseTo(25.8, 0);
    expect(Math.max(...points.map(([, lng]) => lng))).toBeCloseTo(-93.5, 0);
    expect(towns.length).toBeGreaterThan(200);
    expect(towns[0]!.population).toBeGreaterThanOrEqual(towns.at(-1)!.population);
    expect(towns.some((t) => t.name === "Austin")).toBe(true);
  });
});
