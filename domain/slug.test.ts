import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildLocationSlug, buildPlaceSlug, parseLocationSlug, parsePlaceSlug, slugify, stripZip } from "./slug";

describe("slugify", () => {
  it("lower-cases, drops punctuation and collapses separators", () => {
    expect(slugify("  Joe's RV & Boat   Storage__North--Lot ")).toBe("joes-rv-boat-storage-north-lot");
    expect(slugify("Coeur d'Alène")).toBe("coeur-dalene");
  });

  it("is idempotent and yields only [a-z0-9_-] without doubled or edge dashes", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const slug = slugify(text);
        expect(slugify(slug)).toBe(slug);
        expect(slug).toMatch(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/);
      }),
    );
  });
});

describe("stripZip", () => {
  it.each([
    ["TX 78701", "TX"],
    ["TX 78701-1234", "TX"],
    ["Austin", "Austin"],
    ["Route 66", "Route 66"],
  ])("%s -> %s", (input, output) => expect(stripZip(input)).toBe(output));
});

describe("location slugs", () => {
  it("builds name-area-state-placeid and parses back", () => {
    const slug = buildLocationSlug({
      name: "Acme RV Storage",
      area: "Austin",
      state: "TX",
      placeId: "ChIJN1t_tDeuEmsRUsoyG83frY4",
    });
    expect(slug).toBe("acme-rv-storage-austin-tx-chijn1t_tdeuemsrusoyg83fry4");
    expect(parseLocationSlug(slug)).toEqual({ placeIdPiece: "chijn1t_tdeuemsrusoyg83fry4", state: "TX" });
  });

  it("rejects slugs without a place id piece", () => {
    expect(parseLocationSlug("acme-rv-storage")).toEqual({});
    expect(parseLocationSlug("")).toEqual({});
  });

  it("round-trips any place id of 11+ word characters", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.stringMatching(/^[A-Za-z0-9_]{11,30}$/),
        fc.constantFrom("TX", "CA", "NY"),
        (name, placeId, state) => {
          const parsed = parseLocationSlug(buildLocationSlug({ name, area: "Springfield", state, placeId }));
          expect(parsed.placeIdPiece).toBe(placeId.toLowerCase());
          expect(parsed.state).toBe(state);
        },
      ),
    );
  });
});

describe("place slugs", () => {
  it("builds and parses city and state slugs", () => {
    expect(buildPlaceSlug("San Antonio", "TX")).toBe("san-antonio-tx");
    expect(buildPlaceSlug(undefined, "TX")).toBe("tx");
    expect(parsePlaceSlug("san-antonio-tx")).toEqual({ city: "san antonio", state: "TX" });
    expect(parsePlaceSlug("tx")).toEqual({ state: "TX" });
    expect(parsePlaceSlug("austin")).toBeUndefined();
  });

  it("parses back whatever it builds", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z .'-]{0,30}$/), fc.stringMatching(/^[A-Z]{2}$/), (city, state) => {
        const parsed = parsePlaceSlug(buildPlaceSlug(city, state));
        expect(parsed?.state).toBe(state);
        if (slugify(city)) expect(parsed?.city).toBe(slugify(city).replace(/-/g, " "));
      }),
    );
  });
});
