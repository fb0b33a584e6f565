import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QUEUE_KEY, SESSION_KEY, Tracker, type SendResult, type StorageLike, type TrackerEnv } from "./tracker";
import type { AnalyticsEvent } from "../../domain/analytics-types";

class MemoryStorage implements StorageLike {
  map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

let ids = 0;
function setup(over: Partial<TrackerEnv> = {}, results: SendResult[] = []) {
  const sent: AnalyticsEvent[][] = [];
  const beacons: AnalyticsEvent[][] = [];
  const state = { online: true, auth: true, beaconOk: true };
  const warn = vi.fn();
  const env: TrackerEnv = {
    now: () => Date.now(),
    storage: new MemoryStorage(),
    transport: {
      send: vi.fn(async (events: AnalyticsEvent[]) => {
        sent.push(events);
        return results.shift() ?? "ok";
      }),
      beacon: vi.fn((events: AnalyticsEvent[]) => {
        if (state.beaconOk) beacons.push(events);
        return state.beaconOk;
      }),
    },
    hasAuthSession: () => state.auth,
    isOnline: () => state.online,
    doNotTrack: false,
    newId: () => `id-${++ids}`,
    page: () => ({
      url: "https://rv.example/location/a?utm=x",
      referrer: "https://www.google.com/search?q=rv",
      origin: "https://rv.example",
      userAgent: "Test/1.0",
      viewport: { width: 390, height: 844 },
    }),
    userId: () => "user-1",
    warn,
    ...over,
  };
  const tracker = new Tracker(env);
  tracker.start();
  return { tracker, env, sent, beacons, state, warn };
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2025-06-30T12:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("batching", () => {
  it("flushes 2 s after a page view or click, with the event's fields", async () => {
    const { tracker, sent } = setup();
    tracker.track({ eventType: "page_view", locationId: "loc-1" });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]![0]).toMatchObject({
      eventType: "page_view",
      timestamp: "2025-06-30T12:00:00.000Z",
      url: "https://rv.example/location/a?utm=x",
      referrer: "https://www.google.com/search?q=rv",
      userAgent: "Test/1.0",
      viewport: { width: 390, height: 844 },
      userId: "user-1",
      locationId: "loc-1",
      elementType: null,
    });
    expect(tracker.pending).toEqual([]);
  });

  it("holds list views up to 5 minutes, and sends at once when 50 are queued", async () => {
    const { tracker, sent } = setup();
    tracker.track({ eventType: "list_view", locationId: "a" });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 120; i++) tracker.track({ eventType: "list_view", locationId: `l${i}` });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.slice(1).map((b) => b.length)).toEqual([50, 50, 20]);
  });
});

describe("offline", () => {
  it("queues events in storage while offline and sends them when back online", async () => {
    const { tracker, env, sent, state } = setup();
    state.online = false;
    tracker.track({ eventType: "page_view", locationId: "a" });
    tracker.track({ eventType: "click", locationId: "a", elementType: "phone" });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(0);
    expect(JSON.parse(env.storage.getItem(QUEUE_KEY)!)).toHaveLength(2);

    // a new page (same storage) still has them
    const reloaded = new Tracker(env);
    expect(reloaded.pending).toHaveLength(2);

    state.online = true;
    tracker.online();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.map((e) => e.elementType)).toEqual([null, "phone"]);
    expect(env.storage.getItem(QUEUE_KEY)).toBeNull();
  });
});

describe("page hide", () => {
  it("hands the queue to sendBeacon and keeps what the browser refuses", async () => {
    const { tracker, beacons, state, sent } = setup();
    tracker.track({ eventType: "list_view", locationId: "a" });
    tracker.track({ eventType: "list_view", locationId: "b" });
    tracker.beacon();
    expect(beacons).toHaveLength(1);
    expect(beacons[0]!.map((e) => e.locationId)).toEqual(["a", "b"]);
    expect(tracker.pending).toEqual([]);

    state.beaconOk = false;
    tracker.track({ eventType: "list_view", locationId: "c" });
    tracker.beacon();
    expect(tracker.pending.map((e) => e.locationId)).toEqual(["c"]);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(sent.flat().map((e) => e.locationId)).toEqual(["c"]);
  });

  it("splits a large queue into beacons under 64 KiB", () => {
    const { tracker, beacons } = setup({
      page: () => ({
        url: `https://rv.example/${"p".repeat(2000)}`,
        referrer: "",
        origin: "https://rv.example",
        userAgent: "T",
        viewport: { width: 1, height: 1 },
      }),
    });
    for (let i = 0; i < 45; i++) tracker.track({ eventType: "list_view", locationId: `l${i}` });
    tracker.beacon();
    expect(beacons.length).toBeGreaterThan(1);
    for (const b of beacons) expect(JSON.stringify(b).length).toBeLessThan(64 * 1024);
    expect(beacons.flat()).toHaveLength(45);
  });
});

describe("sessions", () => {
  it("keeps the session while idle under 30 minutes, then starts a new one", async () => {
    const { tracker, env } = setup();
    const first = tracker.session();
    expect(first.isNewSession).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    tracker.track({ eventType: "page_view" });
    vi.setSystemTime(Date.now() + 29 * 60_000);
    expect(tracker.session()).toMatchObject({ sessionId: first.sessionId, isNewSession: false, pageViews: 1 });
    tracker.stop(); // no heartbeat from here on
    vi.setSystemTime(Date.now() + 30 * 60_000);
    const second = tracker.session();
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.isNewSession).toBe(true);
    expect(JSON.parse(env.storage.getItem(SESSION_KEY)!).sessionId).toBe(second.sessionId);
  });

  it("stays alive through the 60 s heartbeat while the page is visible", async () => {
    const { tracker } = setup();
    const first = tracker.session().sessionId;
    await vi.advanceTimersByTimeAsync(90 * 60_000);
    expect(tracker.session().sessionId).toBe(first);
  });
});

describe("failures", () => {
  it("retries a failed flush 3 times, 2 s apart, then succeeds", async () => {
    const { tracker, env, sent } = setup({}, ["retry", "retry", "retry", "ok"]);
    tracker.track({ eventType: "click", elementType: "website", locationId: "a" });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(sent).toHaveLength(4);
    // the same event ids every time, so the server counts the click once
    expect(new Set(sent.map((b) => b[0]!.eventId)).size).toBe(1);
    expect(tracker.pending).toEqual([]);
    expect(env.transport.send).toHaveBeenCalledTimes(4);
  });

  it("requeues after the retries run out, logs a warning, and sends at the next flush", async () => {
    const { tracker, sent, warn } = setup({}, ["retry", "retry", "retry", "retry"]);
    tracker.track({ eventType: "page_view", locationId: "a" });
    await vi.advanceTimersByTimeAsync(2_000 + 3 * 2_000);
    expect(sent).toHaveLength(4);
    expect(tracker.pending).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("kept for later"));
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(sent).toHaveLength(5);
    expect(tracker.pending).toEqual([]);
  });

  it("treats a thrown network error as a retry and drops a batch the server rejects", async () => {
    const { tracker, env, warn } = setup({}, ["drop"]);
    tracker.track({ eventType: "page_view" });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tracker.pending).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("rejected"));
    vi.mocked(env.transport.send).mockRejectedValueOnce(new TypeError("Failed to fetch"));
    tracker.track({ eventType: "page_view" });
    await vi.advanceTimersByTimeAsync(4_000);
    expect(tracker.pending).toEqual([]);
  });
});

describe("session wait and privacy", () => {
  it("waits for the sign-in session, polling every 100 ms for up to 2 s", async () => {
    const { tracker, sent, state, warn } = setup();
    state.auth = false;
    tracker.track({ eventType: "page_view" });
    await vi.advanceTimersByTimeAsync(2_000 + 500);
    expect(sent).toHaveLength(0);
    state.auth = true;
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toHaveLength(1);

    state.auth = false;
    tracker.track({ eventType: "page_view" });
    await vi.advanceTimersByTimeAsync(2_000 + 2_000);
    expect(sent).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("no session"));
    expect(tracker.pending).toHaveLength(1);
  });

  it("under Do-Not-Track sends only the traffic class, no browser, account or query", async () => {
    const { tracker, sent } = setup({ doNotTrack: true });
    tracker.track({ eventType: "page_view", locationId: "a" });
    await vi.advanceTimersByTimeAsync(2_000);
    const [event] = sent[0]!;
    expect(event).toMatchObject({ url: "https://rv.example/location/a", trafficSource: "google", locationId: "a" });
    expect(event!.userAgent).toBeUndefined();
    expect(event!.referrer).toBeUndefined();
    expect(event!.userId).toBeUndefined();
    expect(event!.viewport).toBeUndefined();
    expect(event!.samePath).toBeUndefined();
  });

  it("under Do-Not-Track says only that the page before had the same path, for search demand", async () => {
    const page = { origin: "https://rv.example", userAgent: "Test/1.0", viewport: { width: 390, height: 844 } };
    const resorted = setup({
      doNotTrack: true,
      page: () => ({
        ...page,
        url: "https://rv.example/rv-storage/austin-tx?sort=rating",
        referrer: "https://rv.example/rv-storage/austin-tx",
      }),
    });
    resorted.tracker.track({ eventType: "page_view" });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(resorted.sent[0]![0]).toMatchObject({
      url: "https://rv.example/rv-storage/austin-tx",
      trafficSource: "internal",
      samePath: true,
    });
    expect(resorted.sent[0]![0]!.referrer).toBeUndefined();

    const arrived = setup({
      doNotTrack: true,
      page: () => ({ ...page, url: "https://rv.example/rv-storage/austin-tx", referrer: "https://rv.example/" }),
    });
    arrived.tracker.track({ eventType: "page_view" });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(arrived.sent[0]![0]!.samePath).toBeUndefined();
  });
});
