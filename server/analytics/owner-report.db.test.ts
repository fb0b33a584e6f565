import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection } from "../../tests/setup/rejection";
import { createTestDatabase } from "../../tests/setup/db";
import type { ValidatedAnalyticsEvent } from "../../domain/analytics-events";
import { grantListing } from "../auth/ownership";
import { insertListing, insertPerson } from "../claims/test-support";
import { connectDatabase, disconnectDatabase } from "../db";
import type { DatabaseHandle } from "../db/client";
import { locationMetricsDaily } from "../db/schema";
import { ingestEvents, type Sender } from "./ingest";
import { ownerAnalyticsCsv, ownerAnalyticsPage } from "./owner-pages";
import { dailyCsv, parseReportPeriod } from "./owner-report";

/**
 * The owner analytics screen and its CSV over known events (docs/product.md section 10,
 * "Analytics"): the counts shown are exactly the events put in, the CSV says the same, and nobody
 * reads another owner's listing.
 */

let handle: DatabaseHandle;
const db = () => handle.db;
const now = new Date("2025-06-30T12:00:00Z");
const site = "https://rv.example";
type Person = Awaited<ReturnType<typeof insertPerson>>;
let owner: Person;
let stranger: Person;
let admin: Person;
let nobody: Person;
let a: string;
let b: string;
let c: string;

let seq = 0;
const ev = (locationId: string, at: string, over: Partial<ValidatedAnalyticsEvent> = {}): ValidatedAnalyticsEvent => ({
  eventId: `owner-report-${++seq}`,
  eventType: "page_view",
  timestamp: `${at}Z`,
  sessionId: "s-1",
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

beforeAll(async () => {
  // The page glue gets the database itself (getDatabase), as the server connects it.
  handle = await connectDatabase(await createTestDatabase());
  owner = await insertPerson(db(), { role: "business_owner", email: "owner@example.com" });
  stranger = await insertPerson(db(), { role: "business_owner", email: "stranger@example.com" });
  admin = await insertPerson(db(), { role: "admin", email: "admin@example.com" });
  nobody = await insertPerson(db(), { role: "business_owner", email: "nobody@example.com" });
  a = (await insertListing(db(), { name: "Alpha RV Storage" })).placeId;
  b = (await insertListing(db(), { name: "Bravo RV Storage" })).placeId;
  c = (await insertListing(db(), { name: "Charlie RV Storage" })).placeId;
  await grantListing(db(), owner.userId, a);
  await grantListing(db(), owner.userId, b);
  await grantListing(db(), stranger.userId, c);

  const day28 = "2025-06-28T10:00:00";
  // Listing A on the 28th: 5 page views by 3 visitors, 2 list views, 4 clicks (phone and contact both count as phone).
  await send("auth-1", [
    ev(a, day28, { referrer: "https://www.google.com/" }),
    ev(a, day28, { referrer: "https://www.google.com/search?q=rv" }),
    ev(a, day28, { eventType: "list_view" }),
    click(a, day28, "website"),
    click(a, day28, "directions"),
  ]);
  await send("auth-2", [ev(a, day28), click(a, day28, "phone"), click(a, day28, "contact_button")]);
  await send("auth-3", [ev(a, day28), ev(a, day28), ev(a, day28, { eventType: "list_view" })]);
  // Listing A on the 30th: one page view from Facebook (a Do-Not-Track visitor sends the class only), one click.
  await send("auth-1", [
    ev(a, "2025-06-30T09:00:00", { trafficSource: "facebook" }),
    click(a, "2025-06-30T09:05:00", "directions"),
  ]);
  // Listing B on the 29th: 2 page views (Bing, and from our own results page), 1 website click.
  await send("auth-4", [
    ev(b, "2025-06-29T08:00:00", { referrer: "https://www.bing.com/" }),
    click(b, "2025-06-29T08:01:00", "website"),
  ]);
  await send("auth-5", [ev(b, "2025-06-29T08:30:00", { referrer: `${site}/rv-storage/austin-tx` })]);
  // The stranger's listing C: never part of the owner's numbers.
  await send("auth-6", [ev(c, "2025-06-29T08:00:00"), ev(c, "2025-06-29T09:00:00", { sessionId: "s-2" })]);
  // The previous 7 days (17th to 23rd): daily rows as the counters left them (their events are long pruned).
  await db()
    .insert(locationMetricsDaily)
    .values([
      { locationId: a, date: "2025-06-20", pageViews: 2, listViews: 1, uniqueVisitors: 2 },
      { locationId: b, date: "2025-05-01", pageViews: 50, listViews: 9, uniqueVisitors: 40 },
    ]);
});
afterAll(async () => {
  await disconnectDatabase();
});

const request = (query: string) => new Request(`http://localhost:3000/owner/locations/analytics${query}`);
const page = async (viewer: Person, query: string) => ownerAnalyticsPage(request(query), viewer, now);
async function okPage(viewer: Person, query: string) {
  const { status, data } = await page(viewer, query);
  expect(status).toBe(200);
  if (!data.ok) throw new Error(data.error.message);
  return data;
}
const csv = (viewer: Person, query: string) =>
  ownerAnalyticsCsv(new Request(`http://localhost:3000/owner/locations/analytics.csv${query}`), viewer, now);

describe("one listing", () => {
  it("counts exactly the events put in, day by day, with the previous period and the sources", async () => {
    const { report, selection, preset } = await okPage(owner, `?listing=${a}&days=7`);
    expect(preset).toBe(7);
    expect(selection.selected?.placeId).toBe(a);
    expect(selection.options.map((o) => o.name)).toEqual(["Alpha RV Storage", "Bravo RV Storage"]);
    expect(report).not.toBeNull();
    const r = report!;
    expect([r.from, r.to, r.days]).toEqual(["2025-06-24", "2025-06-30", 7]);
    expect(r.previous).toEqual({ from: "2025-06-17", to: "2025-06-23" });
    expect(r.totals).toEqual({
      pageViews: 6,
      listViews: 2,
      uniqueVisitors: 4,
      websiteClicks: 1,
      phoneClicks: 2,
      directionsClicks: 2,
      clicks: 5,
      conversionRate: 83.33,
      leads: 0,
      reservations: 0,
      reservationsAccepted: 0,
    });
    expect(r.previousTotals).toMatchObject({ pageViews: 2, listViews: 1, uniqueVisitors: 2, clicks: 0 });
    expect(r.growth).toEqual({ pageViews: 200, listViews: 100, uniqueVisitors: 100, clicks: null });
    expect(r.daily.map((d) => d.date)).toEqual([
      "2025-06-24",
      "2025-06-25",
      "2025-06-26",
      "2025-06-27",
      "2025-06-28",
      "2025-06-29",
      "2025-06-30",
    ]);
    expect(r.daily[4]).toEqual({
      date: "2025-06-28",
      pageViews: 5,
      listViews: 2,
      uniqueVisitors: 3,
      websiteClicks: 1,
      phoneClicks: 2,
      directionsClicks: 1,
      clicks: 4,
      conversionRate: 80,
      leads: 0,
      reservations: 0,
      reservationsAccepted: 0,
    });
    expect(r.daily[6]).toMatchObject({ pageViews: 1, uniqueVisitors: 1, directionsClicks: 1, clicks: 1 });
    expect(r.daily[5]!.pageViews).toBe(0);
    expect(r.sources).toEqual([
      { source: "direct", pageViews: 3 },
      { source: "google", pageViews: 2 },
      { source: "facebook", pageViews: 1 },
    ]);
    expect(r.sourcesFrom).toBeNull();
    expect(r.everSeen).toBe(true);
    expect(r.lastViewed).toBe("2025-06-30T09:00:00.000Z");
    // Performance: 6/10 + 83.33 x 2.5 (capped 25) + 4/5 + 5/5; engagement: 40% of 83.33 + 30% of 10 (viewed today) + 30% of 0.6.
    expect(r.scores).toEqual({ performance: 27.4, engagement: 36.51 });
  });

  it("downloads the same daily rows as CSV", async () => {
    const response = await csv(owner, `?listing=${a}&from=2025-06-24&to=2025-06-30`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="analytics-test-rv-storage-[a-z0-9-]+-2025-06-24-to-2025-06-30\.csv"$/,
    );
    const text = await response.text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "date,page_views,list_views,unique_visitors,website_clicks,phone_clicks,directions_clicks,clicks,conversion_percent,leads,reservation_requests,reservations_accepted",
    );
    expect(lines.slice(1)).toEqual([
      "2025-06-24,0,0,0,0,0,0,0,0.00,0,0,0",
      "2025-06-25,0,0,0,0,0,0,0,0.00,0,0,0",
      "2025-06-26,0,0,0,0,0,0,0,0.00,0,0,0",
      "2025-06-27,0,0,0,0,0,0,0,0.00,0,0,0",
      "2025-06-28,5,2,3,1,2,1,4,80.00,0,0,0",
      "2025-06-29,0,0,0,0,0,0,0,0.00,0,0,0",
      "2025-06-30,1,0,1,0,0,1,1,100.00,0,0,0",
    ]);
    // The CSV is the screen's daily rows, whatever the period was asked as.
    const { report } = await okPage(owner, `?listing=${a}&days=7`);
    expect(text).toBe(dailyCsv(report!.daily));
  });

  it("says so for a listing nobody has viewed yet", async () => {
    const quiet = (await insertListing(db(), { name: "Quiet RV Storage" })).placeId;
    await grantListing(db(), nobody.userId, quiet);
    const { report } = await okPage(nobody, "");
    expect(report).toMatchObject({ everSeen: false, sources: [], lastViewed: null });
    expect(report!.totals.pageViews).toBe(0);
    expect(report!.daily).toHaveLength(30);
  });
});

describe("all my listings", () => {
  it("adds the listings up and ranks them, without anyone else's", async () => {
    const { report, selection } = await okPage(owner, "?listing=all&days=7");
    expect(selection.selected).toBeNull();
    expect(selection.ids.sort()).toEqual([a, b].sort());
    expect(report!.totals).toMatchObject({
      pageViews: 8,
      listViews: 2,
      uniqueVisitors: 6,
      websiteClicks: 2,
      phoneClicks: 2,
      directionsClicks: 2,
      clicks: 6,
      conversionRate: 75,
    });
    expect(report!.daily[5]).toMatchObject({ date: "2025-06-29", pageViews: 2, websiteClicks: 1 });
    expect(report!.sources).toEqual([
      { source: "direct", pageViews: 3 },
      { source: "google", pageViews: 2 },
      { source: "bing", pageViews: 1 },
      { source: "facebook", pageViews: 1 },
      { source: "internal", pageViews: 1 },
    ]);
    expect(report!.listings.map((l) => [l.name, l.pageViews, l.clicks])).toEqual([
      ["Alpha RV Storage", 6, 5],
      ["Bravo RV Storage", 2, 1],
    ]);
    const lines = (await (await csv(owner, "?days=7")).text()).trimEnd().split("\r\n");
    expect(lines[5]).toBe("2025-06-28,5,2,3,1,2,1,4,80.00,0,0,0");
    expect(lines[6]).toBe("2025-06-29,2,0,2,1,0,0,1,50.00,0,0,0");
  });

  it("answers an owner without listings with no report, and a period reaching past the raw events with a note", async () => {
    const { report, selection } = await okPage(stranger, "?listing=all");
    expect(selection.ids).toEqual([c]);
    expect(report!.totals.pageViews).toBe(2);
    const lonely = await insertPerson(db(), { role: "user" });
    const empty = await okPage(lonely, "");
    expect(empty.report).toBeNull();
    expect(empty.selection.options).toEqual([]);
    const long = await okPage(owner, "?days=90");
    expect(long.report!.sourcesFrom).toBeNull();
    const year = await okPage(owner, "?from=2025-01-01&to=2025-06-30");
    expect(year.report!.sourcesFrom).toBe("2025-04-01");
    // B's May row is inside this range.
    expect(year.report!.totals.pageViews).toBe(60);
  });
});

describe("who may read what", () => {
  it("refuses another owner's listing and an unknown one, on the screen and in the CSV", async () => {
    expect((await rejection(page(owner, `?listing=${c}`))).status).toBe(403);
    expect((await rejection(csv(owner, `?listing=${c}&days=7`))).status).toBe(403);
    expect((await rejection(page(owner, "?listing=no-such-listing"))).status).toBe(404);
    expect((await rejection(csv(stranger, `?listing=${a}`))).status).toBe(403);
  });

  it("lets an admin read any listing by id, added to the picker", async () => {
    const { report, selection } = await okPage(admin, `?listing=${c}&days=7`);
    expect(selection.selected?.placeId).toBe(c);
    expect(selection.options.map((o) => o.placeId)).toEqual([c]);
    expect(report!.totals.pageViews).toBe(2);
    expect((await csv(admin, `?listing=${c}&days=7`)).status).toBe(200);
  });
});

describe("bad periods", () => {
  it.each([
    ["?from=2025-06-30&to=2025-06-01", "from", "The start date must not be after the end date."],
    ["?from=2024-01-01&to=2025-06-30", "from", "Choose a range of at most 366 days (this one has 547)."],
    ["?from=2025-02-30&to=2025-03-10", "from", "The start date “2025-02-30” is not a date (YYYY-MM-DD)."],
    ["?from=2025-02-01&to=tomorrow", "to", "The end date “tomorrow” is not a date (YYYY-MM-DD)."],
    ["?days=14", "days", "Choose 7, 30 or 90 days, or a custom range."],
  ])(
    "%s is answered on the page with a 400 and the values kept, and refused by the CSV",
    async (query, field, message) => {
      const { status, data } = await page(owner, query);
      expect(status).toBe(400);
      expect(data).toMatchObject({ ok: false, error: { field, message } });
      const refused = await rejection(csv(owner, query));
      expect([refused.status, refused.message]).toEqual([400, message]);
    },
  );

  it("accepts exactly 366 days, and fills a missing end with today", () => {
    expect(parseReportPeriod(new URLSearchParams("from=2024-07-01&to=2025-07-01"), now)).toMatchObject({
      ok: true,
      period: { days: 366 },
    });
    expect(parseReportPeriod(new URLSearchParams("from=2025-06-01"), now)).toEqual({
      ok: true,
      period: { from: "2025-06-01", to: "2025-06-30", days: 30, preset: null },
    });
    // The screen's form sends the preset and the dates: the preset wins unless it is "custom".
    expect(parseReportPeriod(new URLSearchParams("days=7&from=2025-01-01&to=2025-01-31"), now)).toMatchObject({
      ok: true,
      period: { from: "2025-06-24", to: "2025-06-30", preset: 7 },
    });
    expect(parseReportPeriod(new URLSearchParams("days=custom&from=2025-01-01&to=2025-01-31"), now)).toMatchObject({
      ok: true,
      period: { from: "2025-01-01", to: "2025-01-31", days: 31, preset: null },
    });
  });
});
