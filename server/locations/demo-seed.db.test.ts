import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locations } from "../db/schema";
import { ensureDemoData, resetDemoData } from "./demo-seed";
import { SAMPLE_LOCATION } from "./sample";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const total = async (where?: ReturnType<typeof eq>) => {
  const [row] = await handle.db.select({ n: count() }).from(locations).where(where);
  return row?.n ?? 0;
};

describe("demo data loading", () => {
  it("does nothing when switched off", async () => {
    expect(await ensureDemoData(handle.db, { mode: "off", count: 50 })).toBe(0);
    expect(await total()).toBe(0);
  });

  it("loads the catalogue into an empty database, once", async () => {
    expect(await ensureDemoData(handle.db, { mode: "auto", count: 120 })).toBe(120);
    expect(await total()).toBe(120);
    expect(await total(eq(locations.isDemo, true))).toBe(120);
    expect(await ensureDemoData(handle.db, { mode: "auto", count: 120 })).toBe(0);
    expect(await total()).toBe(120);
  });

  it("reset replaces demo rows and never touches real listings", async () => {
    await handle.db
      .insert(locations)
      .values({ ...SAMPLE_LOCATION, placeId: "real_listing_000001", slug: "real-listing", isDemo: false });
    const result = await resetDemoData(handle.db, 80);
    expect(result).toEqual({ removed: 120, inserted: 80 });
    expect(await total(eq(locations.isDemo, true))).toBe(80);
    expect(await total(eq(locations.isDemo, false))).toBe(1);
  });
});
