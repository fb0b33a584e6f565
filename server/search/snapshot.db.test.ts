/**
 * Start-up from a snapshot (docs/operations.md, "Search index"): the index is saved after a build,
 * and a new start reads it and applies what the change log says happened since, without reading the
 * catalogue; a snapshot of another database, or one the catalogue disagrees with, is not used.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locations, type NewLocationRow } from "../db/schema";
import { databaseIdentity } from "./load";
import {
  applyCatalogueChanges,
  getSearchIndex,
  keepSnapshotsIn,
  refreshSearchIndex,
  setSearchIndex,
  startFromSnapshot,
} from "./refresh";
import { AUSTIN, austinQuery, demoRowsAround, townAt } from "./test-support";

let handle: DatabaseHandle;
let rows: NewLocationRow[];
const db = () => handle.db;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-snapshot-db-"));
const file = path.join(dir, "search-index.snapshot");

beforeAll(async () => {
  handle = await createTestDatabase();
  rows = demoRowsAround([townAt(AUSTIN.lat, AUSTIN.lng, "Austin")], 80, 21);
  await db().insert(locations).values(rows);
});
afterAll(async () => {
  keepSnapshotsIn(undefined);
  setSearchIndex(undefined);
  await handle?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const names = () =>
  new Map(
    getSearchIndex()
      .query(austinQuery({ q: undefined, pageSize: 200 }))
      .items.map((item) => [item.id, item.name]),
  );

/** A build that saves its snapshot; resolves once the snapshot is written (it is queued after the build). */
async function buildAndSave(): Promise<void> {
  keepSnapshotsIn(file);
  fs.rmSync(file, { force: true });
  await refreshSearchIndex(db());
  await applyCatalogueChanges(db());
  expect(fs.existsSync(file)).toBe(true);
}

describe("starting from a snapshot", () => {
  it("reads the saved index and applies the changes made since, without a rebuild", async () => {
    await buildAndSave();
    const [edited, deleted] = rows.map((row) => row.placeId);
    const [fresh] = demoRowsAround([townAt(AUSTIN.lat, AUSTIN.lng, "Austin")], 1, 99);
    await db().update(locations).set({ name: "Renamed After The Snapshot" }).where(eq(locations.placeId, edited!));
    await db().delete(locations).where(eq(locations.placeId, deleted!));
    await db()
      .insert(locations)
      .values({ ...fresh!, placeId: "AFTER_SNAPSHOT", slug: "after-snapshot", name: "Added After The Snapshot" });

    setSearchIndex(undefined);
    const index = await startFromSnapshot(db(), file);
    expect(index).toBeDefined();
    expect(getSearchIndex()).toBe(index);
    // Applied in place to the columns read from the file: no rebuild. (At least the changed and the
    // new listing are appended rows; on PostgreSQL other databases' transactions can hold the
    // horizon back, and changes before the snapshot are then applied again, which is harmless.)
    expect(index!.fromSnapshot).toBe(true);
    expect(index!.appended).toBeGreaterThanOrEqual(2);
    expect(index!.size).toBe(rows.length);
    const shown = names();
    expect(shown.get(edited!)).toBe("Renamed After The Snapshot");
    expect(shown.has(deleted!)).toBe(false);
    expect(shown.get("AFTER_SNAPSHOT")).toBe("Added After The Snapshot");

    // The same answers as a build of the table.
    const queries = [austinQuery(), austinQuery({ sort: "rating" }), austinQuery({ q: "storage" })];
    const fromSnapshot = queries.map((q) => index!.query(q));
    await refreshSearchIndex(db());
    expect(getSearchIndex()).not.toBe(index);
    expect(queries.map((q) => getSearchIndex().query(q))).toEqual(fromSnapshot);
  });

  it("is not used for another database, and rebuilds when the catalogue disagrees with it", async () => {
    await buildAndSave();
    const saved = getSearchIndex();
    // Taken from another database: refused before anything is applied.
    await saved.saveTo(file, { horizon: "1", database: "another/database", takenAt: Date.now() });
    setSearchIndex(undefined);
    expect(await startFromSnapshot(db(), file)).toBeUndefined();
    // Older than the change log remembers: refused too.
    await saved.saveTo(file, {
      horizon: "1",
      database: await databaseIdentity(db()),
      takenAt: Date.now() - 3 * 86_400_000,
    });
    expect(await startFromSnapshot(db(), file)).toBeUndefined();

    // A change the log does not hold (written with the log emptied after it): the count tells, and
    // the index is built from the table instead.
    await buildAndSave();
    const gone = rows[5]!.placeId;
    await db().delete(locations).where(eq(locations.placeId, gone));
    await db().execute(sql`delete from location_changes`);
    setSearchIndex(undefined);
    const index = await startFromSnapshot(db(), file);
    expect(index).toBeDefined();
    expect(index!.fromSnapshot).toBe(false);
    expect(index!.has(gone)).toBe(false);
  });

  it("builds from the database when the file is damaged", async () => {
    fs.writeFileSync(file, "not a snapshot at all");
    setSearchIndex(undefined);
    expect(await startFromSnapshot(db(), file)).toBeUndefined();
  });
});
