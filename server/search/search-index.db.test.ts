import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locations, type NewLocationRow } from "../db/schema";
import { INSTANCE_ID, LOCATIONS_CHANNEL } from "./channel";
import { listenForLocationChanges } from "./listener";
import { buildSearchIndex } from "./load";
import { notifyLocationsChanged } from "./notify";
import { getSearchIndex, refreshSearchIndex, setSearchIndex } from "./refresh";
import { createSearchIndex } from "./search-index";
import { searchRowFromLocation } from "./source-row";
import { AUSTIN, austinQuery, demoRowsAround, townAt } from "./test-support";

const query = austinQuery;

let handle: DatabaseHandle;
let rows: NewLocationRow[];

function extraRow(id: string, overrides: Partial<NewLocationRow> = {}): NewLocationRow {
  const [row] = demoRowsAround([townAt(AUSTIN.lat, AUSTIN.lng, "Austin")], 1, id.length * 7919);
  return { ...row!, placeId: id, slug: `extra-${id.toLowerCase()}`, ...overrides };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  rows = demoRowsAround([townAt(AUSTIN.lat, AUSTIN.lng, "Austin"), townAt(32.7767, -96.797, "Dallas")], 400, 99);
  // The shapes the loader must get right: missing points, blank text amenities, odd sizes.
  Object.assign(rows[0]!, { latitude: null, longitude: null });
  Object.assign(rows[1]!, { parkingOptions: "   ", paymentOptions: "\t", accessibilityOptions: "Ramp" });
  Object.assign(rows[2]!, { dimensions: [], imageUrls: [], rating: null, userRatingsTotal: 0 });
  Object.assign(rows[3]!, { address: null, shortFormattedAddress: "1 Short St, Austin" });
  for (let i = 0; i < rows.length; i += 100) await handle.db.insert(locations).values(rows.slice(i, i + 100));
});

afterAll(async () => {
  setSearchIndex(undefined);
  await handle?.close();
});

describe("building the index from the database", () => {
  it("reads the same index as the rows it was given", async () => {
    const fromDb = await buildSearchIndex(handle.db);
    const fromRows = createSearchIndex(rows.map(searchRowFromLocation));
    expect(fromDb.source).toBe("database");
    expect(fromDb.size).toBe(rows.length - 1);
    expect(fromDb.skipped).toBe(1);
    const queries = [
      query(),
      query({ sort: "rating", page: 2, pageSize: 7 }),
      query({ sizes: ["10x20", "12x30"], amenities: ["has_covered_parking", "has_uncovered_parking", "dump_station"] }),
      query({ q: "short st", radius: 500 }),
      query({ lat: 32.7767, lng: -96.797, radius: 30, amenities: ["has_climate_controlled"] }),
      // My RV and prices: the owners' size_offers and covered_clearance_feet as the loader reads them.
      query({ rv: { lengthFeet: 40, heightFeet: 13.5 }, amenities: ["has_covered_parking"], sort: "price" }),
      query({ rv: { lengthFeet: 35 }, maxPrice: 150, sort: "price", pageSize: 20 }),
    ];
    for (const q of queries) expect(fromDb.query(q)).toEqual(fromRows.query(q));
  });

  it("shows a write after notifyLocationsChanged", async () => {
    await refreshSearchIndex(handle.db);
    const before = getSearchIndex().query(query({ pageSize: 0 })).total;
    await handle.db.insert(locations).values(extraRow("EXTRA_LOCAL_0001"));
    expect(getSearchIndex().query(query({ pageSize: 0 })).total).toBe(before);
    await notifyLocationsChanged(handle.db);
    expect(getSearchIndex().query(query({ pageSize: 0 })).total).toBe(before + 1);
  });
});

/** The URL of the test's own database on the TEST_DATABASE_URL server. */
async function testDatabaseUrl(): Promise<string> {
  const result = (await handle.db.execute(sql`select current_database() as name`)) as { rows: { name: string }[] };
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${result.rows[0]!.name}`;
  return url.toString();
}

async function eventually(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("cross-instance refresh on PostgreSQL", () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "rebuilds after another instance's NOTIFY, ignores its own, and survives a dropped connection",
    async () => {
      const url = await testDatabaseUrl();
      let changes = 0;
      // What the listener heard and did, in order: "ignored" and "heard" notifications, "rebuilt".
      const events: string[] = [];
      const listener = listenForLocationChanges({
        connectionString: url,
        onChange: async () => {
          changes++;
          await refreshSearchIndex(handle.db);
          events.push("rebuilt");
        },
        onNotification: ({ ignored }) => events.push(ignored ? "ignored" : "heard"),
        ignorePayload: INSTANCE_ID,
        debounceMs: 50,
        retryMinMs: 50,
      });
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        await listener.ready;
        await refreshSearchIndex(handle.db);
        const found = (id: string) =>
          getSearchIndex()
            .query(query({ radius: 500 }))
            .items.some((item) => item.id === id);

        // This process's own notification: the writer already rebuilt, so the listener ignores it.
        await other.query("select pg_notify($1, $2)", [LOCATIONS_CHANNEL, INSTANCE_ID]);
        await eventually(() => events.length > 0);
        expect(events).toEqual(["ignored"]);
        expect(changes).toBe(0);

        // Another instance writes and notifies (twice in a row: one debounced rebuild). Once a
        // rebuild has followed the second notification, no timer is left to rebuild again.
        await handle.db.insert(locations).values(extraRow("EXTRA_REMOTE_001"));
        expect(found("EXTRA_REMOTE_001")).toBe(false);
        await other.query(`NOTIFY ${LOCATIONS_CHANNEL}, 'another-instance'`);
        await other.query(`NOTIFY ${LOCATIONS_CHANNEL}, 'another-instance'`);
        await eventually(() => events.filter((e) => e === "heard").length === 2 && events.at(-1) === "rebuilt");
        expect(found("EXTRA_REMOTE_001")).toBe(true);
        expect(events).toEqual(["ignored", "heard", "heard", "rebuilt"]);
        expect(changes).toBe(1);

        // The listening connection is killed: it reconnects and rebuilds (notifications may be lost).
        await other.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'",
        );
        await eventually(() => changes === 2 && listener.listening);
        await handle.db.insert(locations).values(extraRow("EXTRA_REMOTE_002"));
        await other.query(`NOTIFY ${LOCATIONS_CHANNEL}`);
        await eventually(() => found("EXTRA_REMOTE_002"));
      } finally {
        await other.end();
        await listener.stop();
      }
    },
  );
});
