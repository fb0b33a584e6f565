import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Route } from "./+types/rv-storage";
import { loader } from "./rv-storage";
import { createTestDatabase } from "../../tests/setup/db";
import { searchDemandPlaces, searchDemandTotals } from "../../server/analytics/admin-report";
import { rebuildAnalyticsRollups } from "../../server/analytics/rollups";
import type { DatabaseHandle } from "../../server/db/client";
import { requestContext } from "../../server/http/request-context";
import {
  SearchDemandRecorder,
  isCountedSearch,
  noneWithin100,
  startSearchDemand,
  stopSearchDemand,
} from "../../server/search/demand";
import { createSearchIndex, searchRowFromLocation, setSearchIndex } from "../../server/search/index";
import { demoRowsAround, townAt } from "../../server/search/test-support";

/**
 * Search demand (docs/product.md section 10, "Platform analytics"): the results page counts each
 * search a person makes in memory, and the recorder adds the counts to `search_demand_daily` in
 * one upsert; the roll-up triggers add them to the monthly and platform tables. Nothing but the
 * place, counts and the day is written.
 */

const HUMAN = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
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

/** A GET of the results page by the loader, as a browser (or `agent`) would send it. */
async function search(path: string, headers: Record<string, string> = {}): Promise<number> {
  const url = new URL(`http://localhost${path}`);
  const slug = url.pathname.split("/")[2];
  const args: Route.LoaderArgs = {
    request: new Request(url, { headers: { "user-agent": HUMAN, ...headers } }),
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
    expect(await search("/rv-storage/austin-tx")).toBe(200);
    expect(await search("/rv-storage/austin-tx")).toBe(200);
    // A filter nobody offers: no result, but listings are near.
    expect(await search("/rv-storage/austin-tx?size=20x40&amenity=dump_station&amenity=rv_washbay&q=zzzz")).toBe(200);
    expect(await search("/rv-storage/portland-me")).toBe(200);
    expect(await search("/rv-storage/me")).toBe(200);
    // A point search counts under its nearest town; typed text nobody knows, without the text.
    expect(await search(`/rv-storage?lat=${AUSTIN.lat}&lng=${AUSTIN.lng}`)).toBe(200);
    expect(await search("/rv-storage?where=Qwxzv%20Private%20Street%201")).toBe(404);
    expect(await search("/rv-storage/nowhere-zz")).toBe(404);
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

  it("does not count crawlers, prefetches, later pages, or re-sorting and filtering the same place", async () => {
    const recorder = startSearchDemand(db(), 60_000);
    await search("/rv-storage/austin-tx", { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    await search("/rv-storage/austin-tx", { "sec-purpose": "prefetch" });
    await search("/rv-storage/austin-tx?page=2");
    await search("/rv-storage/austin-tx.data?sort=rating", { referer: "http://localhost/rv-storage/austin-tx" });
    await search("/rv-storage/austin-tx?size=10x20", { referer: "http://localhost/rv-storage/austin-tx?sort=rating" });
    expect(recorder.pending).toBe(0);
    // Coming from another place, or from another site, is a search.
    await search("/rv-storage/austin-tx", { referer: "http://localhost/rv-storage/dallas-tx" });
    await search("/rv-storage/austin-tx", { referer: "https://www.google.com/" });
    await recorder.flush();
    expect((await demandRows()).map((r) => [r.place_key, r.searches])).toEqual([["austin-tx", 2]]);
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

  it("counts only a person's GET that arrives at a place", () => {
    const request = (headers: Record<string, string>, url = "http://localhost/rv-storage/austin-tx", method = "GET") =>
      new Request(url, { method, headers });
    expect(isCountedSearch(request({ "user-agent": HUMAN }))).toBe(true);
    expect(isCountedSearch(request({}))).toBe(false);
    expect(isCountedSearch(request({ "user-agent": HUMAN }, undefined, "HEAD"))).toBe(false);
    expect(isCountedSearch(request({ "user-agent": HUMAN, purpose: "prefetch" }))).toBe(false);
    const point = "http://localhost/rv-storage?lat=30.2&lng=-97.7";
    expect(isCountedSearch(request({ "user-agent": HUMAN, referer: `${point}&sort=rating` }, `${point}&page=1`))).toBe(
      false,
    );
    expect(
      isCountedSearch(request({ "user-agent": HUMAN, referer: "http://localhost/rv-storage?lat=40&lng=-90" }, point)),
    ).toBe(true);
    expect(isCountedSearch(request({ "user-agent": HUMAN, referer: "not a url" }))).toBe(true);
  });
});
