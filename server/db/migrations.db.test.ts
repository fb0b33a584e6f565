import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "./client";
import { locations, placeNames } from "./schema";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

describe(`migrations (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("creates the catalogue tables and applies again without error", async () => {
    await handle.migrate();
    const rows = await handle.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names =
      (rows as unknown as { rows?: { table_name: string }[] }).rows ?? (rows as unknown as { table_name: string }[]);
    expect(names.map((r) => r.table_name)).toEqual(expect.arrayContaining(["locations", "place_names"]));
  });

  it("stores typed values and serves the place-name lookup", async () => {
    await handle.db.insert(locations).values({
      placeId: "ChIJtest-migrations-1",
      slug: "test-storage-austin-tx-chijtest-migrations-1",
      name: "Test Storage",
      state: "TX",
      latitude: 30.27,
      longitude: -97.74,
      geohash: "9v6kpmr1ze",
      dimensions: [{ width: 10, length: 20 }],
      reviews: [{ author: "Ann", rating: 5, relativeTime: "a month ago", text: "Great" }],
      hasCoveredParking: true,
    });
    const [row] = await handle.db.select().from(locations);
    expect(row?.latitude).toBe(30.27);
    expect(row?.dimensions).toEqual([{ width: 10, length: 20 }]);
    expect(row?.hasCoveredParking).toBe(true);
    expect(row?.tier).toBe("Free");
    const names = await handle.db.select().from(placeNames);
    expect(names).toEqual([{ placeId: "ChIJtest-migrations-1", name: "Test Storage", state: "TX" }]);
  });

  it("rejects coordinates out of range at the database too", async () => {
    await expect(
      handle.db
        .insert(locations)
        .values({ placeId: "bad-lat-0000001", slug: "bad", name: "Bad", latitude: 91, longitude: 0 }),
    ).rejects.toThrow();
  });
});
