import http from "node:http";
import type { AddressInfo } from "node:net";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { unusedPort } from "../../tests/setup/smtp";
import { parseConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import {
  auditLog,
  cachePurges,
  cachePurgeSettings,
  listingOwners,
  locations,
  reviewReplies,
  reviews,
  reviewVotes,
  users,
} from "../db/schema";
import { CACHE_PURGE_MESSAGES, queuePagePurge } from "./admin";
import { kickPurges, startCachePurges, stopCachePurges } from "./index";
import { enqueuePurge, setCachePurging } from "./purges";
import { LEASE_MS, MAX_ATTEMPTS, refreshDuePages, RETRY_DELAYS_MS } from "./purge-worker";
import { createCacheRefresher, type CacheRefresher } from "./refresher";

const TOKEN = "test-purge-token-0123456789";
let handle: DatabaseHandle;
const db = () => handle.db;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});
beforeEach(async () => {
  await stopCachePurges();
  await db().delete(listingOwners);
  await db().delete(reviews);
  await db().delete(locations);
  await db().delete(users);
  await setCachePurging(db(), true);
  await db().delete(cachePurges);
});
afterEach(async () => {
  await stopCachePurges();
  await Promise.all(caches.splice(0).map((cache) => cache.close()));
});

// ---------------------------------------------------------------- a stand-in for the cache

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

interface StandInCache {
  url: string;
  received: Received[];
  /** The status of the next answers (200 unless set). */
  status: number;
  close(): Promise<void>;
}

const caches: StandInCache[] = [];

/** An HTTP server that records each request and answers a small page with `status`. */
async function standInCache(port = 0): Promise<StandInCache> {
  const received: Received[] = [];
  const cache: StandInCache = { url: "", received, status: 200, close: async () => {} };
  const server = http.createServer((req, res) => {
    received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    res.writeHead(cache.status, { "Content-Type": "text/html" });
    res.end("<!doctype html><p>page</p>");
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  cache.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cache.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  caches.push(cache);
  return cache;
}

const refresherFor = (cache: { url: string }, timeoutMs = 5000): CacheRefresher =>
  createCacheRefresher({ baseUrl: cache.url, token: TOKEN, timeoutMs });

// ---------------------------------------------------------------- data

const listing = (n: number, slug = `storage-${n}`) => ({ placeId: `place-${n}`, slug, name: `Storage ${n}` });

async function queued(): Promise<string[]> {
  return (await db().select({ path: cachePurges.path }).from(cachePurges).orderBy(asc(cachePurges.path))).map(
    (row) => row.path,
  );
}

async function purgeRows() {
  return db().select().from(cachePurges).orderBy(asc(cachePurges.id));
}

async function user(id: string) {
  await db()
    .insert(users)
    .values({ id, name: id, email: `${id}@example.com` });
}

async function review(locationId: string, authorId: string, status: "held" | "published") {
  const [row] = await db()
    .insert(reviews)
    .values({
      locationId,
      authorId,
      authorName: authorId,
      stars: 4,
      title: "Fine",
      body: "A fine place to keep an RV over winter.",
      stayMonth: "2026-01",
      storedKind: "class_c",
      lengthFeet: 28,
      status,
    })
    .returning({ id: reviews.id });
  return row!.id;
}

const later = (ms: number) => new Date(Date.now() + ms);

// ---------------------------------------------------------------- what queues a page

describe("the triggers queue the facility pages a write changes", () => {
  it("queues a listing's page once when its name is edited", async () => {
    await db().insert(locations).values(listing(1));
    await db().delete(cachePurges);

    await db().update(locations).set({ name: "Renamed Storage" }).where(eq(locations.placeId, "place-1"));

    const rows = await purgeRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ path: "/location/storage-1", attempts: 0, claimedAt: null, lastError: null });
  });

  it("queues the old and the new address when the slug changes", async () => {
    await db().insert(locations).values(listing(1));
    await db().delete(cachePurges);

    await db().update(locations).set({ slug: "storage-1-renamed" }).where(eq(locations.placeId, "place-1"));

    expect(await queued()).toEqual(["/location/storage-1", "/location/storage-1-renamed"]);
  });

  it("coalesces fifty edits before the worker comes by into one row", async () => {
    await db().insert(locations).values(listing(1));
    for (let i = 0; i < 50; i++)
      await db()
        .update(locations)
        .set({ name: `Edit ${i}` })
        .where(eq(locations.placeId, "place-1"));
    expect(await queued()).toEqual(["/location/storage-1"]);
  });

  it("queues inserted and deleted listings, one row per page for a many-row statement", async () => {
    await db()
      .insert(locations)
      .values([1, 2, 3].map((n) => listing(n)));
    expect(await queued()).toEqual(["/location/storage-1", "/location/storage-2", "/location/storage-3"]);
    await db().delete(cachePurges);

    await db().delete(locations).where(eq(locations.placeId, "place-2"));
    expect(await queued()).toEqual(["/location/storage-2"]);
    await db().delete(cachePurges);

    // A statement touching many rows: one INSERT, one row per page.
    await db()
      .update(locations)
      .set({ tier: "Pro" })
      .where(sql`true`);
    expect(await queued()).toEqual(["/location/storage-1", "/location/storage-3"]);
  });

  it("queues the page for a published review, its reply, its votes and the listing's owner; not for a held review", async () => {
    await db().insert(locations).values(listing(1));
    await user("author");
    await user("voter");
    await db().delete(cachePurges);

    const held = await review("place-1", "author", "held");
    expect(await queued()).toEqual([]);

    await db().update(reviews).set({ status: "published" }).where(eq(reviews.id, held));
    expect(await queued()).toEqual(["/location/storage-1"]);
    await db().delete(cachePurges);

    await db().insert(reviewReplies).values({ reviewId: held, body: "Thank you!" });
    expect(await queued()).toEqual(["/location/storage-1"]);
    await db().delete(cachePurges);

    // A "helpful" vote moves the review's count (server/reviews/service.ts).
    await db().insert(reviewVotes).values({ reviewId: held, userId: "voter" });
    await db()
      .update(reviews)
      .set({ helpfulCount: sql`${reviews.helpfulCount} + 1` })
      .where(eq(reviews.id, held));
    expect(await queued()).toEqual(["/location/storage-1"]);
    await db().delete(cachePurges);

    await db().insert(listingOwners).values({ locationId: "place-1", userId: "author" });
    expect(await queued()).toEqual(["/location/storage-1"]);
    await db().delete(cachePurges);

    await db().delete(reviews).where(eq(reviews.id, held));
    expect(await queued()).toEqual(["/location/storage-1"]);
  });

  it("queues nothing while purging is off, and drops what waited when it is turned off", async () => {
    await db().insert(locations).values(listing(1));
    expect(await queued()).toEqual(["/location/storage-1"]);

    await setCachePurging(db(), false);
    expect(await queued()).toEqual([]);
    await db().insert(locations).values(listing(2));
    await db()
      .update(locations)
      .set({ name: "Renamed" })
      .where(sql`true`);
    await db().delete(locations).where(eq(locations.placeId, "place-1"));
    expect(await queued()).toEqual([]);

    // No settings row at all (a fresh database, a tool before the site's first start) is off too.
    await db().delete(cachePurgeSettings);
    await db()
      .update(locations)
      .set({ name: "Again" })
      .where(sql`true`);
    expect(await queued()).toEqual([]);
  });

  it("leaves nothing of a rolled-back write", async () => {
    await db().insert(locations).values(listing(1));
    await db().delete(cachePurges);
    await db()
      .transaction(async (tx) => {
        await tx.update(locations).set({ name: "Never" }).where(eq(locations.placeId, "place-1"));
        throw new Error("the edit could not be saved");
      })
      .catch(() => {});
    expect(await queued()).toEqual([]);
  });
});

// ---------------------------------------------------------------- the worker

describe("the worker refreshes queued pages in the cache", () => {
  it("asks for each page and its data request once per encoding, with the token and no cookie, then deletes the row", async () => {
    const cache = await standInCache();
    await enqueuePurge(db(), "/location/storage-1");

    const result = await refreshDuePages(db(), refresherFor(cache));

    expect(result).toEqual({ refreshed: 1, retrying: 0, failed: 0, released: 0 });
    const asked = cache.received.map((r) => `${r.method} ${r.url} ${r.headers["accept-encoding"]}`).sort();
    expect(asked).toEqual([
      "GET /location/storage-1 br",
      "GET /location/storage-1 gzip",
      "GET /location/storage-1 identity",
      "GET /location/storage-1.data br",
      "GET /location/storage-1.data gzip",
      "GET /location/storage-1.data identity",
    ]);
    for (const request of cache.received) {
      expect(request.headers["x-cache-purge"]).toBe(TOKEN);
      expect(request.headers.cookie).toBeUndefined();
    }
    expect(await purgeRows()).toEqual([]);
    // Nothing is refreshed twice.
    expect((await refreshDuePages(db(), refresherFor(cache), { now: later(86_400_000) })).refreshed).toBe(0);
    expect(cache.received).toHaveLength(6);
  });

  it("takes 3xx, 404 and 410 as done", async () => {
    const cache = await standInCache();
    for (const status of [301, 404, 410]) {
      cache.status = status;
      await enqueuePurge(db(), "/location/gone");
      expect((await refreshDuePages(db(), refresherFor(cache))).refreshed).toBe(1);
    }
    expect(await purgeRows()).toEqual([]);
  });

  it("keeps a page the cache answered 500 for, with the attempt counted and a back-off, and refreshes it later", async () => {
    const cache = await standInCache();
    cache.status = 500;
    await enqueuePurge(db(), "/location/storage-1");
    const before = Date.now();

    expect(await refreshDuePages(db(), refresherFor(cache))).toMatchObject({ refreshed: 0, retrying: 1 });

    const [row] = await purgeRows();
    expect(row).toMatchObject({ path: "/location/storage-1", attempts: 1, claimedAt: null });
    expect(row!.lastError).toMatch(/HTTP 500/);
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + RETRY_DELAYS_MS[0]!);
    // Not due before the back-off has passed.
    expect(await refreshDuePages(db(), refresherFor(cache))).toMatchObject({ refreshed: 0, retrying: 0 });
    expect(cache.received).toHaveLength(6);

    cache.status = 200;
    expect(await refreshDuePages(db(), refresherFor(cache), { now: later(RETRY_DELAYS_MS[0]! + 1000) })).toMatchObject({
      refreshed: 1,
    });
    expect(await purgeRows()).toEqual([]);
  });

  it("retries while the cache cannot be reached, and gives a page up after the last attempt", async () => {
    const port = await unusedPort();
    const refresher = refresherFor({ url: `http://127.0.0.1:${port}` });
    await enqueuePurge(db(), "/location/storage-1");

    let now = Date.now();
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect(await refreshDuePages(db(), refresher, { now: new Date(now) })).toMatchObject({ retrying: 1 });
      const [row] = await purgeRows();
      expect(row).toMatchObject({ attempts: attempt });
      expect(row!.lastError).toMatch(/fetch failed|ECONNREFUSED/);
      now = row!.nextAttemptAt.getTime();
    }
    expect(await refreshDuePages(db(), refresher, { now: new Date(now) })).toMatchObject({ failed: 1 });
    expect(await purgeRows()).toEqual([]);
  });

  it("gives up on a request the cache does not answer in time", async () => {
    const server = http.createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await enqueuePurge(db(), "/location/storage-1");
      const result = await refreshDuePages(db(), refresherFor({ url }, 200));
      expect(result).toMatchObject({ retrying: 1 });
      expect((await purgeRows())[0]!.lastError).toMatch(/no answer in time/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refreshes each page once when two workers claim at the same time", async () => {
    const cache = await standInCache();
    const count = 30;
    for (let i = 0; i < count; i++) await enqueuePurge(db(), `/location/storage-${i}`);
    const refresher = refresherFor(cache);
    const drain = async () => {
      let refreshed = 0;
      for (;;) {
        const result = await refreshDuePages(db(), refresher, { batch: 4 });
        refreshed += result.refreshed;
        if (result.refreshed + result.retrying + result.failed === 0) return refreshed;
      }
    };

    const [a, b] = await Promise.all([drain(), drain()]);

    expect(a + b).toBe(count);
    expect(cache.received).toHaveLength(count * 6);
    const perPage = new Map<string, number>();
    for (const r of cache.received) perPage.set(r.url, (perPage.get(r.url) ?? 0) + 1);
    expect([...perPage.values()].every((n) => n === 3)).toBe(true);
    expect(perPage.size).toBe(count * 2);
    expect(await purgeRows()).toEqual([]);
  });

  it("queues an edit made while its page is being refreshed again, and merges a failed refresh into it", async () => {
    const cache = await standInCache();
    await db().insert(locations).values(listing(1));
    let edited = false;
    // The edit lands while the refresh is under way: that refresh may have read the page before it.
    const refresher: CacheRefresher = {
      timeoutMs: 1000,
      async refresh(path) {
        if (!edited) {
          edited = true;
          await db().update(locations).set({ name: "Edited meanwhile" }).where(eq(locations.placeId, "place-1"));
          expect(await purgeRows()).toHaveLength(2);
          throw new Error("HTTP 502");
        }
        await refresherFor(cache).refresh(path);
      },
    };

    expect(await refreshDuePages(db(), refresher)).toMatchObject({ retrying: 1 });
    const rows = await purgeRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ path: "/location/storage-1", attempts: 1, claimedAt: null, lastError: "HTTP 502" });

    expect(await refreshDuePages(db(), refresher, { now: later(RETRY_DELAYS_MS[0]! + 1000) })).toMatchObject({
      refreshed: 1,
    });
    expect(await purgeRows()).toEqual([]);
  });

  it("takes a claimed row again after the lease of a worker that died", async () => {
    const cache = await standInCache();
    await enqueuePurge(db(), "/location/storage-1");
    await db()
      .update(cachePurges)
      .set({ attempts: 1, claimedAt: new Date(), nextAttemptAt: later(LEASE_MS) });

    expect((await refreshDuePages(db(), refresherFor(cache))).refreshed).toBe(0);
    expect((await refreshDuePages(db(), refresherFor(cache), { now: later(LEASE_MS + 1000) })).refreshed).toBe(1);
    expect(await purgeRows()).toEqual([]);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "does not refresh a page before the writer that met it queued has committed",
    async () => {
      const cache = await standInCache();
      await db().insert(locations).values(listing(1));
      let commit = () => {};
      const committed = new Promise<void>((resolve) => (commit = resolve));
      let locked = () => {};
      const holding = new Promise<void>((resolve) => (locked = resolve));
      const writer = db().transaction(async (tx) => {
        await tx.update(locations).set({ name: "Slow edit" }).where(eq(locations.placeId, "place-1"));
        locked();
        await committed;
      });
      await holding;

      expect((await refreshDuePages(db(), refresherFor(cache))).refreshed).toBe(0);
      commit();
      await writer;
      expect((await refreshDuePages(db(), refresherFor(cache))).refreshed).toBe(1);
    },
  );
});

// ---------------------------------------------------------------- start, stop and the admin form

describe("starting with and without a shared cache", () => {
  it("sends nothing and keeps no row without CACHE_PURGE_URL", async () => {
    const cache = await standInCache();
    await enqueuePurge(db(), "/location/left-over");

    await startCachePurges(db(), { config: parseConfig({}), intervalMs: 10 });
    kickPurges();

    expect(await queued()).toEqual([]);
    await db().insert(locations).values(listing(1));
    expect(await queued()).toEqual([]);
    expect(cache.received).toEqual([]);
    const [setting] = await db().select().from(cachePurgeSettings);
    expect(setting?.enabled).toBe(false);
  });

  it("refreshes a changed listing's page soon after the commit with CACHE_PURGE_URL", async () => {
    const cache = await standInCache();
    await setCachePurging(db(), false);
    const config = parseConfig({ CACHE_PURGE_URL: cache.url, CACHE_PURGE_TOKEN: TOKEN });

    await startCachePurges(db(), { config, intervalMs: 60_000 });
    await db().insert(locations).values(listing(1));
    kickPurges();

    await expect.poll(() => cache.received.length).toBe(6);
    await expect.poll(() => queued()).toEqual([]);
    expect(cache.received.every((r) => r.headers["x-cache-purge"] === TOKEN)).toBe(true);
  });

  it("queues an administrator's page with an audit row, and refuses others and bad input", async () => {
    const config = parseConfig({ PUBLIC_URL: "https://rvstorage.example" });
    const admin = { userId: "admin-1", email: "admin@example.com", isAdmin: true };

    const { path } = await queuePagePurge(db(), {
      actor: admin,
      input: "https://rvstorage.example/blog/winter?x=1#top",
      requestId: "req-1",
      config,
    });
    expect(path).toBe("/blog/winter?x=1");
    expect(await queued()).toEqual(["/blog/winter?x=1"]);
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "cache.purge"));
    expect(audit).toMatchObject({
      actorId: "admin-1",
      subjectType: "page",
      subjectId: "/blog/winter?x=1",
      requestId: "req-1",
    });
    expect(CACHE_PURGE_MESSAGES.queued(path)).toBe(
      "Queued: /blog/winter?x=1 — the cache refreshes it within a minute.",
    );

    await expect(
      queuePagePurge(db(), { actor: { ...admin, isAdmin: false }, input: "/blog", requestId: null, config }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      queuePagePurge(db(), { actor: admin, input: "https://evil.example/blog", requestId: null, config }),
    ).rejects.toMatchObject({ status: 400, details: { field: "path" } });
    expect(await queued()).toEqual(["/blog/winter?x=1"]);
  });
});
