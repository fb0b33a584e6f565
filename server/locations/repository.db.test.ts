import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { ensureDemoData } from "./demo-seed";
import { eq, inArray } from "drizzle-orm";
import { locations } from "../db/schema";
import { refreshSearchIndex, setSearchIndex } from "../search/refresh";
import { CatalogueUnavailableError, getLocationByIdPiece, getLocationBySlug } from "./repository";
import { SAMPLE_LOCATION } from "./sample";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await connectDatabase(await createTestDatabase());
  await ensureDemoData(handle.db, { mode: "auto", count: 200 });
});
afterAll(async () => {
  setSearchIndex(undefined);
  await disconnectDatabase().catch(() => {});
});

describe("catalogue reads", () => {
  it("finds a location by slug and by its place id piece", async () => {
    const [row] = await handle.db.select().from(locations).limit(1);
    expect((await getLocationBySlug(row!.slug))?.placeId).toBe(row!.placeId);
    expect((await getLocationByIdPiece(row!.placeId.toLowerCase()))?.slug).toBe(row!.slug);
    expect(await getLocationBySlug("no-such-place-demo_zzzzzzzzzzzz")).toBeUndefined();
  });

  it("reads the whole row and the owner flag of each slug asked, one after another (one prepared query)", async () => {
    const rows = await handle.db.select().from(locations).orderBy(locations.slug).limit(3);
    for (const row of rows) expect(await getLocationBySlug(row.slug)).toEqual({ ...row, verifiedOwner: false });
  });

  it("features only Preferred and Pro listings, best rated first, and counts listings per state, from the index", async () => {
    const index = await refreshSearchIndex(handle.db);
    const featured = index.featured(6);
    const partners = await handle.db
      .select()
      .from(locations)
      .where(inArray(locations.tier, ["Pro", "Preferred"]));
    expect(featured.length).toBe(Math.min(6, partners.length));
    expect(featured.length).toBeGreaterThan(0);
    for (const row of featured) expect(["Pro", "Preferred"]).toContain(row.tier);
    const ratings = featured.map((f) => f.rating ?? -1);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    const stats = index.catalogueSummary();
    expect(stats.total).toBe(200);
    expect(stats.byState.reduce((sum, s) => sum + s.count, 0)).toBe(200);
    const texas = await handle.db.select().from(locations).where(eq(locations.state, "TX"));
    expect(stats.byState.find((s) => s.state === "TX")?.count ?? 0).toBe(texas.length);
    // Once per index version: the same answer object until the index changes.
    expect(index.catalogueSummary()).toBe(stats);
    index.apply({ removed: [featured[0]!.id] });
    expect(index.catalogueSummary().total).toBe(199);
    expect(index.featured(6).map((f) => f.id)).not.toContain(featured[0]!.id);
  });

  it("serves the last good answer, else the sample location, when the database fails", async () => {
    await handle.close();
    expect(await getLocationBySlug(SAMPLE_LOCATION.slug)).toBe(SAMPLE_LOCATION);
    // A slug never read before cannot be answered from memory: that is a failure, not a 404.
    await expect(getLocationBySlug("never-read-before-demo_zzzzzzzzzzzz")).rejects.toThrow(CatalogueUnavailableError);
  });
});
