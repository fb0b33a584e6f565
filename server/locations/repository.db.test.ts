import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { ensureDemoData } from "./demo-seed";
import {
  CatalogueUnavailableError,
  getCatalogueStats,
  getFeaturedLocations,
  getLocationByIdPiece,
  getLocationBySlug,
} from "./repository";
import { SAMPLE_LOCATION } from "./sample";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  await ensureDemoData(handle.db, { mode: "auto", count: 200 });
});
afterAll(async () => {
  await disconnectDatabase().catch(() => {});
});

describe("catalogue reads", () => {
  it("finds a location by slug and by its place id piece", async () => {
    const [featured] = await getFeaturedLocations(1);
    expect(featured).toBeDefined();
    expect((await getLocationBySlug(featured!.slug))?.placeId).toBe(featured!.placeId);
    expect((await getLocationByIdPiece(featured!.placeId.toLowerCase()))?.slug).toBe(featured!.slug);
    expect(await getLocationBySlug("no-such-place-demo_zzzzzzzzzzzz")).toBeUndefined();
  });

  it("features only Preferred and Pro listings, rated ones first", async () => {
    const featured = await getFeaturedLocations(6);
    expect(featured.length).toBeGreaterThan(0);
    for (const row of featured) expect(["Pro", "Preferred"]).toContain(row.tier);
  });

  it("counts listings per state", async () => {
    const stats = await getCatalogueStats();
    expect(stats.total).toBe(200);
    expect(stats.byState.reduce((sum, s) => sum + s.count, 0)).toBe(200);
  });

  it("serves the last good answer, else the sample location, when the database fails", async () => {
    const before = await getCatalogueStats();
    await handle.close();
    expect(await getCatalogueStats()).toEqual(before);
    expect(await getFeaturedLocations(3)).toEqual([SAMPLE_LOCATION]);
    expect(await getLocationBySlug(SAMPLE_LOCATION.slug)).toBe(SAMPLE_LOCATION);
    // A slug never read before cannot be answered from memory: that is a failure, not a 404.
    await expect(getLocationBySlug("never-read-before-demo_zzzzzzzzzzzz")).rejects.toThrow(CatalogueUnavailableError);
  });
});
