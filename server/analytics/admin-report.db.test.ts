import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { rejection } from "../../tests/setup/rejection";
import type { ValidatedAnalyticsEvent } from "../../domain/analytics-events";
import { insertListing } from "../claims/test-support";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { locationMetricsDaily } from "../db/schema";
import { SearchDemandRecorder } from "../search/demand";
import { formatCsvField as csvField } from "../csv";
import { adminAnalyticsCsv, adminAnalyticsPage } from "./admin-pages";
import {
  listingTotals,
  platformTrend,
  recentSessions,
  stateTotals,
  topListings,
  trafficSources,
  visitorCount,
  visitorsPerDay,
  wholeMonths,
} from "./admin-report";
import { ingestEvents, type Sender } from "./ingest";
import { countVisitorDays, rebuildAnalyticsRollups } from "./rollups";

/**
 * The admin analytics report (docs/product.md section 10, "Platform analytics") over known events
 * and daily rows: the roll-ups the triggers keep equal a rebuild from the daily counters, a
 * listing's totals over any period equal the daily rows added up naively (whole months read from
 * the monthly roll-up), and the screen, its tables and CSVs say the same.
 */

let handle: DatabaseHandle;
const db = () => handle.db;
const now = new Date("2025-07-02T12:00:00Z");
const site = "https://rv.example";
let a: string;
let b: string;
let c: string;

let seq = 0;
const ev = (locationId: string, at: string, over: Partial<ValidatedAnalyticsEvent> = {}): ValidatedAnalyticsEvent => ({
  eventId: `admin-report-${++seq}`,
  eventType: "page_view",
  timestamp: `${at}Z`,
  sessionId: `s-${seq}`,
  url: `${site}/location/x`,
  locationId,
  ...over,
});
const click = (locationId: string, at: string, elementType: ValidatedAnalyticsEvent["elementType"]) =>
  ev(locationId, at, { eventType: "click", elementType });
const sender = (authSessionId: string): Sender => ({
  authSessionId,
  userId: null,
  siteOrigin: site,
  clientIp: `address-of-${authSessionId}`,
});
async function send(auth: string, events: ValidatedAnalyticsEvent[]) {
  const result = await ingestEvents(db(), events, sender(auth), now);
  expect(result.stored).toBe(events.length);
}
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

beforeAll(async () => {
  // The page glue gets the database itself (getDatabase), as the server connects it.
  handle = await connectDatabase(await createTestDatabase());
  a = (await insertListing(db(), { name: "Alpha RV Storage", state: "TX" })).placeId;
  b = (await insertListing(db(), { name: '=HYPERLINK("http://x","Bravo, ""the"" best")', state: "CA" })).placeId;
  c = (await insertListing(db(), { name: "Charlie RV Storage", state: "TX" })).placeId;
  // Across the end of June: A has 3 page views by 2 visitors (Google twice), a list view, 2 clicks.
  await send("auth-1", [
    ev(a, "2025-06-29T10:00:00", { referrer: "https://www.google.com/" }),
    ev(a, "2025-06-30T10:00:00", { referrer: "https://www.google.com/search?q=rv" }),
    ev(a, "2025-06-30T10:01:00", { eventType: "list_view" }),
    click(a, "2025-06-30T10:02:00", "phone"),
  ]);
  await send("auth-2", [ev(a, "2025-07-01T08:00:00"), click(a, "2025-07-01T08:01:00", "directions")]);
  // B: 2 page views from Facebook and a website click on July 2nd; C: list views only.
  await send("auth-3", [
    ev(b, "2025-07-02T09:00:00", { trafficSource: "facebook" }),
    ev(b, "2025-07-02T09:10:00", { trafficSource: "facebook" }),
    click(b, "2025-07-02T09:11:00", "website"),
    ev(c, "2025-07-02T09:12:00", { eventType: "list_view" }),
  ]);
  await send("auth-1", [ev(c, "2025-07-02T10:00:00", { eventType: "list_view" })]);
  // Older days, as the counters left them (their events long pruned): a direct insert goes through
  // the same triggers.
  await db()
    .insert(locationMetricsDaily)
    .values([
      { locationId: a, date: "2025-06-20", pageViews: 2, listViews: 1, uniqueVisitors: 2 },
      { locationId: a, date: "2025-05-31", pageViews: 4, listViews: 10, websiteClicks: 1, uniqueVisitors: 3 },
      { locationId: b, date: "2025-05-01", pageViews: 50, listViews: 9, contactClicks: 5, uniqueVisitors: 40 },
      { locationId: c, date: "2024-12-31", pageViews: 7, listViews: 7, uniqueVisitors: 7 },
      { locationId: c, date: "2025-01-01", pageViews: 1, listViews: 2, uniqueVisitors: 1 },
    ]);
  // An update of an existing day goes through them too.
  await db().execute(sql`update location_metrics_daily set page_views = page_views + 3 where date = '2025-05-01'`);
});
afterAll(async () => {
  await disconnectDatabase();
});

/** The naive reference: daily rows of [from, to] added up per listing. */
async function naiveTotals(from: string, to: string) {
  const rows = rowsOf<Record<string, unknown>>(
    await db().execute(sql`
      select location_id, sum(page_views)::int as page_views, sum(list_views)::int as list_views,
        sum(website_clicks + contact_clicks + directions_clicks)::int as clicks, sum(unique_visitors)::int as unique_visitors
      from location_metrics_daily where date between ${from}::date and ${to}::date group by 1 order by 1`),
  );
  return rows.map((r) => ({
    locationId: String(r.location_id),
    pageViews: Number(r.page_views),
    listViews: Number(r.list_views),
    clicks: Number(r.clicks),
    uniqueVisitors: Number(r.unique_visitors),
  }));
}

describe(`admin analytics report (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("keeps the monthly and platform roll-ups equal to a rebuild from the daily counters", async () => {
    const snapshot = async () => ({
      monthly: rowsOf(
        await db().execute(sql`
          select location_id, month::text, page_views::int, list_views::int, website_clicks::int, contact_clicks::int,
            directions_clicks::int, unique_visitors::int, unique_list_viewers::int
          from location_metrics_monthly order by 1, 2`),
      ),
      platform: rowsOf(
        await db().execute(sql`
          select date::text, sum(page_views)::int as page_views, sum(list_views)::int as list_views,
            sum(website_clicks)::int as w, sum(contact_clicks)::int as c, sum(directions_clicks)::int as d,
            sum(unique_visitors)::int as u, sum(unique_list_viewers)::int as l
          from platform_metrics_daily group by 1 order by 1`),
      ),
    });
    const incremental = await snapshot();
    expect(incremental.monthly).toContainEqual(
      expect.objectContaining({ location_id: b, month: "2025-05-01", page_views: 53, contact_clicks: 5 }),
    );
    expect(incremental.platform).toContainEqual(expect.objectContaining({ date: "2025-07-02", page_views: 2, w: 1 }));
    await rebuildAnalyticsRollups(db(), now);
    expect(await snapshot()).toEqual(incremental);
  });

  it("adds up a listing's period from whole months and the days at either end exactly as the daily rows do", async () => {
    expect(wholeMonths("2025-06-01", "2025-06-30")).toEqual({ start: "2025-06-01", end: "2025-07-01" });
    expect(wholeMonths("2025-05-31", "2025-07-01")).toEqual({ start: "2025-06-01", end: "2025-07-01" });
    expect(wholeMonths("2025-06-02", "2025-07-30")).toBeNull();
    expect(wholeMonths("2024-12-31", "2025-12-30")).toEqual({ start: "2025-01-01", end: "2025-12-01" });
    const days = ["2024-12-31", "2025-01-01", "2025-04-30", "2025-05-01", "2025-05-31", "2025-06-01", "2025-06-20"];
    const ends = ["2025-05-01", "2025-05-31", "2025-06-29", "2025-06-30", "2025-07-01", "2025-07-02"];
    for (const from of days) {
      for (const to of ends) {
        if (from > to) continue;
        const got = (await listingTotals(db(), from, to))
          .map((r) => ({
            locationId: r.locationId,
            pageViews: r.pageViews,
            listViews: r.listViews,
            clicks: r.clicks,
            uniqueVisitors: r.uniqueVisitors,
          }))
          .sort((x, y) => (x.locationId < y.locationId ? -1 : 1));
        expect(got, `${from} to ${to}`).toEqual(await naiveTotals(from, to));
      }
    }
  });

  it("ranks listings by each metric and adds them up by state", async () => {
    const rows = await listingTotals(db(), "2025-06-03", "2025-07-02");
    expect(topListings(rows, "pageViews", 10).map((r) => [r.name, r.pageViews])).toEqual([
      ["Alpha RV Storage", 5],
      [rows.find((r) => r.locationId === b)!.name, 2],
    ]);
    // A tie is broken by page views.
    expect(topListings(rows, "listViews", 2).map((r) => [r.locationId, r.listViews])).toEqual([
      [a, 2],
      [c, 2],
    ]);
    expect(topListings(rows, "clicks", 10).map((r) => [r.locationId, r.clicks])).toEqual([
      [a, 2],
      [b, 1],
    ]);
    // Too few page views to rank by conversion.
    expect(topListings(rows, "conversionRate", 10)).toEqual([]);
    const states = stateTotals(rows);
    expect(states).toHaveLength(51);
    expect(states[0]).toEqual({ state: "TX", name: "Texas", pageViews: 5, listViews: 4, clicks: 2, listings: 2 });
    expect(states.find((s) => s.state === "CA")).toMatchObject({ pageViews: 2, clicks: 1, listings: 1 });
    expect(states.find((s) => s.state === "WY")).toMatchObject({ pageViews: 0, listings: 0 });
  });

  it("counts the platform's days, visitors and the period before", async () => {
    const trend = await platformTrend(db(), { from: "2025-06-03", to: "2025-07-02", days: 30 }, now);
    expect(trend.totals).toMatchObject({
      pageViews: 7,
      listViews: 4,
      websiteClicks: 1,
      phoneClicks: 1,
      directionsClicks: 1,
      clicks: 3,
      conversionRate: 42.86,
      visitors: 3,
    });
    expect(trend.previous).toEqual({ from: "2025-05-04", to: "2025-06-02" });
    expect(trend.previousTotals).toMatchObject({ pageViews: 4, listViews: 10, clicks: 1 });
    expect(trend.growth).toMatchObject({ pageViews: 75, clicks: 200 });
    // The sessions of the period before are kept, and there were none.
    expect(trend.visitorsCompared).toBe(true);
    expect(trend.growth.visitors).toBeNull();
    expect(trend.daily).toHaveLength(30);
    expect(trend.daily.at(-1)).toMatchObject({ date: "2025-07-02", pageViews: 2, listViews: 2, visitors: 2 });
    expect(trend.daily.find((d) => d.date === "2025-06-20")).toMatchObject({ pageViews: 2, visitors: 0 });
    expect(trend.visitorsFrom).toBeNull();
    // A year back starts before the sessions kept: visitors counted from the 90th day back only.
    const year = await platformTrend(db(), { from: "2024-07-03", to: "2025-07-02", days: 365 }, now);
    expect(year.visitorsFrom).toBe("2025-04-03");
    expect(year.visitorsCompared).toBe(false);
    expect(year.totals.pageViews).toBe(5 + 2 + 4 + 53 + 7 + 1);
  });

  it("counts visitors per day from the settled days the job counted and live after them", async () => {
    const live = await visitorsPerDay(db(), "2025-06-25", "2025-07-02");
    expect([...live.entries()].sort()).toEqual([
      ["2025-06-29", 1],
      ["2025-06-30", 1],
      ["2025-07-01", 1],
      ["2025-07-02", 2],
    ]);
    // Ten days on, the job counts those days; the same numbers come from the roll-up.
    const later = new Date("2025-07-12T12:00:00Z");
    expect(await countVisitorDays(db(), later)).toBe(4);
    expect(await countVisitorDays(db(), later)).toBe(0);
    const rows = rowsOf(
      await db().execute(sql`select date::text, visitors::int from platform_visitors_daily order by 1`),
    );
    expect(rows).toHaveLength(4);
    expect(await visitorsPerDay(db(), "2025-06-25", "2025-07-02")).toEqual(live);
    expect(await visitorCount(db(), "2025-06-29", "2025-06-30")).toBe(1);
    expect(await visitorCount(db(), "2025-06-25", "2025-07-02")).toBe(3);
  });

  it("reads traffic sources by the day they were counted, and recent sessions without personal data", async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(await trafficSources(db(), today, today)).toEqual([
      { source: "facebook", pageViews: 2 },
      { source: "google", pageViews: 2 },
      { source: "direct", pageViews: 1 },
    ]);
    const sessions = await recentSessions(db(), "2025-06-03", "2025-07-02", 3);
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toEqual({
      startTime: "2025-07-02T10:00:00.000Z",
      lastActivity: "2025-07-02T10:00:00.000Z",
      duration: 0,
      pageViews: 0,
      isNewVisitor: false,
      signedIn: false,
      listing: { name: "Charlie RV Storage", slug: expect.stringMatching(/^test-rv-storage-/) },
    });
    expect(Object.keys(sessions[0]!)).not.toContain("userId");
  });

  it("answers the screen, and names a bad period or metric on the page with 400", async () => {
    const page = (query: string) => adminAnalyticsPage(new Request(`http://localhost/admin/analytics${query}`), now);
    const ok = await page("?days=365&top=clicks");
    expect(ok.status).toBe(200);
    if (!ok.data.ok) throw new Error(ok.data.error.message);
    expect(ok.data.values).toEqual({ from: "2024-07-03", to: "2025-07-02", days: "365", top: "clicks" });
    // A year: B has 5 contact clicks in May and a website click; A 3 clicks; C none.
    expect(ok.data.report.top.map((r) => r.locationId)).toEqual([b, a]);
    expect(ok.data.report.listingsSeen).toBe(3);
    expect(ok.data.map.states).toHaveLength(51);
    expect(ok.data.map.states.every((s) => /^M[\d.]+ [\d.]+l/.test(s.d))).toBe(true);
    const custom = await page("?from=2025-06-01&to=2025-06-30");
    expect(custom.data.ok && custom.data.values.days).toBe("custom");

    expect(await page("?days=14")).toMatchObject({
      status: 400,
      data: { ok: false, error: { field: "days", message: "Choose 7, 30, 90 or 365 days, or a custom range." } },
    });
    expect(await page("?days=custom&from=2025-02-30&to=2025-03-01")).toMatchObject({
      status: 400,
      data: { error: { field: "from", message: "The start date “2025-02-30” is not a date (YYYY-MM-DD)." } },
    });
    expect(await page("?from=2023-01-01&to=2025-01-01")).toMatchObject({
      status: 400,
      data: { error: { field: "from", message: "Choose a range of at most 366 days (this one has 732)." } },
    });
    expect(await page("?top=bogus")).toMatchObject({ status: 400, data: { error: { field: "top" } } });
  });

  it("downloads each table as CSV, quoting and defusing text a spreadsheet would run", async () => {
    const get = (query: string) => adminAnalyticsCsv(new Request(`http://localhost/admin/analytics.csv${query}`), now);
    const lines = async (query: string) => {
      const response = await get(query);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      const text = await response.text();
      expect(text.endsWith("\r\n")).toBe(true);
      return { response, rows: text.slice(0, -2).split("\r\n") };
    };
    const daily = await lines("?table=daily&days=7");
    expect(daily.response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="platform-daily-2025-06-26-to-2025-07-02.csv"',
    );
    expect(daily.rows[0]).toBe(
      "date,page_views,list_views,visitors,website_clicks,phone_clicks,directions_clicks,clicks,conversion_percent,searches",
    );
    expect(daily.rows).toHaveLength(8);
    expect(daily.rows.at(-1)).toBe("2025-07-02,2,2,2,1,0,0,1,50.00,0");

    const top = await lines("?table=top&top=pageViews&from=2025-06-03&to=2025-07-02");
    expect(top.response.headers.get("Content-Disposition")).toContain(
      "platform-top-pageViews-2025-06-03-to-2025-07-02.csv",
    );
    expect(top.rows[1]).toBe(`1,${a},Alpha RV Storage,TX,5,2,5,0,1,1,2,40.00`);
    // The formula is defused with an apostrophe, and the field quoted for its comma and quotes.
    expect(top.rows[2]).toBe(`2,${b},"'=HYPERLINK(""http://x"",""Bravo, """"the"""" best"")",CA,2,0,1,1,0,0,1,50.00`);

    const states = await lines("?table=states&days=30");
    expect(states.rows[1]).toBe("TX,Texas,5,4,2,2");
    expect(states.rows).toHaveLength(52);
    const sessions = await lines("?table=sessions&days=30");
    expect(sessions.rows[0]).toBe(
      "last_activity,start_time,duration_seconds,page_views,new_visitor,signed_in,last_listing",
    );
    // One per tracker session: every event of this file has its own.
    expect(sessions.rows).toHaveLength(1 + 11);

    const recorder = new SearchDemandRecorder(db());
    recorder.record(
      { place: { slug: "bend-or", label: "Bend, Oregon", state: "OR" }, results: 0, noneWithin100: true },
      now,
    );
    await recorder.flush();
    const gaps = await lines("?table=gaps&days=7");
    expect(gaps.rows).toEqual([
      "place,place_key,state,searches,average_results,empty_searches,none_within_100_miles",
      '"Bend, Oregon",bend-or,OR,1,0.00,1,1',
    ]);
    expect((await lines("?table=sources&days=7")).rows[0]).toBe("source,page_views");

    expect(await rejection(get("?table=passwords&days=7"))).toMatchObject({ status: 400 });
    expect(await rejection(get("?table=daily&days=8"))).toMatchObject({ status: 400 });
    expect(await rejection(get("?table=top&top=nope"))).toMatchObject({ status: 400 });
  });

  it("defuses every formula start and quotes only what needs it", () => {
    expect(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "plain", "a,b", 'say "hi"', "line\nbreak"].map(csvField)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      "plain",
      '"a,b"',
      '"say ""hi"""',
      '"line\nbreak"',
    ]);
    expect([-3, 0, true, null].map(csvField)).toEqual(["-3", "0", "true", ""]);
  });
});
