/**
 * The index follows the catalogue's change log in place (docs/operations.md, "What instances share"):
 * every write to `locations` is logged by the trigger, and applying the log changes the index
 * in time proportional to the rows changed, with no rebuild; a change whose transaction commits
 * after a later one's is not skipped (on PostgreSQL, where two connections can interleave).
 */
import { asc, eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locationChanges, locations, type NewLocationRow } from "../db/schema";
import { notifyLocationsChanged } from "./notify";
import { applyCatalogueChanges, getSearchIndex, refreshSearchIndex, setSearchIndex } from "./refresh";
import { AUSTIN, austinQuery, demoRowsAround, townAt } from "./test-support";

const query = austinQuery;

let handle: DatabaseHandle;
let rows: NewLocationRow[];
const db = () => handle.db;

beforeAll(async () => {
  handle = await createTestDatabase();
  rows = demoRowsAround([townAt(AUSTIN.lat, AUSTIN.lng, "Austin")], 60, 11);
  await db().insert(locations).values(rows);
});
afterAll(async () => {
  setSearchIndex(undefined);
  await handle?.close();
});

const ids = () =>
  getSearchIndex()
    .query(query())
    .items.map((item) => item.id);
const itemOf = (id: string) =>
  getSearchIndex()
    .query(query({ q: undefined }))
    .items.find((item) => item.id === id);

describe("the change log", () => {
  it("logs every insert, update and delete of a listing, and nothing for an update that changes nothing", async () => {
    const logged = async () =>
      (await db().select().from(locationChanges).orderBy(asc(locationChanges.seq))).map((c) => c.placeId);
    const before = (await logged()).length;
    const [row] = demoRowsAround([townAt(AUSTIN.lat, AUSTIN.lng, "Austin")], 1, 5);
    await db()
      .insert(locations)
      .values({ ...row!, placeId: "LOGGED_1", slug: "logged-1" });
    await db().update(locations).set({ name: "Renamed" }).where(eq(locations.placeId, "LOGGED_1"));
    // Written as it is (the ORM would also move updated_at): no change, no row.
    await db().execute(sql`update locations set name = name where place_id = 'LOGGED_1'`);
    await db().delete(locations).where(eq(locations.placeId, "LOGGED_1"));
    expect((await logged()).slice(before)).toEqual(["LOGGED_1", "LOGGED_1", "LOGGED_1"]);
  });
});

describe("applying the log", () => {
  it("changes the index in place, without a rebuild: an edit, a move, a new listing, a hidden and a deleted one", async () => {
    await refreshSearchIndex(db());
    const index = getSearchIndex();
    const version = index.version;
    const [edited, moved, hidden, deleted] = rows.map((row) => row.placeId);
    const [fresh] = demoRowsAround([townAt(AUSTIN.lat, AUSTIN.lng, "Austin")], 1, 77);
    await db().update(locations).set({ name: "Renamed In Place", tier: "Pro" }).where(eq(locations.placeId, edited!));
    // Moved 400 miles away: out of a 100-mile search around Austin.
    await db().update(locations).set({ latitude: 36.1, longitude: -101.8 }).where(eq(locations.placeId, moved!));
    await db().update(locations).set({ hiddenAt: new Date() }).where(eq(locations.placeId, hidden!));
    await db().delete(locations).where(eq(locations.placeId, deleted!));
    await db()
      .insert(locations)
      .values({ ...fresh!, placeId: "FRESH_IN_PLACE", slug: "fresh-in-place", name: "Fresh In Place" });

    await notifyLocationsChanged(db());
    expect(getSearchIndex()).toBe(index);
    expect(index.version).toBeGreaterThan(version);
    expect(itemOf(edited!)).toMatchObject({ name: "Renamed In Place", tier: "Pro" });
    expect(ids()).not.toContain(moved);
    expect(
      getSearchIndex()
        .query(query({ lat: 36.1, lng: -101.8, radius: 5 }))
        .items.map((i) => i.id),
    ).toEqual([moved]);
    expect(ids()).not.toContain(hidden);
    expect(ids()).not.toContain(deleted);
    expect(itemOf("FRESH_IN_PLACE")).toMatchObject({ name: "Fresh In Place" });
    expect(getSearchIndex().findByText("renamed in place").total).toBe(1);

    // Nothing new: applying again changes nothing and reads nothing it did not have.
    const after = index.version;
    await applyCatalogueChanges(db());
    expect(index.size).toBe(rows.length - 2 + 1);
    expect(index.version).toBeGreaterThanOrEqual(after);
    // The same answers as a fresh build of the table.
    const sizes = [query(), query({ sort: "rating" }), query({ amenities: ["has_covered_parking"] })];
    const inPlace = sizes.map((q) => getSearchIndex().query(q));
    await refreshSearchIndex(db());
    expect(getSearchIndex()).not.toBe(index);
    expect(sizes.map((q) => getSearchIndex().query(q))).toEqual(inPlace);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "does not skip a change whose transaction commits after a later one's",
    async () => {
      await refreshSearchIndex(db());
      const result = (await db().execute(sql`select current_database() as name`)) as { rows: { name: string }[] };
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${result.rows[0]!.name}`;
      const slow = new pg.Client({ connectionString: url.toString() });
      await slow.connect();
      try {
        const [early, late] = rows.slice(10, 12).map((row) => row.placeId);
        await slow.query("begin");
        await slow.query("update locations set name = 'Slow Writer' where place_id = $1", [early]);
        // A later transaction commits first, and the index applies it while the slow one runs.
        await db().update(locations).set({ name: "Quick Writer" }).where(eq(locations.placeId, late!));
        await applyCatalogueChanges(db());
        expect(itemOf(late!)?.name).toBe("Quick Writer");
        expect(itemOf(early!)?.name).not.toBe("Slow Writer");
        await slow.query("commit");
        await applyCatalogueChanges(db());
        expect(itemOf(early!)?.name).toBe("Slow Writer");
      } finally {
        await slow.end();
      }
    },
  );
});
