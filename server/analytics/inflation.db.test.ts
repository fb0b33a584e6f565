import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locations } from "../db/schema";
import { createRateLimiter } from "../http/rate-limit";
import { ensureDemoData } from "../locations/demo-seed";
import { INGEST_CAPS } from "./caps";
import { createEventsEndpoint } from "./endpoint";
import { ingestEvents } from "./ingest";
import { getDailyMetrics, getLocationMetrics } from "./queries";
import { pruneAnalytics } from "./retention";

/**
 * An inflation attack from one address (docs/operations.md "Limits on input", Analytics): many
 * batches from one session, many sessions from one address, replayed event ids. The listing's
 * counters may move by at most the caps, and what is over them is accepted (202) and dropped.
 */

let handle: DatabaseHandle;
let ids: string[];
const today = () => new Date().toISOString().slice(0, 10);
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const site = "http://localhost";

beforeAll(async () => {
  handle = await createTestDatabase();
  await ensureDemoData(handle.db, { mode: "auto", count: 40 });
  ids = (await handle.db.select({ id: locations.placeId }).from(locations).orderBy(locations.placeId)).map((r) => r.id);
});
afterAll(async () => {
  await handle.close();
});

// The per-batch rate limits are in-memory and per instance; lift them so that only the caps,
// which the database counts, decide.
const endpoint = () =>
  createEventsEndpoint({
    getViewer: async (request) => ({ sessionId: request.headers.get("x-test-session"), userId: null }),
    getDatabase: () => handle.db,
    siteOrigin: () => site,
    perSession: createRateLimiter({ windowMs: 60_000, max: 1_000_000 }),
    perIp: createRateLimiter({ windowMs: 60_000, max: 1_000_000 }),
  });

let n = 0;
type Event = Record<string, unknown>;
const event = (locationId: string, over: Event = {}): Event => ({
  eventId: `inf-${++n}`,
  eventType: "page_view",
  timestamp: new Date().toISOString(),
  sessionId: "tracker-1",
  url: `${site}/location/${locationId}`,
  locationId,
  ...over,
});
const click = (locationId: string, elementType: string) => event(locationId, { eventType: "click", elementType });

const post = (events: Event[], session: string, ip: string) =>
  new Request(`${site}/api/analytics/events`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": BROWSER,
      "x-test-session": session,
      "x-client-ip": ip,
    },
    body: JSON.stringify(events),
  });

interface Answer {
  received: number;
  stored: number;
  duplicates: number;
  ignored: number;
  dropped: number;
}
async function send(handler: ReturnType<typeof endpoint>, events: Event[], session: string, ip: string) {
  const response = await handler(post(events, session, ip));
  expect(response.status).toBe(202);
  return (await response.json()) as Answer;
}

const rawCount = async (where: ReturnType<typeof sql>) =>
  (
    (await handle.db.execute(sql`select count(*)::int as n from analytics_events where ${where}`)) as unknown as {
      rows: { n: number }[];
    }
  ).rows[0]!.n;

describe("analytics inflation caps", () => {
  it("caps what one session adds to one listing per hour, across batches, concurrent batches and replays", async () => {
    const handler = endpoint();
    const target = ids[0]!;
    const kinds = ["website", "phone", "contact_button", "directions"];
    const batches: Event[][] = [];
    for (let b = 0; b < 6; b++) {
      batches.push([
        ...Array.from({ length: 40 }, () => event(target)),
        ...Array.from({ length: 30 }, () => event(target, { eventType: "list_view" })),
        ...kinds.flatMap((k) => Array.from({ length: 7 }, () => click(target, k))),
      ]);
    }
    // Two in sequence, four at once (they land in the same or in overlapping transactions).
    const answers = [await send(handler, batches[0]!, "attacker-1", "203.0.113.5")];
    answers.push(await send(handler, batches[1]!, "attacker-1", "203.0.113.5"));
    answers.push(...(await Promise.all(batches.slice(2).map((b) => send(handler, b, "attacker-1", "203.0.113.5")))));
    // Replays of every batch: nothing new.
    const replays = await Promise.all(batches.map((b) => send(handler, b, "attacker-1", "203.0.113.5")));

    const perHour =
      INGEST_CAPS.pageViewsPerHour + INGEST_CAPS.listViewsPerHour + kinds.length * INGEST_CAPS.clicksPerTypePerHour;
    expect(answers.reduce((s, a) => s + a.stored, 0)).toBe(perHour);
    expect(answers.reduce((s, a) => s + a.dropped, 0)).toBe(6 * 98 - perHour);
    expect(replays.reduce((s, a) => s + a.stored, 0)).toBe(0);

    const expected = {
      pageViews: INGEST_CAPS.pageViewsPerHour,
      listViews: INGEST_CAPS.listViewsPerHour,
      websiteClicks: INGEST_CAPS.clicksPerTypePerHour,
      contactClicks: 2 * INGEST_CAPS.clicksPerTypePerHour, // phone and contact_button are two click types
      directionsClicks: INGEST_CAPS.clicksPerTypePerHour,
      uniqueVisitors: 1,
      uniqueListViewers: 1,
    };
    expect(await getLocationMetrics(handle.db, target)).toMatchObject(expected);
    const [day] = await getDailyMetrics(handle.db, target, today(), today());
    expect(day).toMatchObject(expected);
    // Dropped events are not kept raw either.
    expect(await rawCount(sql`auth_session_id = 'attacker-1'`)).toBe(perHour);

    // The next hour the session may add as much again, and no more.
    const nextHour = new Date(Date.now() + 3_600_000);
    const later = Array.from({ length: 30 }, () => ({
      ...event(target),
      timestamp: new Date(nextHour.getTime() - 60_000).toISOString(),
    })) as never[];
    const result = await ingestEvents(
      handle.db,
      later,
      { authSessionId: "attacker-1", userId: null, siteOrigin: site, clientIp: "203.0.113.5" },
      nextHour,
    );
    expect(result).toMatchObject({ stored: INGEST_CAPS.pageViewsPerHour, dropped: 30 - INGEST_CAPS.pageViewsPerHour });
    expect((await getLocationMetrics(handle.db, target)).pageViews).toBe(2 * INGEST_CAPS.pageViewsPerHour);
  });

  it("caps what one address adds per UTC day across all its sessions; another address is not affected", async () => {
    const handler = endpoint();
    const budget = INGEST_CAPS.eventsPerIpPerDay;
    const listings = ids.slice(1, 11);
    // Each session stays within its per-listing caps: 10 page views on each of 10 listings.
    const perSession = listings.flatMap((id) => Array.from({ length: INGEST_CAPS.pageViewsPerHour }, () => event(id)));
    const sessions = Math.ceil((budget * 1.5) / perSession.length);
    const answers: Answer[] = [];
    for (let start = 0; start < sessions; start += 8) {
      const wave = Array.from({ length: Math.min(8, sessions - start) }, (_, i) =>
        send(
          handler,
          perSession.map((e) => ({ ...e, eventId: `inf-ip-${start + i}-${String(e.eventId)}` })),
          `many-${start + i}`,
          "198.51.100.7",
        ),
      );
      answers.push(...(await Promise.all(wave)));
    }
    expect(answers.reduce((s, a) => s + a.stored, 0)).toBe(budget);
    expect(answers.reduce((s, a) => s + a.dropped, 0)).toBe(sessions * perSession.length - budget);

    let total = 0;
    let daily = 0;
    for (const id of listings) {
      total += (await getLocationMetrics(handle.db, id)).pageViews;
      daily += (await getDailyMetrics(handle.db, id, today(), today()))[0]?.pageViews ?? 0;
    }
    expect(total).toBe(budget);
    expect(daily).toBe(budget);
    expect(await rawCount(sql`auth_session_id like 'many-%'`)).toBe(budget);

    // The same address on the same day: dropped, whichever session and listing.
    expect(await send(handler, [event(ids[20]!)], "many-fresh", "198.51.100.7")).toMatchObject({
      stored: 0,
      dropped: 1,
    });
    // Another address is counted.
    expect(await send(handler, [event(ids[20]!)], "other-1", "198.51.100.8")).toMatchObject({ stored: 1, dropped: 0 });
    // An IPv6 client cannot escape the budget by changing the low 64 bits of its address.
    const v6 = Array.from({ length: 3 }, (_, i) => `2001:db8:1:2::${i + 1}`);
    const v6Answers = [];
    for (let s = 0; s < sessions; s++) {
      v6Answers.push(
        await send(
          handler,
          perSession.map((e) => ({ ...e, eventId: `inf-v6-${s}-${String(e.eventId)}` })),
          `v6-${s}`,
          v6[s % v6.length]!,
        ),
      );
    }
    expect(v6Answers.reduce((s, a) => s + a.stored, 0)).toBe(budget);
  });

  it("stores the url as its path (no query string or fragment) and the referrer as origin and path", async () => {
    const handler = endpoint();
    const target = ids[30]!;
    const e = event(target, {
      url: `${site}/location/${target}?email=dana%40example.com&token=secret#photos`,
      referrer: "https://www.google.com/search?q=dana+private#top",
    });
    expect(await send(handler, [e], "url-1", "192.0.2.44")).toMatchObject({ stored: 1 });
    const { rows } = (await handle.db.execute(
      sql`select url, referrer, traffic_source from analytics_events where event_id = ${String(e.eventId)}`,
    )) as unknown as { rows: { url: string; referrer: string; traffic_source: string }[] };
    expect(rows[0]).toEqual({
      url: `/location/${target}`,
      referrer: "https://www.google.com/search",
      traffic_source: "google",
    });
    // A very long path is cut to the stored cap.
    const long = event(target, { url: `${site}/${"a".repeat(1_900)}?x=1` });
    await send(handler, [long], "url-2", "192.0.2.44");
    const stored = (await handle.db.execute(
      sql`select url from analytics_events where event_id = ${String(long.eventId)}`,
    )) as unknown as { rows: { url: string }[] };
    expect(stored.rows[0]!.url.length).toBe(INGEST_CAPS.storedUrlChars);
    expect(stored.rows[0]!.url).not.toContain("?");
  });

  it("prunes the cap counters with the retention job", async () => {
    const count = async (table: string) =>
      (
        (await handle.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    expect(await count("analytics_session_caps")).toBeGreaterThan(0);
    expect(await count("analytics_ip_budgets")).toBeGreaterThan(0);
    const pruned = await pruneAnalytics(handle.db, {}, new Date(Date.now() + 3 * 86_400_000));
    expect(pruned.sessionCaps).toBeGreaterThan(0);
    expect(pruned.ipBudgets).toBeGreaterThan(0);
    expect(await count("analytics_session_caps")).toBe(0);
    expect(await count("analytics_ip_budgets")).toBe(0);
  });
});
