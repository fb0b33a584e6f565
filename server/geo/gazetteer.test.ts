import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getGazetteer, haversineMiles } from "./index";
import type { Place } from "./index";

const g = getGazetteer();
const label = (p: Place | undefined): string | undefined => (p ? `${p.name}, ${p.state}` : undefined);

describe("lookup", () => {
  it("finds the most populous town for a bare name", () => {
    expect(label(g.lookup("austin"))).toBe("Austin, TX");
    expect(label(g.lookup("Portland"))).toBe("Portland, OR");
    expect(g.lookup("austin")?.kind).toBe("city");
  });

  it("finds a town in a given state", () => {
    for (const q of ["austin tx", "Austin, TX", "Austin, Texas", "AUSTIN,TX", "Austin, TX, USA"]) {
      expect(label(g.lookup(q)), q).toBe("Austin, TX");
    }
    expect(label(g.lookup("Portland, ME"))).toBe("Portland, ME");
    expect(label(g.lookup("portland maine"))).toBe("Portland, ME");
    expect(label(g.lookup("Kansas City Kansas"))).toBe("Kansas City, KS");
    expect(label(g.lookup("Washington, D.C."))).toBe("Washington, DC");
    expect(label(g.lookup("new york, ny"))).toBe("New York City, NY");
  });

  it("folds Saint, Fort and Mount", () => {
    expect(label(g.lookup("st louis"))).toBe("St. Louis, MO");
    expect(label(g.lookup("Saint Louis, Missouri"))).toBe("St. Louis, MO");
    expect(label(g.lookup("ft worth"))).toBe("Fort Worth, TX");
    expect(label(g.lookup("Ft. Worth, TX"))).toBe("Fort Worth, TX");
    expect(g.lookup("mt vernon")?.name).toBe("Mount Vernon");
    expect(label(g.lookup("Mt. Vernon, WA"))).toBe("Mount Vernon, WA");
  });

  it("ignores spaces inside names as a fallback", () => {
    expect(label(g.lookup("coeur d alene"))).toBe("Coeur d'Alene, ID");
  });

  it("finds ZIP codes", () => {
    const zip = g.lookup("78701");
    expect(zip).toMatchObject({ kind: "zip", zip: "78701", name: "Austin", state: "TX", stateName: "Texas" });
    expect(g.lookup("78701-1234")).toMatchObject({ kind: "zip", zip: "78701" });
    expect(g.lookup("02134")).toMatchObject({ kind: "zip", zip: "02134", state: "MA" });
    expect(g.lookup("Austin, TX 78701")).toMatchObject({ kind: "zip", zip: "78701" });
    expect(g.lookup("00000")).toBeUndefined();
  });

  it("finds states by name or code", () => {
    for (const q of ["Texas", "texas", "TX", "tx"]) {
      expect(g.lookup(q), q).toMatchObject({ kind: "state", state: "TX", name: "Texas", stateName: "Texas" });
    }
    const texas = g.lookup("Texas");
    expect(texas && g.stateAt(texas.lat, texas.lng)).toBe("TX");
  });

  it("reads coordinates and names the place from a reverse lookup", () => {
    for (const q of ["30.27, -97.74", "30.27 -97.74"]) {
      expect(g.lookup(q), q).toMatchObject({
        kind: "coordinates",
        lat: 30.27,
        lng: -97.74,
        state: "TX",
        name: "Austin",
      });
    }
    expect(g.lookup("0, 0")).toBeUndefined();
  });

  it("returns undefined for nonsense", () => {
    expect(g.lookup("")).toBeUndefined();
    expect(g.lookup("   ")).toBeUndefined();
    expect(g.lookup("qzxqzxqzx")).toBeUndefined();
  });
});

describe("suggest", () => {
  it("ranks prefix matches by population", () => {
    const austin = g.suggest("austin");
    expect(label(austin[0])).toBe("Austin, TX");
    expect(austin.length).toBeLessThanOrEqual(8);
    expect(label(g.suggest("aus")[0])).toBe("Austin, TX");
    const pops = g.suggest("spring", 20).map((p) => p.population);
    expect(pops).toEqual([...pops].sort((a, b) => b - a));
  });

  it("is empty for 2 characters or fewer", () => {
    expect(g.suggest("au")).toEqual([]);
    expect(g.suggest(" a ")).toEqual([]);
    expect(g.suggest("")).toEqual([]);
  });

  it("respects the limit", () => {
    expect(g.suggest("san", 3)).toHaveLength(3);
    expect(g.suggest("san", 0)).toEqual([]);
  });

  it("folds Saint, Fort and Mount", () => {
    expect(g.suggest("saint lou").map(label)).toContain("St. Louis, MO");
    expect(label(g.suggest("saint lou")[0])).toBe("St. Louis, MO");
    expect(label(g.suggest("st lou")[0])).toBe("St. Louis, MO");
    expect(label(g.suggest("ft wor")[0])).toBe("Fort Worth, TX");
    expect(label(g.suggest("fort wor")[0])).toBe("Fort Worth, TX");
    expect(g.suggest("mt vern").every((p) => p.name === "Mount Vernon")).toBe(true);
    // An unfinished "mount" may still become "Mountain".
    const mount = g.suggest("mount", 20).map((p) => p.name);
    expect(mount.some((n) => n.startsWith("Mount "))).toBe(true);
    expect(mount.some((n) => n.startsWith("Mountain"))).toBe(true);
  });

  it("matches 'City, ST' prefixes", () => {
    expect(g.suggest("austin, t").map(label)).toEqual(["Austin, TX"]);
    expect(label(g.suggest("austin, m")[0])).toBe("Austin, MN");
    expect(label(g.suggest("portland o")[0])).toBe("Portland, OR");
    expect(g.suggest("austin, ").map(label)).toContain("Austin, MN");
  });

  it("matches ZIP prefixes of 3 digits or more", () => {
    const zips = g.suggest("787");
    expect(zips.length).toBe(8);
    expect(zips.every((p) => p.kind === "zip" && p.zip?.startsWith("787"))).toBe(true);
    expect(zips.map((p) => p.zip)).toEqual([...zips.map((p) => p.zip)].sort());
    expect(g.suggest("78701")).toMatchObject([{ zip: "78701", name: "Austin" }]);
  });

  it("includes state names", () => {
    expect(g.suggest("tex")[0]).toMatchObject({ kind: "state", state: "TX" });
    expect(g.suggest("new jer").map((p) => p.kind)).toContain("state");
  });

  it("ranks by population and finds every sizeable town by 'Name, ST' (property)", () => {
    const towns = g.places().filter((p) => p.population >= 20000);
    fc.assert(
      fc.property(fc.constantFrom(...towns), fc.integer({ min: 3, max: 12 }), (town, len) => {
        const results = g.suggest(town.name.slice(0, len));
        expect(results.length).toBeLessThanOrEqual(8);
        const pops = results.map((p) => p.population);
        expect(pops).toEqual([...pops].sort((a, b) => b - a));
        const primary = g.findCity(town.name, town.state);
        expect(primary).toBeDefined();
        expect(g.suggest(`${town.name}, ${town.state}`)).toContain(primary);
      }),
      { numRuns: 300 },
    );
  });
});

describe("reverse and stateAt", () => {
  it("finds the town around a point", () => {
    expect(label(g.reverse(39.7392, -104.9903))).toBe("Denver, CO");
    expect(label(g.reverse(30.2672, -97.7431))).toBe("Austin, TX");
    expect(label(g.reverse(47.6062, -122.3321))).toBe("Seattle, WA");
  });

  it("stays in the state containing the point", () => {
    // Just across the state line from a bigger town: Texarkana, AR / TX.
    const p = g.reverse(33.44, -94.03);
    expect(p?.state).toBe(g.stateAt(33.44, -94.03));
  });

  it("returns nothing far out at sea", () => {
    expect(g.reverse(30, -60)).toBeUndefined();
    expect(g.reverse(95, 0)).toBeUndefined();
  });

  it("finds the state polygon containing a point", () => {
    const cases: [number, number, string][] = [
      [39.7392, -104.9903, "CO"],
      [30.2672, -97.7431, "TX"],
      [40.7128, -74.006, "NY"],
      [34.0522, -118.2437, "CA"],
      [41.8781, -87.6298, "IL"],
      [21.3069, -157.8583, "HI"],
      [61.2181, -149.9003, "AK"],
      [38.9072, -77.0369, "DC"],
      [25.7617, -80.1918, "FL"],
      [44.9778, -93.265, "MN"],
      [52.9, 173.2, "AK"], // Attu, west of the antimeridian.
    ];
    for (const [lat, lng, code] of cases) expect(g.stateAt(lat, lng), `${lat},${lng}`).toBe(code);
  });

  it("is undefined in the ocean, the Great Lakes and abroad", () => {
    expect(g.stateAt(30, -60)).toBeUndefined(); // Atlantic
    expect(g.stateAt(35, -130)).toBeUndefined(); // Pacific
    expect(g.stateAt(26, -90)).toBeUndefined(); // Gulf of Mexico
    expect(g.stateAt(43.8, -87.2)).toBeUndefined(); // Lake Michigan
    expect(g.stateAt(45.5017, -73.5673)).toBeUndefined(); // Montreal
    expect(g.stateAt(19.4326, -99.1332)).toBeUndefined(); // Mexico City
    expect(g.stateAt(Number.NaN, 0)).toBeUndefined();
  });

  it("puts every sizeable town in or near its own state", () => {
    const towns = g.places().filter((p) => p.population >= 50000);
    const wrong = towns.filter((p) => g.stateAt(p.lat, p.lng) !== p.state).map(label);
    expect(wrong).toEqual([]);
  });
});

describe("places and findCity", () => {
  it("lists towns only", () => {
    const all = g.places();
    expect(all.length).toBeGreaterThan(20000);
    expect(all.every((p) => p.kind === "city" && /^[A-Z]{2}$/.test(p.state))).toBe(true);
  });

  it("finds a town by exact (folded) name within a state", () => {
    expect(label(g.findCity("austin", "TX"))).toBe("Austin, TX");
    expect(label(g.findCity("Saint Louis", "mo"))).toBe("St. Louis, MO");
    expect(label(g.findCity("Springfield", "Illinois"))).toBe("Springfield, IL");
    expect(g.findCity("Austi", "TX")).toBeUndefined();
    expect(g.findCity("Austin", "ZZ")).toBeUndefined();
  });

  it("gives each suggestion a distance-consistent ZIP", () => {
    const zip = g.lookup("78701");
    const town = g.findCity("Austin", "TX");
    expect(zip && town && haversineMiles(zip, town)).toBeLessThan(5);
  });
});

describe("nearestZip", () => {
  const g = getGazetteer();
  it("finds the ZIP nearest a point in downtown Austin", () => {
    const zip = g.nearestZip(30.2672, -97.7431, "TX");
    expect(zip?.zip).toMatch(/^787\d\d$/);
    expect(zip?.state).toBe("TX");
  });
  it("gives nothing far from any ZIP", () => {
    expect(g.nearestZip(0, -150)).toBeUndefined();
  });
});
