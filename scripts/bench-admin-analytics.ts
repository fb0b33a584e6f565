/**
 * npm run bench:admin-analytics: how long the admin analytics screen's heavy queries take on a year
 * of data (docs/product.md section 10, "Platform analytics"; docs/operations.md, "Benchmarks").
 *
 * Seeds a fresh in-memory PGlite (and, when TEST_DATABASE_URL is set, a scratch database created
 * on that PostgreSQL server and dropped afterwards) with BENCH_LISTINGS (3,000) listings and a
 * daily counter row for every listing on every one of the last 365 days (the roll-up triggers of
 * ADR 017 fill the monthly and platform tables as the rows go in), a year of traffic sources,
 * 90 days of analytics sessions (BENCH_SESSIONS_PER_DAY, 4,000, from a pool of returning
 * visitors) and a year of search demand (BENCH_PLACES_PER_DAY, 1,500 places a day). Then it
 * runs each query of server/analytics/admin-report.ts three times and prints the median, and the
 * whole screen's report the same way. Figures only, never pass or fail.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import {
  listingTotals,
  platformDays,
  platformTrend,
  recentSessions,
  searchDemandPlaces,
  searchDemandTotals,
  stateTotals,
  topListings,
  trafficSources,
  visitorCount,
  visitorsPerDay,
} from "../server/analytics/admin-report";
import { countVisitorDays } from "../server/analytics/rollups";
import { buildAdminReport } from "../server/analytics/admin-pages";
import { openDatabase, type DatabaseHandle } from "../server/db/client";
import { STATES } from "../server/geo/states";

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 3_000);
const SESSIONS_PER_DAY = Number(process.env.BENCH_SESSIONS_PER_DAY ?? 4_000);
const PLACES_PER_DAY = Number(process.env.BENCH_PLACES_PER_DAY ?? 1_500);
const DAYS = 365;
const RUNS = 3;

const today = new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

const exec = (db: DatabaseHandle["db"], text: string) => db.execute(sql.raw(text));

async function seed(handle: DatabaseHandle): Promise<void> {
  const db = handle.db;
  const states = STATES.map((s) => `'${s.code}'`).join(",");
  await exec(
    db,
    `insert into locations (place_id, slug, name, state, city, latitude, longitude)
     select 'bench-' || i, 'bench-storage-' || i, 'Bench RV Storage ' || i, (array[${states}])[1 + i % ${STATES.length}],
       'Town ' || (i % 500), 25 + (i % 20), -120 + (i % 45)
     from generate_series(1, ${LISTINGS}) i`,
  );
  // A month of daily rows per statement: the roll-up triggers see each statement's rows at once.
  for (let start = DAYS - 1; start >= 0; start -= 31) {
    const end = Math.max(0, start - 30);
    await exec(
      db,
      `insert into location_metrics_daily (location_id, date, page_views, list_views, website_clicks, contact_clicks,
         directions_clicks, unique_visitors, unique_list_viewers)
       select 'bench-' || i, d::date, v, v * 4 + (i % 7), (v > 3)::int, (v > 5)::int, (v > 4)::int, greatest(0, v - 1), v * 3
       from generate_series(1, ${LISTINGS}) i,
         generate_series('${daysAgo(start)}'::date, '${daysAgo(end)}'::date, interval '1 day') d,
         lateral (select ((i * 7 + extract(doy from d)::int * 13) % 11)::int as v) x`,
    );
  }
  await exec(
    db,
    `insert into traffic_sources_daily (date, source, shard, page_views)
     select d::date, s, sh, 50 + (sh * 7 + length(s) * 13) % 90
     from generate_series('${daysAgo(DAYS - 1)}'::date, '${today}'::date, interval '1 day') d,
       unnest(array['google','facebook','twitter','instagram','linkedin','youtube','bing','yahoo','internal','direct','other']) s,
       generate_series(0, 7) sh`,
  );
  // 90 days of visits by a pool of returning visitors (a third of a day's visits are new).
  for (let start = 89; start >= 0; start -= 15) {
    const end = Math.max(0, start - 14);
    await exec(
      db,
      `insert into analytics_sessions (auth_session_id, session_id, user_id, start_time, last_activity, page_views,
         is_new_session, location_id)
       select 'visitor-' || ((n * 7919 + extract(doy from d)::int * 104729) % ${SESSIONS_PER_DAY * 30}),
         'session-' || extract(doy from d)::int || '-' || n, null,
         d + (n % 86000) * interval '1 second', d + (n % 86000 + 60 + n % 900) * interval '1 second', 1 + n % 6,
         n % 3 = 0, 'bench-' || (1 + n % ${LISTINGS})
       from generate_series('${daysAgo(start)}'::date, '${daysAgo(end)}'::date, interval '1 day') d,
         generate_series(1, ${SESSIONS_PER_DAY}) n
       on conflict do nothing`,
    );
  }
  // Each day 1,500 places out of 6,000 (a long tail: the monthly roll-up holds more places than a day).
  for (let start = DAYS - 1; start >= 0; start -= 31) {
    const end = Math.max(0, start - 30);
    await exec(
      db,
      `insert into search_demand_daily (date, place_key, place_label, state, searches, results, empty_searches, none_within_100)
       select d::date, 'town-' || p || '-' || lower(st), 'Town ' || p || ', ' || st, st, s, s * (p % 40),
         (p % 9 = 0)::int * s, (p % 40 = 0)::int * s
       from generate_series('${daysAgo(start)}'::date, '${daysAgo(end)}'::date, interval '1 day') d,
         generate_series(1, ${PLACES_PER_DAY}) n,
         lateral (select 1 + (n * 4 + extract(doy from d)::int * 997) % ${PLACES_PER_DAY * 4} as p) y,
         lateral (select (array[${states}])[1 + p % ${STATES.length}] as st, 1 + (p * 31 + extract(doy from d)::int) % 5 as s) x
       on conflict do nothing`,
    );
  }
  // What the daily job does: count the visitors of every settled day the sessions cover.
  await countVisitorDays(db);
  await exec(db, "analyze");
}

async function time(label: string, run: () => Promise<unknown>): Promise<void> {
  const ms: number[] = [];
  let result: unknown;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    result = await run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  const size = Array.isArray(result) ? `${result.length} rows` : result instanceof Map ? `${result.size} rows` : "";
  console.log(
    `  ${label.padEnd(54)} ${ms[Math.floor(RUNS / 2)]!.toFixed(1).padStart(8)} ms  (${ms.map((m) => m.toFixed(0)).join(", ")}) ${size}`,
  );
}

async function bench(name: string, handle: DatabaseHandle): Promise<void> {
  const started = performance.now();
  await seed(handle);
  const db = handle.db;
  const count = async (table: string) =>
    Number(
      ((await exec(db, `select count(*)::int as n from ${table}`)) as unknown as { rows: { n: number }[] }).rows[0]!.n,
    );
  console.log(
    `\n${name}: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s: ${LISTINGS} listings, ` +
      `${await count("location_metrics_daily")} daily rows, ${await count("location_metrics_monthly")} monthly, ` +
      `${await count("analytics_sessions")} sessions, ${await count("search_demand_daily")} search demand rows ` +
      `(${await count("search_demand_monthly")} monthly)`,
  );
  const year = { from: daysAgo(DAYS - 1), to: today, days: DAYS };
  const month = { from: daysAgo(29), to: today, days: 30 };
  // The most daily rows at the ends: from the 2nd of the seeded year's first whole month to the
  // day before the end of its last whole month (two 30-day ends).
  const start = new Date(`${daysAgo(DAYS - 1)}T00:00:00Z`);
  const ragged = {
    from: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 2)).toISOString().slice(0, 10),
    to: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 12, -1)).toISOString().slice(0, 10),
  };
  await time("platform days, 2 years (a year and the one before)", () => platformDays(db, daysAgo(729), today));
  await time("listing totals, 365 days", () => listingTotals(db, year.from, year.to));
  await time(`listing totals, ${ragged.from} to ${ragged.to}`, () => listingTotals(db, ragged.from, ragged.to));
  await time("listing totals, 30 days", () => listingTotals(db, month.from, month.to));
  await time("top 10 and states from the listing totals, 365 days", async () => {
    const rows = await listingTotals(db, year.from, year.to);
    return [topListings(rows, "pageViews", 10), stateTotals(rows)];
  });
  await time("visitors, 365 days (90 kept)", () => visitorCount(db, year.from, year.to));
  await time("visitors, 30 days", () => visitorCount(db, month.from, month.to));
  await time("visitors per day, 365 days", () => visitorsPerDay(db, year.from, year.to));
  await time("traffic sources, 365 days", () => trafficSources(db, year.from, year.to));
  await time("recent sessions (20)", () => recentSessions(db, year.from, year.to));
  await time("search demand totals, 365 days", () => searchDemandTotals(db, year.from, year.to));
  await time("most searched places, 365 days", () => searchDemandPlaces(db, year.from, year.to, "searches"));
  await time("places with nothing within 100 miles, 365 days", () =>
    searchDemandPlaces(db, year.from, year.to, "gaps"),
  );
  await time("most searched places, 30 days", () => searchDemandPlaces(db, month.from, month.to, "searches"));
  await time("platform trend (totals, days, comparison), 365 days", () => platformTrend(db, year));
  await time("the whole screen's report, 365 days", () => buildAdminReport(db, year, "pageViews"));
  await time("the whole screen's report, 30 days", () => buildAdminReport(db, month, "pageViews"));
}

async function main(): Promise<void> {
  console.log(`Admin analytics queries, median of ${RUNS} runs (ms), ${LISTINGS} listings over ${DAYS} days`);
  const lite = await openDatabase({ kind: "pglite-memory" });
  try {
    await lite.migrate();
    await bench("PGlite (in memory)", lite);
  } finally {
    await lite.close();
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    console.log("\n(set TEST_DATABASE_URL to measure PostgreSQL too)");
    return;
  }
  const dbName = `rvbench_admin_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  const handle = await openDatabase({ kind: "postgres", url: url.toString(), max: 2 });
  try {
    await handle.migrate();
    await bench("PostgreSQL", handle);
  } finally {
    await handle.close();
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await dropper.end();
  }
}

await main();
