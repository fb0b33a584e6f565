import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Route } from "./+types/rv-storage";
import { loader } from "./rv-storage";
import type { ValidatedAnalyticsEvent } from "../../domain/analytics-events";
import { createTestDatabase } from "../../tests/setup/db";
import { searchDemandPlaces, searchDemandTotals } from "../../server/analytics/admin-report";
import { ingestEvents, type IngestResult } from "../../server/analytics/ingest";
import { rebuildAnalyticsRollups } from "../../server/analytics/rollups";
import type { DatabaseHandle } from "../../server/db/client";
import { requestContext } from "../../server/http/request-context";
import {
  SearchDemandRecorder,
  noneWithin100,
  searchOfPageView,
  startSearchDemand,
  stopSearchDemand,
} from "../../server/search/demand";
import { createSearchIndex, searchRowFromLocation, setSearchIndex } from "../../server/search/index";
import { demoRowsAround, townAt } from "../../server/search/test-support";

/**
 * Search demand (docs/product.md section 10, "Platform analytics"): the analytics endpoint counts
 * each search a person's page views show, in memory, and the recorder adds the counts to
 * `search_demand_daily` in one upsert; the roll-up triggers add them to the monthly and platform
 * tables. Nothing but the place, counts and the day is written. The results page's loader counts
 * nothing: a page a shared cache answers is never rendered.
 */

const SITE = "http://localhost";
const AUSTIN = { lat: 30.2672, lng: -97.7431 };

let handle: DatabaseHandle;
const db = () => handle.db;

beforeAll(async () => {
  handle = await createTestDatabase();
  // 40 listings around Austin, none anywhere near Maine.
  setSearchIndex(
    createSearchIndex(demoRowsAround([townAt(AUSTIN.lat, AUSTIN.lng, "Austin")], 40, 3).map(searchRowFromLocation)),
  );
});

afterAll(async () => {
  setSearchIndex(undefined);
  await stopSearchDemand();
  await handle?.close();
});

afterEach(async () => {
  await stopSearchDemand();
  await db().execute(sql`truncate search_demand_daily, search_demand_monthly, platform_searches_daily`);
});

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
async function demandRows() {
  return rowsOf<Record<string, unknown>>(
    await db().execute(
      sql`select date::text as date, place_key, place_label, state, searches::int, results::int, empty_searches::int,
        none_within_100::int from search_demand_daily order by place_key`,
    ),
  );
}

let seq = 0;
/**
 * A page view of `path` as the browser's tracker sends it to the analytics endpoint (the real
 * ingestion, so only new events count).
 */
async function view(path: string, over: Partial<ValidatedAnalyticsEvent> = {}): Promise<IngestResult> {
  seq++;
  const event: ValidatedAnalyticsEvent = {
    eventId: `demand-${seq}`,
    eventType: "page_view",
    timestamp: new Date().toISOString(),
    sessionId: "visit-1",
    url: `${SITE}${path}`,
    ...over,
  };
  return ingestEvents(db(), [event], {
    authSessionId: `auth-${seq}`,
    userId: null,
    siteOrigin: SITE,
    clientIp: `address-${seq}`,
  });
}

/** The results page's loader, as a browser's GET reaches it. */
async function render(path: string): Promise<number> {
  const url = new URL(`${SITE}${path}`);
  const slug = url.pathname.split("/")[2];
  const args: Route.LoaderArgs = {
    request: new Request(url),
    url,
    pattern: "/rv-storage/:slug?",
    params: slug === undefined ? {} : { slug: decodeURIComponent(slug) },
    context: requestContext({ requestId: "test", nonce: "test" }),
  };
  try {
    const result = (await loader(args)) as { init?: { status?: number } };
    return result.init?.status ?? 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe(`search demand (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("counts each search by place, with its results, empty searches and places with nothing within 100 miles", async () => {
    const recorder = startSearchDemand(db(), 60_000);
    await view("/rv-storage/austin-tx");
    await view("/rv-storage/austin-tx");
    // A filter nobody offers: no result, but listings are near.
    await view("/rv-storage/austin-tx?size=20x40&amenity=dump_station&amenity=rv_washbay&q=zzzz");
    await view("/rv-storage/portland-me");
    await view("/rv-storage/me");
    // A point search counts under its nearest town; typed text nobody knows, without the text.
    await view(`/rv-storage?lat=${AUSTIN.lat}&lng=${AUSTIN.lng}`);
    await view("/rv-storage?where=Qwxzv%20Private%20Street%201");
    await view("/rv-storage/nowhere-zz");
    expect(recorder.pending).toBeGreaterThan(0);
    // Nothing is written until the flush.
    expect(await demandRows()).toEqual([]);
    await recorder.flush();

    const today = new Date().toISOString().slice(0, 10);
    const rows = await demandRows();
    const austin = rows.find((r) => r.place_key === "austin-tx")!;
    expect(austin).toMatchObject({ date: today, place_label: "Austin, Texas", state: "TX", searches: 4 });
    expect(austin.empty_searches).toBe(1);
    expect(austin.none_within_100).toBe(0);
    expect(Number(austin.results)).toBeGreaterThan(30);
    expect(rows.find((r) => r.place_key === "portland-me")).toMatchObject({
      place_label: "Portland, Maine",
      state: "ME",
      searches: 1,
      results: 0,
      empty_searches: 1,
      none_within_100: 1,
    });
    expect(rows.find((r) => r.place_key === "me")).toMatchObject({ place_label: "Maine", none_within_100: 1 });
    expect(rows.find((r) => r.place_key === "?")).toMatchObject({
      place_label: "Place not found",
      state: null,
      searches: 2,
      none_within_100: 0,
    });
    // No typed text anywhere.
    expect(JSON.stringify(rows)).not.toMatch(/qwxzv|private|nowhere/i);

    // The roll-ups and the report read the same.
    const totals = await searchDemandTotals(db(), today, today);
    expect(totals).toEqual({ searches: 8, emptySearches: 5, noneWithin100: 2, places: 4 });
    const gaps = await searchDemandPlaces(db(), today, today, "gaps");
    expect(gaps.map((g) => g.placeKey)).toEqual(["me", "portland-me"]);
    const top = await searchDemandPlaces(db(), today, today, "searches");
    expect(top[0]).toMatchObject({ placeKey: "austin-tx", searches: 4, emptySearches: 1 });
    expect(top[0]!.averageResults).toBeCloseTo(Number(austin.results) / 4, 2);
  });

  it("counts every visitor's view of the same page, however it was served, and not the page's rendering", async () => {
    const recorder = startSearchDemand(db(), 60_000);
    // The loader runs for the first visitor only; a shared cache answers the others.
    expect(await render("/rv-storage/austin-tx")).toBe(200);
    expect(await render("/rv-storage/nowhere-zz")).toBe(404);
    expect(recorder.pending).toBe(0);
    for (let visitor = 0; visitor < 3; visitor++)
      await view("/rv-storage/austin-tx", { sessionId: `visit-${visitor}` });
    // A batch sent again (a retry) is stored once and counted once.
    expect((await view("/rv-storage/austin-tx", { eventId: "demand-retried" })).stored).toBe(1);
    expect((await view("/rv-storage/austin-tx", { eventId: "demand-retried" })).duplicates).toBe(1);
    await recorder.flush();
    expect((await demandRows()).map((r) => [r.place_key, r.searches])).toEqual([["austin-tx", 4]]);
  });

  it("does not count other pages, later pages, bad addresses, or re-sorting and filtering the same place", async () => {
    const recorder = startSearchDemand(db(), 60_000);
    await view("/location/some-listing");
    await view("/rv-storage");
    await view("/rv-storage/austin-tx/more");
    await view("/rv-storage/austin-tx?page=2");
    await view("/rv-storage/austin-tx?size=99x99");
    await view(`/rv-storage?where=${"x".repeat(300)}`);
    // Typed text that names a place sends the browser on, and the view there counts.
    await view("/rv-storage?where=Austin%2C%20TX");
    await view("/rv-storage/austin-tx?sort=rating", { referrer: `${SITE}/rv-storage/austin-tx` });
    await view("/rv-storage/austin-tx?size=10x20", { referrer: `${SITE}/rv-storage/austin-tx?sort=rating` });
    await view("/rv-storage?lat=30.2&lng=-97.7&sort=rating", { referrer: `${SITE}/rv-storage?lat=30.2&lng=-97.7` });
    // Under Do-Not-Track the tracker says only that the page before had the same path.
    await view("/rv-storage/austin-tx", { trafficSource: "internal", samePath: true });
    expect(recorder.pending).toBe(0);
    // Coming from another place, from another site, or from somewhere unknown, is a search.
    await view("/rv-storage/austin-tx", { referrer: `${SITE}/rv-storage/dallas-tx` });
    await view("/rv-storage/austin-tx", { referrer: "https://www.google.com/" });
    await view("/rv-storage/austin-tx", { referrer: "not an address" });
    await view("/rv-storage/austin-tx", { trafficSource: "internal" });
    // The browser may know the site by another name than the one it is configured with.
    await view("/rv-storage/austin-tx", { url: "http://127.0.0.1:3000/rv-storage/austin-tx" });
    await recorder.flush();
    expect((await demandRows()).map((r) => [r.place_key, r.searches])).toEqual([["austin-tx", 5]]);
  });

  it("adds a later flush to the same row, keeps counts when a write fails, and writes what is left at shutdown", async () => {
    const recorder = new SearchDemandRecorder(db());
    const place = { slug: "austin-tx", label: "Austin, Texas", state: "TX" };
    recorder.record({ place, results: 10, noneWithin100: false });
    await recorder.flush();
    recorder.record({ place, results: 0, noneWithin100: false });
    recorder.record({
      place: { ...place, slug: "bend-or", label: "Bend, Oregon", state: "OR" },
      results: 0,
      noneWithin100: true,
    });
    await recorder.flush();
    expect(
      (await demandRows()).map((r) => [r.place_key, r.searches, r.results, r.empty_searches, r.none_within_100]),
    ).toEqual([
      ["austin-tx", 2, 10, 1, 0],
      ["bend-or", 1, 0, 1, 1],
    ]);

    // A database that refuses the write: the counts wait for the next flush.
    const failing = new SearchDemandRecorder({
      execute: () => Promise.reject(new Error("connection lost")),
    } as unknown as DatabaseHandle["db"]);
    failing.record({ place, results: 3, noneWithin100: false });
    await failing.flush();
    expect(failing.pending).toBe(1);

    const late = startSearchDemand(db(), 60_000);
    late.record({ place, results: 5, noneWithin100: false });
    await stopSearchDemand();
    expect((await demandRows()).find((r) => r.place_key === "austin-tx")).toMatchObject({ searches: 3, results: 15 });
  });

  it("keeps the monthly and platform roll-ups equal to a rebuild from the daily rows", async () => {
    const recorder = new SearchDemandRecorder(db());
    const place = { slug: "austin-tx", label: "Austin, Texas", state: "TX" };
    recorder.record({ place, results: 7, noneWithin100: false }, new Date("2025-01-31T23:00:00Z"));
    recorder.record({ place, results: 0, noneWithin100: true }, new Date("2025-02-01T01:00:00Z"));
    await recorder.flush();
    recorder.record({ place, results: 2, noneWithin100: false }, new Date("2025-02-01T02:00:00Z"));
    await recorder.flush();
    const snapshot = async () => ({
      monthly: rowsOf(
        await db().execute(
          sql`select month::text, place_key, searches::int, results::int, empty_searches::int, none_within_100::int
            from search_demand_monthly order by 1, 2`,
        ),
      ),
      platform: rowsOf(
        await db().execute(
          sql`select date::text, searches::int, results::int, empty_searches::int, none_within_100::int
            from platform_searches_daily order by 1`,
        ),
      ),
    });
    const incremental = await snapshot();
    expect(incremental.monthly).toEqual([
      { month: "2025-01-01", place_key: "austin-tx", searches: 1, results: 7, empty_searches: 0, none_within_100: 0 },
      { month: "2025-02-01", place_key: "austin-tx", searches: 2, results: 2, empty_searches: 1, none_within_100: 1 },
    ]);
    await rebuildAnalyticsRollups(db());
    expect(await snapshot()).toEqual(incremental);
  });

  it("tells places with nothing within 100 miles, asking the index only when the search cannot tell", () => {
    const austin = { kind: "city", state: "TX", ...AUSTIN };
    const maine = { kind: "city", state: "ME", lat: 43.66, lng: -70.26 };
    expect(noneWithin100(austin, { total: 5, radius: 100, filtered: false })).toBe(false);
    expect(noneWithin100(austin, { total: 0, radius: 100, filtered: true })).toBe(false);
    expect(noneWithin100(austin, { total: 0, radius: 25, filtered: false })).toBe(false);
    expect(noneWithin100(maine, { total: 0, radius: 100, filtered: false })).toBe(true);
    // Within 500 miles there may be listings, and none within 100.
    expect(
      noneWithin100({ kind: "city", state: "OK", lat: 35.47, lng: -97.52 }, { total: 3, radius: 500, filtered: false }),
    ).toBe(true);
    expect(
      noneWithin100({ kind: "state", state: "TX", lat: 31, lng: -99 }, { total: 0, radius: 100, filtered: true }),
    ).toBe(false);
  });

  it("reads a page view's search from its address alone, never from the browser's word", () => {
    const count = searchOfPageView({ url: "/rv-storage/austin-tx?sort=rating" }, SITE);
    expect(count).toMatchObject({ place: { slug: "austin-tx", label: "Austin, Texas", state: "TX" } });
    expect(count!.results).toBeGreaterThan(30);
    expect(searchOfPageView({ url: "/rv-storage/%E0%A4%A" }, SITE)).toBeNull();
    expect(searchOfPageView({ url: "http://[bad" }, SITE)).toBeNull();
    expect(searchOfPageView({ url: `/rv-storage/${"a".repeat(500)}` }, SITE)).toBeNull();
    expect(searchOfPageView({ url: "/rv-storage?lat=10&lng=10" }, SITE)).toMatchObject({ place: { slug: "?" } });
  });
});
