import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locations } from "../db/schema";
import { ensureDemoData } from "../locations/demo-seed";
import type { ValidatedAnalyticsEvent } from "../../domain/analytics-events";
import { ingestEvents, parseBatch, type Sender } from "./ingest";
import { pruneAnalytics } from "./retention";
import {
  getDailyMetrics,
  getLocationMetrics,
  getLocationReport,
  getMetricsByDateRange,
  getPlatformAggregate,
  getRecentActivity,
  getRecentSessions,
  getTopLocations,
  getViewsByState,
  topLocationsWindow,
} from "./queries";

let handle: DatabaseHandle;
let ids: string[];
const now = new Date();
const today = now.toISOString().slice(0, 10);
const site = "https://rv.example";
const sender = (authSessionId: string): Sender => ({
  authSessionId,
  userId: null,
  siteOrigin: site,
  // One address per session, so that the per-address daily budget does not enter these tests.
  clientIp: `address-of-${authSessionId}`,
});

let seq = 0;
function event(over: Partial<ValidatedAnalyticsEvent>): ValidatedAnalyticsEvent {
  return {
    eventId: `e-${++seq}-${Math.random().toString(36).slice(2)}`,
    eventType: "page_view",
    timestamp: now.toISOString(),
    sessionId: "s-1",
    url: `${site}/location/x`,
    ...over,
  };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  await ensureDemoData(handle.db, { mode: "auto", count: 12 });
  ids = (await handle.db.select({ id: locations.placeId }).from(locations).orderBy(locations.placeId)).map((r) => r.id);
});
afterAll(async () => {
  await handle.close();
});

describe("ingestion", () => {
  it("counts views, clicks, unique sessions and traffic sources per location and day", async () => {
    const [a, b] = [ids[0]!, ids[1]!];
    const batch = [
      event({ locationId: a, referrer: "https://www.google.com/" }),
      event({ locationId: a, referrer: `${site}/rv-storage/austin-tx` }),
      event({ eventType: "list_view", locationId: a }),
      event({ eventType: "list_view", locationId: b }),
      event({ eventType: "click", elementType: "phone", locationId: a }),
      event({ eventType: "click", elementType: "contact_button", locationId: a }),
      event({ eventType: "click", elementType: "website", locationId: a }),
      event({ eventType: "click", elementType: "directions", locationId: a }),
      event({ eventType: "page_view" }), // a results page: stored, counted nowhere
    ];
    expect(await ingestEvents(handle.db, batch, sender("auth-1"), now)).toEqual({
      received: 9,
      stored: 9,
      duplicates: 0,
      ignored: 0,
      dropped: 0,
    });
    // a second session views a once more; a DNT visitor sends only the traffic class
    await ingestEvents(handle.db, [event({ locationId: a, trafficSource: "facebook" })], sender("auth-2"), now);

    const metrics = await getLocationMetrics(handle.db, a);
    expect(metrics).toMatchObject({
      pageViews: 3,
      listViews: 1,
      websiteClicks: 1,
      contactClicks: 2,
      directionsClicks: 1,
      uniqueVisitors: 2,
      uniqueListViewers: 1,
    });
    expect(metrics.trafficSources).toMatchObject({ google: 1, internal: 1, facebook: 1, direct: 0 });
    expect(metrics.lastViewed).toBe(now.toISOString());
    const [day] = await getDailyMetrics(handle.db, a, today, today);
    expect(day).toMatchObject({ date: today, pageViews: 3, contactClicks: 2, uniqueVisitors: 2 });
    expect(await getLocationMetrics(handle.db, b)).toMatchObject({ pageViews: 0, listViews: 1, uniqueListViewers: 1 });
  });

  it("counts a retried batch once (idempotent by event id), also within one batch", async () => {
    const c = ids[2]!;
    const batch = [event({ locationId: c }), event({ eventType: "click", elementType: "website", locationId: c })];
    expect((await ingestEvents(handle.db, batch, sender("auth-3"), now)).stored).toBe(2);
    expect(await ingestEvents(handle.db, batch, sender("auth-3"), now)).toMatchObject({ stored: 0, duplicates: 2 });
    // concurrent retries of the same batch: still once
    const results = await Promise.all([1, 2, 3].map(() => ingestEvents(handle.db, batch, sender("auth-3"), now)));
    expect(results.map((r) => r.stored)).toEqual([0, 0, 0]);
    const doubled = event({ locationId: c });
    expect((await ingestEvents(handle.db, [doubled, doubled], sender("auth-3"), now)).stored).toBe(1);
    expect(await getLocationMetrics(handle.db, c)).toMatchObject({ pageViews: 2, websiteClicks: 1, uniqueVisitors: 1 });
  });

  it("counts concurrent batches exactly (group commit)", async () => {
    const d = ids[3]!;
    // 50 visitors with 10 page views each: within the per-session cap (inflation.db.test.ts).
    const batches = Array.from({ length: 50 }, (_, i) =>
      Array.from({ length: 10 }, () => event({ locationId: d, sessionId: `s-${i}` })),
    );
    const results = await Promise.all(batches.map((b, i) => ingestEvents(handle.db, b, sender(`auth-c${i}`), now)));
    expect(results.reduce((s, r) => s + r.stored, 0)).toBe(500);
    expect(await getLocationMetrics(handle.db, d)).toMatchObject({ pageViews: 500, uniqueVisitors: 50 });
  });

  it("rejects unknown location ids, naming them, and stores nothing of that batch", async () => {
    const good = event({ locationId: ids[4]! });
    await expect(
      ingestEvents(handle.db, [good, event({ locationId: "no-such-place" })], sender("auth-4"), now),
    ).rejects.toMatchObject({ status: 400, message: "unknown location ids: no-such-place" });
    const count = await handle.db.execute(
      sql`select count(*)::int as n from analytics_events where event_id = ${good.eventId}`,
    );
    expect((count as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it("ignores events dated more than 7 days back or in the future", async () => {
    const old = new Date(now.getTime() - 8 * 86_400_000).toISOString();
    const ahead = new Date(now.getTime() + 3_600_000).toISOString();
    const result = await ingestEvents(
      handle.db,
      [event({ locationId: ids[5]!, timestamp: old }), event({ locationId: ids[5]!, timestamp: ahead })],
      sender("auth-5"),
      now,
    );
    expect(result).toEqual({ received: 2, stored: 0, duplicates: 0, ignored: 2, dropped: 0 });
  });
});

describe("parseBatch", () => {
  it("names the field and the reason of a malformed event", () => {
    expect(() => parseBatch([{ eventType: "page_view" }])).toThrow(/0\.eventId/);
    expect(() => parseBatch([event({ eventType: "click" })])).toThrow(/0\.elementType: a click needs an elementType/);
    expect(() => parseBatch([event({ timestamp: "yesterday" })])).toThrow(/0\.timestamp/);
    expect(() => parseBatch([])).toThrow(/at least 1|>=1/i);
    expect(() => parseBatch({})).toThrow(/expected array/);
    expect(() => parseBatch(Array.from({ length: 101 }, () => event({})))).toThrow(/100/);
    expect(parseBatch([event({ locationId: "x" })])).toHaveLength(1);
  });
});

describe("queries", () => {
  it("ranks, lists recent activity, aggregates the platform and states, and reports a location", async () => {
    const top = await getTopLocations(handle.db, "pageViews", { limit: 2 });
    expect(top.map((r) => r.locationId)).toEqual([ids[3], ids[0]]);
    expect(top[0]).toMatchObject({ value: 500, pageViews: 500 });
    const clicks = await getTopLocations(handle.db, "totalClicks", { limit: 1 });
    expect(clicks[0]).toMatchObject({ locationId: ids[0], value: 4 });
    expect(topLocationsWindow("totalViews", 10, 0)).toBe(300);
    expect(topLocationsWindow("pageViews", 10, 5)).toBe(35);
    expect(topLocationsWindow("pageViews", 90, 50)).toBe(100);
    expect(await getTopLocations(handle.db, "pageViews", { limit: 10, offset: 100 })).toEqual([]);

    const recent = await getRecentActivity(handle.db, new Date(now.getTime() - 60_000));
    expect(recent.map((r) => r.locationId).sort()).toEqual([ids[0], ids[2], ids[3]].sort());

    const platform = await getPlatformAggregate(handle.db);
    expect(platform).toMatchObject({ pageViews: 505, websiteClicks: 2, contactClicks: 2, directionsClicks: 1 });

    const states = await getViewsByState(handle.db);
    expect(states.reduce((s, r) => s + r.pageViews, 0)).toBe(505);

    const range = await getMetricsByDateRange(handle.db, today, today);
    expect(range).toEqual([expect.objectContaining({ date: today, pageViews: 505, listViews: 2 })]);
    expect(await getMetricsByDateRange(handle.db, today, today, [ids[0]!])).toEqual([
      expect.objectContaining({ pageViews: 3 }),
    ]);

    const report = await getLocationReport(handle.db, ids[0]!, today, today, now);
    expect(report.daily).toHaveLength(1);
    // 3 views, 4 clicks: conversion 100 (capped) -> 40; recency 10 -> 3; views 0.3 -> 0.09
    expect(report.scores).toMatchObject({ conversionRate: 100, engagement: 43.09 });
  });
});

describe("retention", () => {
  it("deletes raw events and daily session marks past retention, keeping the counters", async () => {
    const before = await getLocationMetrics(handle.db, ids[0]!);
    const later = new Date(now.getTime() + 100 * 86_400_000);
    const pruned = await pruneAnalytics(handle.db, {}, later);
    expect(pruned.events).toBeGreaterThan(500);
    expect(pruned.dailySessions).toBeGreaterThan(0);
    expect(pruned.sessions).toBeGreaterThan(0);
    expect(await pruneAnalytics(handle.db, {}, later)).toEqual({
      events: 0,
      dailySessions: 0,
      sessions: 0,
      sessionCaps: 0,
      ipBudgets: 0,
    });
    expect(await getLocationMetrics(handle.db, ids[0]!)).toEqual(before);
  });
});

describe("analytics sessions", () => {
  it("records each session's start, last activity, duration, page views, listing and whether it is new", async () => {
    const [a, b] = [ids[2]!, ids[3]!];
    const t0 = new Date(now.getTime() - 120_000);
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000).toISOString();
    const first = [
      event({ sessionId: "visit-1", timestamp: at(0), locationId: a, userId: "user-9" }),
      event({ sessionId: "visit-1", eventType: "list_view", timestamp: at(10), locationId: b, userId: "user-9" }),
    ];
    await ingestEvents(handle.db, first, { ...sender("auth-sessions"), userId: "user-9" }, now);
    // A retried batch changes nothing; a later batch extends the session. (Runs last: it adds views.)
    await ingestEvents(handle.db, first, sender("auth-sessions"), now);
    await ingestEvents(handle.db, [event({ sessionId: "visit-1", timestamp: at(95) })], sender("auth-sessions"), now);
    // The same visitor's next analytics session is not a new visitor's.
    await ingestEvents(handle.db, [event({ sessionId: "visit-2", timestamp: at(100) })], sender("auth-sessions"), now);

    const sessions = await getRecentSessions(handle.db, { since: t0 });
    const mine = Object.fromEntries(sessions.map((s) => [s.sessionId, s]));
    expect(mine["visit-1"]).toEqual({
      sessionId: "visit-1",
      startTime: new Date(at(0)),
      lastActivity: new Date(at(95)),
      pageViews: 2,
      duration: 95,
      isNewSession: true,
      userId: "user-9",
      locationId: b,
    });
    expect(mine["visit-2"]).toMatchObject({ pageViews: 1, duration: 0, isNewSession: false, locationId: null });
    expect(sessions[0]!.lastActivity.getTime()).toBeGreaterThanOrEqual(sessions.at(-1)!.lastActivity.getTime());
  });
});
