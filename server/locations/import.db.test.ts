import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locations } from "../db/schema";
import { ImportDatabaseError, importFile, importLocations, numberRecords } from "./import";
import { ImportFileError } from "./read-file";
import type { RawRecord } from "./record";

const fixture = (name: string) => path.resolve("tests/fixtures/import", name);
const NOW = new Date("2025-06-01T12:00:00.000Z");

let handle: DatabaseHandle;
let tmp: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "import-db-"));
});
afterAll(async () => {
  await handle?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});
beforeEach(async () => {
  await handle.db.delete(locations);
});

const allRows = () => handle.db.select().from(locations).orderBy(asc(locations.placeId));
const placeIds = async () => (await allRows()).map((r) => r.placeId);
async function rowCount(): Promise<number> {
  const [row] = await handle.db.select({ n: count() }).from(locations);
  return row?.n ?? 0;
}
async function rowOf(placeId: string) {
  const [row] = await handle.db.select().from(locations).where(eq(locations.placeId, placeId));
  return row;
}

describe(`importLocations (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("imports a CSV with quoting edge cases", async () => {
    const report = await importFile(handle.db, fixture("good.csv"), { now: NOW });
    expect(report).toEqual({
      dryRun: false,
      read: 3,
      accepted: 3,
      inserted: 3,
      updated: 0,
      rejected: [],
      rejectedRows: 0,
      warnings: ["ignored unknown columns: legacy_notes"],
    });
    expect(await rowOf("ChIJgood-austin-0001")).toMatchObject({
      name: 'Joe\'s "Big Rig" RV Storage, North Lot',
      slug: "joes-big-rig-rv-storage-north-lot-austin-tx-chijgoodaustin0001",
      city: "Austin",
      state: "TX",
      latitude: 30.2672,
      longitude: -97.7431,
      geohash: "9v6kpvcxhx",
      userRatingsTotal: 1234,
      dimensions: [
        { width: 10, length: 20 },
        { width: 12, length: 30 },
        { width: 14, length: 40 },
        { width: 10, length: 25 },
      ],
      description: 'Gated lot.\nLine two, with a comma.\r\nLine three with "quotes".',
      imageUrls: ["https://img.example.com/a.jpg", "https://img.example.com/b,c.jpg"],
      openingHours: ["Monday: 8:00 AM – 6:00 PM", "Tuesday: 8:00 AM – 6:00 PM", "Sunday: Closed"],
      types: ["storage", "point_of_interest", "establishment"],
      reviews: [
        { author: "Jane D.", rating: 5, relativeTime: "2 months ago", text: "Great place, secure." },
        { author: "Bob", rating: 3, relativeTime: "a year ago", text: "OK | not great" },
        { author: "Ann", rating: 4, relativeTime: "3 weeks ago", text: "Fine" },
      ],
      tier: "Pro",
      hasPerimeterFencing: true,
      hasSurveillanceFootage: true,
      hasUnitAlarms: true,
      hasPersonalizedAccessCode: false,
      hasCoveredParking: true,
      available30Or50AmpOutlet: true,
      createdAt: new Date("2023-01-15T10:00:00Z"),
      updatedAt: new Date("2024-03-01T08:30:00Z"),
    });
    expect((await rowOf("ChIJgood-austin-0001"))?.rating).toBeCloseTo(4.6, 5);
    expect(await rowOf("ChIJgood-denver-0002")).toMatchObject({
      state: "CO",
      city: "Denver",
      rating: null,
      dimensions: [],
      tier: "Free",
      hasUncoveredParking: true,
      createdAt: NOW,
    });
    expect(await rowOf("ChIJgood-nocoords-0003")).toMatchObject({
      state: "ID",
      city: "Boise",
      latitude: null,
      longitude: null,
      geohash: null,
      tier: "Preferred",
      // Stored as the owner's form stores a website (domain/web-address.ts).
      website: "https://nopin.example.com/",
    });
  });

  it("imports typed JSON and NDJSON", async () => {
    const json = await importFile(handle.db, fixture("good.json"));
    expect(json).toMatchObject({ accepted: 2, rejected: [] });
    expect(await rowOf("ChIJjson-phoenix-0001")).toMatchObject({
      state: "AZ",
      userRatingsTotal: 87,
      dimensions: [
        { width: 10, length: 30 },
        { width: 12, length: 40 },
      ],
      parkingOptions: '{"freeParkingLot":true}',
      phoneNumber: "6025550100",
      anytimeAccess: true,
      hasCoveredParking: true,
      dumpStation: true,
      pullThru: false,
      tier: "Basic",
      reviews: [{ author: "Kim", rating: 5, relativeTime: "a week ago", text: "Easy access" }],
    });
    expect(await rowOf("ChIJjson-tucson-0002")).toMatchObject({
      state: "AZ",
      city: "Tucson",
      isDemo: true,
      tier: "Preferred",
    });

    const ndjson = await importFile(handle.db, fixture("good.ndjson"));
    expect(ndjson).toMatchObject({ read: 2, accepted: 2, rejected: [] });
    expect(await rowOf("ChIJndjson-vegas-0002")).toMatchObject({
      state: "NV",
      city: "Las Vegas",
      userRatingsTotal: 12,
    });
  });

  it("rejects the bad rows of an NDJSON file with their row and field, and writes the good ones", async () => {
    const report = await importFile(handle.db, fixture("bad.ndjson"));
    expect(report.rejected).toEqual([
      { row: 2, placeId: "ChIJbad-lat-0002", field: "latitude", reason: "95 is out of range (-90 to 90)" },
      { row: 3, placeId: "ChIJbad-lng-0003", field: "longitude", reason: '"abc" is not a number' },
      { row: 5, placeId: "ChIJbad-good-0001", field: "place_id", reason: "duplicate place_id, first seen on row 1" },
      { row: 6, placeId: "ChIJbad-noname-0006", field: "name", reason: "is required" },
      { row: 7, placeId: "ChIJbad-dims-0007", field: "dimensions", reason: '"12by30" is not a size like 10x20' },
      { row: 8, field: "record", reason: expect.stringMatching(/^is not valid JSON \(/) },
    ]);
    expect(report).toMatchObject({ read: 8, accepted: 2, inserted: 2, rejectedRows: 6 });
    expect(await placeIds()).toEqual(["ChIJbad-good-0001", "ChIJbad-good-0009"]);
    expect((await rowOf("ChIJbad-good-0001"))?.name).toBe("Bad File Storage 0001");
  });

  it("refuses a website that is not http or https, naming its row and field, as the owner's form does", async () => {
    const file = path.join(tmp, "websites.csv");
    const address = '"1 Main St, Austin, TX 78701, USA"';
    fs.writeFileSync(
      file,
      [
        "place_id,name,address,website",
        `ChIJweb-js-0001,Script Storage,${address},javascript:alert(document.cookie)`,
        `ChIJweb-data-0002,Data Storage,${address},"data:text/html,<script>alert(1)</script>"`,
        `ChIJweb-ftp-0003,Files Storage,${address},ftp://files.example.com`,
        `ChIJweb-ok-0004,Fine Storage,${address},www.fine.example`,
        `ChIJweb-none-0005,No Site Storage,${address},`,
        "",
      ].join("\r\n"),
    );
    const report = await importFile(handle.db, file);
    const reason = (text: string) => `"${text}" is not a web address starting with http:// or https://`;
    expect(report.rejected).toEqual([
      { row: 2, placeId: "ChIJweb-js-0001", field: "website", reason: reason("javascript:alert(document.cookie)") },
      {
        row: 3,
        placeId: "ChIJweb-data-0002",
        field: "website",
        reason: reason("data:text/html,<script>alert(1)</script>"),
      },
      { row: 4, placeId: "ChIJweb-ftp-0003", field: "website", reason: reason("ftp://files.example.com") },
    ]);
    expect(report).toMatchObject({ read: 5, accepted: 2, rejectedRows: 3 });
    expect(await placeIds()).toEqual(["ChIJweb-none-0005", "ChIJweb-ok-0004"]);
    expect((await rowOf("ChIJweb-ok-0004"))?.website).toBe("https://www.fine.example/");
    expect((await rowOf("ChIJweb-none-0005"))?.website).toBeNull();
  });

  it("rejects the bad rows of a CSV file by spreadsheet row", async () => {
    const report = await importFile(handle.db, fixture("bad.csv"));
    expect(report.rejected).toEqual([
      {
        row: 4,
        placeId: "chij-twin-0002",
        field: "slug",
        reason: '"twin-storage-wichita-ks-chijtwin0002" is already taken by place_id ChIJ-Twin-0002 on row 3',
      },
      {
        row: 5,
        placeId: "ChIJcsv-rating-0004",
        field: "state",
        reason: '"Texsa" is not a US state name or two-letter code',
      },
      { row: 5, placeId: "ChIJcsv-rating-0004", field: "rating", reason: "7 is out of range (0 to 5)" },
      {
        row: 5,
        placeId: "ChIJcsv-rating-0004",
        field: "created_at",
        reason: '"yesterday" is not an ISO date such as 2024-05-01T12:00:00Z',
      },
      {
        row: 5,
        placeId: "ChIJcsv-rating-0004",
        field: "tier",
        reason: '"Gold" is not one of Pro, Preferred, Basic, Free',
      },
      { row: 5, placeId: "ChIJcsv-rating-0004", field: "has_unit_alarms", reason: '"maybe" is not True or False' },
      { row: 5, placeId: "ChIJcsv-rating-0004", field: "longitude", reason: "is empty while latitude is set" },
      {
        row: 6,
        placeId: "ChIJ csv space 0005",
        field: "place_id",
        reason: '"ChIJ csv space 0005" must not contain whitespace',
      },
      { row: 7, field: "record", reason: "has 13 fields but the header has 12" },
    ]);
    expect(report).toMatchObject({ read: 7, accepted: 3, rejectedRows: 4 });
    expect(await placeIds()).toEqual(["ChIJ-Twin-0002", "ChIJcsv-good-0001", "ChIJcsv-good-0007"]);
    expect(await rowOf("ChIJcsv-good-0007")).toMatchObject({
      state: "KS",
      city: "Topeka",
      rating: 2.5,
      tier: "Pro",
      dimensions: [{ width: 10, length: 40 }],
      createdAt: new Date("2021-02-03T00:00:00Z"),
    });
  });

  it("writes nothing on a dry run, but reports what it would do", async () => {
    const dry = await importFile(handle.db, fixture("good.csv"), { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, accepted: 3, inserted: 3, updated: 0 });
    expect(await rowCount()).toBe(0);

    await importFile(handle.db, fixture("good.csv"));
    const before = await allRows();
    const dryAgain = await importFile(handle.db, fixture("good.csv"), {
      dryRun: true,
      now: new Date("2030-01-01T00:00:00Z"),
    });
    expect(dryAgain).toMatchObject({ dryRun: true, accepted: 3, inserted: 0, updated: 3 });
    const dryBad = await importFile(handle.db, fixture("bad.ndjson"), { dryRun: true });
    expect(dryBad).toMatchObject({ accepted: 2, rejectedRows: 6 });
    expect(await allRows()).toEqual(before);
  });

  it("updates on re-import instead of duplicating, keeping created_at", async () => {
    await importFile(handle.db, fixture("good.csv"));
    const again = await importFile(handle.db, fixture("good.csv"));
    expect(again).toMatchObject({ accepted: 3, inserted: 0, updated: 3 });
    expect(await rowCount()).toBe(3);

    const later = new Date("2026-01-01T00:00:00.000Z");
    const renamed: RawRecord = {
      place_id: "ChIJgood-austin-0001",
      name: "Joe's Renamed Storage",
      address: "123 Main St, Austin, TX 78701, USA",
      created_at: "2029-01-01T00:00:00Z",
    };
    const report = await importLocations(handle.db, numberRecords([renamed]), { now: later });
    expect(report).toMatchObject({ accepted: 1, inserted: 0, updated: 1 });
    expect(await rowOf("ChIJgood-austin-0001")).toMatchObject({
      name: "Joe's Renamed Storage",
      slug: "joes-renamed-storage-austin-tx-chijgoodaustin0001",
      tier: "Free",
      reviews: [],
      createdAt: new Date("2023-01-15T10:00:00Z"),
      updatedAt: later,
    });
    expect(await rowCount()).toBe(3);
  });

  it("keeps an owner's prices for the sizes an old-format file still lists, and makes open forms stale", async () => {
    const placeId = "ChIJgood-austin-0001";
    await importFile(handle.db, fixture("good.csv"));
    await handle.db
      .update(locations)
      .set({
        dimensions: [
          { width: 10, length: 20 },
          { width: 12, length: 40 },
        ],
        sizeOffers: [
          { width: 10, length: 20, monthlyPrice: 90, availability: "available" },
          { width: 12, length: 40, monthlyPrice: 180, availability: "full" },
        ],
        pricesConfirmedAt: new Date("2026-11-01T00:00:00Z"),
        coveredClearanceFeet: 14,
        version: 4,
      })
      .where(eq(locations.placeId, placeId));

    // A file of the old system's shape: no owner fields, and the 12x40 size is gone.
    const old: RawRecord = { place_id: placeId, name: "Joe's", address: "1 Main St, Austin, TX", dimensions: "10x20" };
    expect(await importLocations(handle.db, numberRecords([old]))).toMatchObject({ updated: 1, rejected: [] });
    expect(await rowOf(placeId)).toMatchObject({
      dimensions: [{ width: 10, length: 20 }],
      sizeOffers: [{ width: 10, length: 20, monthlyPrice: 90, availability: "available" }],
      pricesConfirmedAt: new Date("2026-11-01T00:00:00Z"),
      coveredClearanceFeet: 14,
      version: 5,
    });

    // A file that carries them sets them, empty values included; rows of both shapes mix in one import.
    const priced: RawRecord = {
      ...old,
      size_offers: '[{"width":10,"length":20,"monthlyPrice":95}]',
      prices_confirmed_at: "",
      covered_clearance_feet: "",
    };
    const other: RawRecord = { place_id: "ChIJnew-0001", name: "New Lot", address: "2 Oak St, Austin, TX" };
    expect(await importLocations(handle.db, numberRecords([priced, other]))).toMatchObject({
      inserted: 1,
      updated: 1,
      rejected: [],
    });
    expect(await rowOf(placeId)).toMatchObject({
      sizeOffers: [{ width: 10, length: 20, monthlyPrice: 95, availability: null }],
      pricesConfirmedAt: null,
      coveredClearanceFeet: null,
      version: 6,
    });
    expect(await rowOf("ChIJnew-0001")).toMatchObject({ sizeOffers: [], version: 1 });
  });

  const twin = (placeId: string, name: string): RawRecord => ({
    place_id: placeId,
    name,
    address: "1 Oak St, Austin, TX 78701",
  });

  it("rejects a slug held by another stored place, on a dry run too", async () => {
    await importLocations(handle.db, numberRecords([twin("ChIJ-Same-0001", "Same Storage")]));
    for (const dryRun of [true, false]) {
      const report = await importLocations(
        handle.db,
        numberRecords([twin("chij-same-0001", "Same Storage"), twin("ChIJother-0002", "Other")]),
        { dryRun },
      );
      expect(report.rejected).toEqual([
        {
          row: 1,
          placeId: "chij-same-0001",
          field: "slug",
          reason: '"same-storage-austin-tx-chijsame0001" is already used by place_id ChIJ-Same-0001 in the database',
        },
      ]);
      expect(report).toMatchObject({ accepted: 1, inserted: 1 });
    }
    expect(await placeIds()).toEqual(["ChIJ-Same-0001", "ChIJother-0002"]);
  });

  it("lets a row take the slug that a stored place leaves in the same import", async () => {
    await importLocations(handle.db, numberRecords([twin("ChIJ-Move-0001", "Alpha Storage")]));
    const records = numberRecords([twin("chij-move-0001", "Alpha Storage"), twin("ChIJ-Move-0001", "Beta Storage")]);
    for (const dryRun of [true, false]) {
      const report = await importLocations(handle.db, records, { dryRun });
      expect(report).toMatchObject({ accepted: 2, inserted: 1, updated: 1, rejected: [] });
    }
    expect((await allRows()).map((r) => [r.placeId, r.slug])).toEqual([
      ["ChIJ-Move-0001", "beta-storage-austin-tx-chijmove0001"],
      ["chij-move-0001", "alpha-storage-austin-tx-chijmove0001"],
    ]);
  });

  it("writes in chunks, and still catches a duplicate across chunks", async () => {
    const records = Array.from({ length: 1200 }, (_, i) => ({
      place_id: `ChIJbulk-${String(i).padStart(6, "0")}`,
      name: `Bulk Storage ${i}`,
      latitude: String(30 + i / 1000),
      longitude: "-97.5",
    }));
    records.push({ ...records[3]!, name: "Late Duplicate" });
    const report = await importLocations(handle.db, numberRecords(records));
    expect(report).toMatchObject({ read: 1201, accepted: 1200, inserted: 1200, rejectedRows: 1 });
    expect(report.rejected).toEqual([
      { row: 1201, placeId: "ChIJbulk-000003", field: "place_id", reason: "duplicate place_id, first seen on row 4" },
    ]);
    expect(await rowCount()).toBe(1200);
  });

  it("writes nothing when the database refuses a write, and says why", async () => {
    await handle.db.execute(
      sql.raw(`create function refuse_fail_rows() returns trigger language plpgsql as $$
        begin
          if new.place_id like 'ChIJfail%' then raise exception 'refused by test trigger'; end if;
          return new;
        end $$`),
    );
    await handle.db.execute(
      sql.raw(
        "create trigger refuse_fail_rows before insert on locations for each row execute function refuse_fail_rows()",
      ),
    );
    try {
      const records = numberRecords([
        twin("ChIJfine-0001", "Fine One"),
        twin("ChIJfine-0002", "Fine Two"),
        twin("ChIJfail-0003", "Fails"),
      ]);
      const error = await importLocations(handle.db, records, { chunkSize: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImportDatabaseError);
      expect((error as Error).message).toMatch(
        /^the database write failed, so nothing was written: .*refused by test trigger/,
      );
      expect(await rowCount()).toBe(0);
    } finally {
      await handle.db.execute(sql.raw("drop trigger refuse_fail_rows on locations"));
      await handle.db.execute(sql.raw("drop function refuse_fail_rows()"));
    }
  });

  it("writes nothing when the file breaks off after rows were written", async () => {
    const file = path.join(tmp, "breaks-off.csv");
    fs.writeFileSync(
      file,
      'place_id,name\nChIJearly-0001,Early One\nChIJearly-0002,Early Two\nChIJearly-0003,"never closed\n',
    );
    await expect(importFile(handle.db, file, { chunkSize: 1 })).rejects.toThrow(ImportFileError);
    expect(await rowCount()).toBe(0);
  });
});
