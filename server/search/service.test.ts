import { afterEach, describe, expect, it } from "vitest";
import type { NewLocationRow } from "../db/schema";
import { SAMPLE_LOCATION } from "../locations/sample";
import { setSearchIndex } from "./refresh";
import { createSearchIndex } from "./search-index";
import { nearestBeyond } from "./service";
import { searchRowFromLocation } from "./source-row";

/** Barrow (Utqiagvik), Alaska: hundreds of miles from anything. */
const BARROW = { lat: 71.2906, lng: -156.7886 };
const MILES_PER_DEGREE = (3959 * Math.PI) / 180;

let serial = 0;
function southOfBarrow(miles: number, overrides: Partial<NewLocationRow> = {}): NewLocationRow {
  const id = `near_${String(serial++).padStart(6, "0")}`;
  return {
    ...SAMPLE_LOCATION,
    placeId: id,
    slug: `near-${id}`,
    latitude: BARROW.lat - miles / MILES_PER_DEGREE,
    longitude: BARROW.lng,
    ...overrides,
  };
}

const noFilters = { sizes: [], amenities: [] };

afterEach(() => setSearchIndex(undefined));

describe("nearestBeyond", () => {
  it("finds the nearest listing beyond the radius, whatever the tiers", () => {
    const far = southOfBarrow(700, { tier: "Pro" });
    const nearest = southOfBarrow(312);
    setSearchIndex(createSearchIndex([far, nearest].map(searchRowFromLocation)));
    const found = nearestBeyond(BARROW, noFilters, 100);
    expect(found?.item.id).toBe(nearest.placeId);
    expect(found?.item.distanceMiles).toBeCloseTo(312, 0);
    expect(found?.marker).toMatchObject({ id: nearest.placeId, href: `/location/${found?.item.slug}` });
  });

  it("keeps the filters, and looks anywhere when nothing is within 1,500 miles", () => {
    const unfenced = southOfBarrow(200, { hasPerimeterFencing: false });
    const fenced = southOfBarrow(3000, { hasPerimeterFencing: true });
    setSearchIndex(createSearchIndex([unfenced, fenced].map(searchRowFromLocation)));
    const found = nearestBeyond(BARROW, { sizes: [], amenities: ["has_perimeter_fencing"] }, 100);
    expect(found?.item.id).toBe(fenced.placeId);
  });

  it("answers nothing for an empty catalogue", () => {
    setSearchIndex(createSearchIndex([]));
    expect(nearestBeyond(BARROW, noFilters, 100)).toBeUndefined();
  });
});
