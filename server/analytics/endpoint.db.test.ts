import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { locations } from "../db/schema";
import { createRateLimiter } from "../http/rate-limit";
import { ensureDemoData } from "../locations/demo-seed";
import { createEventsEndpoint, eventsRoute } from "./endpoint";
import { parsePeriod } from "./metrics-endpoint";
import { getLocationMetrics } from "./queries";

let handle: DatabaseHandle;
let locationId: string;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

beforeAll(async () => {
  handle = await createTestDatabase();
  await ensureDemoData(handle.db, { mode: "auto", count: 5 });
  const [first] = await handle.db.select({ id: locations.placeId }).from(locations).limit(1);
  locationId = first!.id;
});
afterAll(async () => {
  await handle.close();
});

const endpoint = (over: Parameters<typeof createEventsEndpoint>[0] = {}) =>
  createEventsEndpoint({
    getViewer: async (request) => {
      const session = request.headers.get("x-test-session");
      return { sessionId: session, userId: session ? `user-${session}` : null };
    },
    getDatabase: () => handle.db,
    siteOrigin: () => "http://localhost",
    ...over,
  });

let n = 0;
const event = (over: Record<string, unknown> = {}) => ({
  eventId: `ep-${++n}-${Date.now()}`,
  eventType: "page_view",
  timestamp: new Date().toISOString(),
  sessionId: "a-1",
  url: "http://localhost/location/x",
  locationId,
  ...over,
});

function post(body: unknown, { session = "s1", type = "application/json", agent = BROWSER, ip = "10.0.0.1" } = {}) {
  const headers: Record<string, string> = { "content-type": type, "user-agent": agent, "x-client-ip": ip };
  if (session) headers["x-test-session"] = session;
  return new Request("http://localhost/api/analytics/events", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("POST /api/analytics/events", () => {
  it("stores a batch and answers 202, from fetch and from a beacon (text/plain)", async () => {
    const handler = endpoint();
    const response = await handler(post([event(), event({ eventType: "list_view" })]));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ received: 2, stored: 2, duplicates: 0, ignored: 0, dropped: 0 });
    const beacon = await handler(post([event()], { type: "text/plain;charset=UTF-8" }));
    expect(beacon.status).toBe(202);
    expect(await getLocationMetrics(handle.db, locationId)).toMatchObject({ pageViews: 2, listViews: 1 });
  });

  it("counts a retried batch once", async () => {
    const handler = endpoint();
    const before = (await getLocationMetrics(handle.db, locationId)).pageViews;
    const batch = [event(), event()];
    expect(await (await handler(post(batch))).json()).toMatchObject({ stored: 2 });
    expect(await (await handler(post(batch))).json()).toMatchObject({ stored: 0, duplicates: 2 });
    expect((await getLocationMetrics(handle.db, locationId)).pageViews).toBe(before + 2);
  });

  it("rejects a batch without a session (401)", async () => {
    const response = await endpoint()(post([event()], { session: "" }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "A session is required to send analytics events." });
  });

  it("rejects an oversized body (413), by its declared length or its actual length", async () => {
    const big = JSON.stringify([event({ url: "x".repeat(300 * 1024) })]);
    const declared = await endpoint()(post(big));
    expect(declared.status).toBe(413);
    // a streamed body without Content-Length
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const request = new Request("http://localhost/api/analytics/events", {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": BROWSER, "x-test-session": "s1" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect((await endpoint()(request)).status).toBe(413);
  });

  it("rejects malformed events (400) naming the field, and malformed JSON", async () => {
    const response = await endpoint()(post([event(), event({ eventType: "click" })]));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "invalid events: 1.elementType: a click needs an elementType",
      errors: ["1.elementType: a click needs an elementType"],
    });
    expect((await endpoint()(post("[{"))).status).toBe(400);
    expect((await endpoint()(post(Array.from({ length: 101 }, () => event())))).status).toBe(400);
    expect((await endpoint()(post([event()], { type: "application/x-www-form-urlencoded" }))).status).toBe(415);
  });

  it("rejects unknown location ids (400) naming them", async () => {
    const response = await endpoint()(post([event(), event({ locationId: "ghost-place-1" })]));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "unknown location ids: ghost-place-1",
      unknownLocationIds: ["ghost-place-1"],
    });
  });

  it("ignores bots without storing anything", async () => {
    const before = (await getLocationMetrics(handle.db, locationId)).pageViews;
    const response = await endpoint()(post([event()], { agent: "Googlebot/2.1 (+http://www.google.com/bot.html)" }));
    expect(response.status).toBe(202);
    expect((await getLocationMetrics(handle.db, locationId)).pageViews).toBe(before);
  });

  it("limits batches per session and per address (429 with Retry-After)", async () => {
    const handler = endpoint({
      perSession: createRateLimiter({ windowMs: 60_000, max: 2 }),
      perIp: createRateLimiter({ windowMs: 60_000, max: 3 }),
    });
    expect((await handler(post([event()], { session: "rl-1" }))).status).toBe(202);
    expect((await handler(post([event()], { session: "rl-1" }))).status).toBe(202);
    const limited = await handler(post([event()], { session: "rl-1" }));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await handler(post([event()], { session: "rl-2" }))).status).toBe(429); // 4th from this address
    expect((await handler(post([event()], { session: "rl-2", ip: "10.0.0.2" }))).status).toBe(202);
  });
});

describe("POST /api/analytics/events answered by Express (eventsRoute)", () => {
  async function serve(route: express.RequestHandler) {
    const app = express();
    app.post("/api/analytics/events", route);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/analytics/events`;
    return { url, close: () => new Promise((resolve) => server.close(resolve)) };
  }
  const headers = { "content-type": "application/json", "user-agent": BROWSER, "x-test-session": "ex-1" };

  it("stores a batch read from the request stream and answers as the endpoint does, with its length", async () => {
    const site = await serve(eventsRoute(endpoint()));
    try {
      const before = (await getLocationMetrics(handle.db, locationId)).pageViews;
      const batch = [event(), event(), event({ eventType: "list_view" })];
      const response = await fetch(site.url, { method: "POST", headers, body: JSON.stringify(batch) });
      expect(response.status).toBe(202);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ received: 3, stored: 3, duplicates: 0, ignored: 0, dropped: 0 });
      expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect((await getLocationMetrics(handle.db, locationId)).pageViews).toBe(before + 2);
      const unsigned = await fetch(site.url, {
        method: "POST",
        headers: { ...headers, "x-test-session": "" },
        body: JSON.stringify(batch),
      });
      expect(unsigned.status).toBe(401);
    } finally {
      await site.close();
    }
  });

  it("refuses a streamed body past the cap (413) and malformed JSON (400)", async () => {
    const site = await serve(eventsRoute(endpoint()));
    try {
      const big = JSON.stringify([event({ url: "x".repeat(300 * 1024) })]);
      const chunked = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      });
      const response = await fetch(site.url, { method: "POST", headers, body: chunked, duplex: "half" } as RequestInit);
      expect(response.status).toBe(413);
      expect((await fetch(site.url, { method: "POST", headers, body: "[{" })).status).toBe(400);
    } finally {
      await site.close();
    }
  });
});

describe("metrics period", () => {
  const now = new Date("2025-06-30T10:00:00Z");
  const period = (q: string) => parsePeriod(new URLSearchParams(q), now);
  it("defaults to the last 30 days and checks dates", () => {
    expect(period("")).toEqual({ ok: true, from: "2025-06-01", to: "2025-06-30" });
    expect(period("from=2025-01-01&to=2025-01-31")).toEqual({ ok: true, from: "2025-01-01", to: "2025-01-31" });
    expect(period("from=2025-02-30")).toMatchObject({ ok: false, errors: [{ parameter: "from" }] });
    expect(period("to=yesterday")).toMatchObject({ ok: false, errors: [{ parameter: "to" }] });
    expect(period("from=2025-02-02&to=2025-02-01")).toMatchObject({ ok: false });
    expect(period("from=2023-01-01&to=2025-01-01")).toMatchObject({ ok: false });
  });
});
