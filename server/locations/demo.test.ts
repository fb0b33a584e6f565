import { describe, expect, it } from "vitest";
import { SIZE_OPTIONS_LIST } from "../../domain/sizes";
import { PLACE_ID_PATTERN, parseLocationSlug } from "../../domain/slug";
import { TIERS } from "../../domain/tiers";
import { getGazetteer } from "../geo";
import { createSearchIndex } from "../search/search-index";
import { searchRowFromLocation } from "../search/source-row";
import { STALE_AFTER_DAYS } from "../../domain/listing-problems";
import { DEMO_ID_PREFIX, generateDemoCatalogue } from "./demo";
import { renderDemoPhoto } from "./demo-photo";

const gazetteer = getGazetteer();
const rows = generateDemoCatalogue(gazetteer, 3000);

describe("demo catalogue", () => {
  it("has the requested size, unique ids and unique slugs", () => {
    expect(rows).toHaveLength(3000);
    expect(new Set(rows.map((r) => r.placeId)).size).toBe(3000);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(3000);
  });

  it("dates its updates over recent months, a few more than a year back, none ahead of now", () => {
    const now = new Date("2026-11-27T08:00:00Z");
    const dated = generateDemoCatalogue(gazetteer, 3000, undefined, now);
    const days = dated.map((row) => (now.getTime() - row.updatedAt!.getTime()) / 86_400_000);
    expect(Math.min(...days)).toBeGreaterThan(0);
    const stale = days.filter((d) => d > STALE_AFTER_DAYS).length;
    // docs/product.md section 12: a few listings for the staleness check, not the catalogue.
    expect(stale).toBeGreaterThan(30);
    expect(stale).toBeLessThan(150);
    expect(days.filter((d) => d <= 90).length).toBeGreaterThan(1000);
    for (const row of dated) {
      expect(row.updatedAt!.getTime()).toBeGreaterThanOrEqual(row.createdAt!.getTime());
      if (row.pricesConfirmedAt) expect(row.pricesConfirmedAt.getTime()).toBeLessThanOrEqual(row.updatedAt!.getTime());
    }
    // The dates move with the day the catalogue is made; the rest of the catalogue does not.
    const later = generateDemoCatalogue(gazetteer, 50, undefined, new Date("2027-03-01T00:00:00Z"));
    const undated = ({ updatedAt: _u, pricesConfirmedAt: _p, sizeOffers, ...rest }: (typeof dated)[number]) => ({
      ...rest,
      sizeOffers: (sizeOffers ?? []).map(({ statusAt: _s, ...offer }) => offer),
    });
    expect(later.map(undated)).toEqual(dated.slice(0, 50).map(undated));
    // Availability is dated too: within 44 days of the day the catalogue is made, or at the
    // listing's last update when that is older, never after it.
    for (const row of dated)
      for (const offer of row.sizeOffers ?? []) {
        if (!offer.availability) continue;
        const at = Date.parse(offer.statusAt!);
        expect(at).toBeLessThanOrEqual(row.updatedAt!.getTime());
        if (now.getTime() - at > 45 * 86_400_000) expect(at).toBe(row.updatedAt!.getTime());
      }
  });

  it("is reproducible from its seed", () => {
    const again = generateDemoCatalogue(gazetteer, 50);
    expect(again).toEqual(rows.slice(0, 50));
    expect(generateDemoCatalogue(gazetteer, 50, 1)).not.toEqual(again);
  });

  it("puts every facility inside the state of its town, near the town", () => {
    for (const row of rows) {
      expect(gazetteer.stateAt(row.latitude!, row.longitude!), row.name).toBe(row.state);
      const town = gazetteer.findCity(row.city!, row.state!);
      expect(town, `${row.city}, ${row.state}`).toBeDefined();
    }
  });

  it("spreads over (nearly) every state, most where people live", () => {
    const byState = new Map<string, number>();
    for (const row of rows) byState.set(row.state!, (byState.get(row.state!) ?? 0) + 1);
    expect(byState.size).toBeGreaterThanOrEqual(48);
    expect(byState.get("CA")!).toBeGreaterThan(byState.get("WY") ?? 0);
  });

  it("flags every row as demo, with 555-01xx phone numbers", () => {
    for (const row of rows) {
      expect(row.isDemo).toBe(true);
      expect(row.placeId.startsWith(DEMO_ID_PREFIX)).toBe(true);
      expect(row.placeId).toMatch(PLACE_ID_PATTERN);
      expect(row.phoneNumber).toMatch(/^\(\d{3}\) 555-01\d\d$/);
      expect(row.internationalPhoneNumber).toMatch(/^\+1 \d{3}-555-01\d\d$/);
      expect(row.description).toMatch(/Demo listing/);
    }
  });

  it("has slugs that parse back to the place id and state", () => {
    for (const row of rows.slice(0, 200)) {
      const parsed = parseLocationSlug(row.slug);
      expect(parsed.placeIdPiece).toBe(row.placeId.toLowerCase());
      expect(parsed.state).toBe(row.state);
    }
  });

  it("has mostly Free tiers, a small share paid: some Basic, fewer Preferred and Pro", () => {
    const counts = Object.fromEntries(TIERS.map((t) => [t, rows.filter((r) => r.tier === t).length]));
    expect(counts.Free).toBeGreaterThan(rows.length * 0.95);
    expect(counts.Basic).toBeGreaterThan(counts.Preferred!);
    expect(counts.Preferred).toBeGreaterThan(counts.Pro!);
    expect(counts.Pro).toBeGreaterThan(0);
    // Enough Pro and Preferred listings for the home page's six preferred partners.
    expect(counts.Pro! + counts.Preferred!).toBeGreaterThanOrEqual(12);
  });

  it("puts at most 3 paid listings on a big town's first page (they rank first by distance)", () => {
    const austin = gazetteer.findCity("Austin", "TX")!;
    const index = createSearchIndex(rows.map(searchRowFromLocation));
    const page = index.query({
      lat: austin.lat,
      lng: austin.lng,
      radius: 100,
      sizes: [],
      amenities: [],
      sort: "distance",
      page: 1,
      pageSize: 12,
    });
    expect(page.total).toBeGreaterThan(12);
    const paid = page.items.filter((item) => item.tier !== "Free").length;
    expect(paid).toBeLessThanOrEqual(3);
  });

  it("has realistic sizes, hours, ratings, reviews and a few photos", () => {
    for (const row of rows) {
      for (const d of row.dimensions ?? []) expect(d.width).toBeLessThanOrEqual(d.length);
      expect(row.openingHours).toHaveLength(7);
      if (row.rating !== null && row.rating !== undefined) {
        expect(row.rating).toBeGreaterThanOrEqual(1);
        expect(row.rating).toBeLessThanOrEqual(5);
      } else {
        expect(row.reviews).toEqual([]);
      }
      for (const review of row.reviews ?? []) expect(review.rating).toBeGreaterThanOrEqual(1);
      expect(row.imageUrls!.length).toBeGreaterThanOrEqual(2);
      expect(row.imageCount).toBe(row.imageUrls!.length);
      expect(row.geohash).toHaveLength(10);
    }
    const withSizes = rows.filter((r) => (r.dimensions ?? []).length > 0).length;
    expect(withSizes).toBeGreaterThan(rows.length * 0.8);
    expect(SIZE_OPTIONS_LIST.length).toBe(14);
  });

  it("draws a deterministic SVG photo per place and index", () => {
    const svg = renderDemoPhoto(rows[0]!.placeId, 1);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 640 480"/);
    expect(renderDemoPhoto(rows[0]!.placeId, 1)).toBe(svg);
    expect(renderDemoPhoto(rows[0]!.placeId, 2)).not.toBe(svg);
  });
});
