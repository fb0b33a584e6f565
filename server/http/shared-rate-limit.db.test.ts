import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { rateLimits } from "../db/schema";
import { sql } from "drizzle-orm";
import { createSharedBackoffLimiter, createSharedRateLimiter, pruneRateLimits } from "./shared-rate-limit";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

/** Moves a key's window (or last attempt) back in time instead of waiting: the limiters read the database's now(). */
const travel = (key: string, seconds: number) =>
  handle.db.execute(
    sql`update rate_limits set window_start = window_start - make_interval(secs => ${seconds}) where key = ${key}`,
  );

describe("rate limits shared through the database", () => {
  it("allows max hits per window per key, across limiter instances (as across app instances)", async () => {
    const one = createSharedRateLimiter(handle.db, { name: "t", windowMs: 60_000, max: 3 });
    const other = createSharedRateLimiter(handle.db, { name: "t", windowMs: 60_000, max: 3 });
    expect((await one.hit("a")).ok).toBe(true);
    expect((await other.hit("a")).ok).toBe(true);
    expect((await one.hit("a")).ok).toBe(true);
    const blocked = await other.hit("a");
    expect(blocked.ok).toBe(false);
    expect(blocked.retryAfterSeconds).toBeGreaterThan(50);
    expect(blocked.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another key, or the same key under another limiter's name, has its own budget.
    expect((await one.hit("b")).ok).toBe(true);
    expect((await createSharedRateLimiter(handle.db, { name: "u", windowMs: 60_000, max: 1 }).hit("a")).ok).toBe(true);
  });

  it("starts a new window once the old one has passed", async () => {
    const limiter = createSharedRateLimiter(handle.db, { name: "short", windowMs: 60_000, max: 1 });
    expect((await limiter.hit("k")).ok).toBe(true);
    expect((await limiter.hit("k")).ok).toBe(false);
    await travel("short:k", 60);
    expect((await limiter.hit("k")).ok).toBe(true);
    // The new window counts from that hit.
    expect((await limiter.hit("k")).ok).toBe(false);
  });

  it("refunds one hit and resets a key", async () => {
    const limiter = createSharedRateLimiter(handle.db, { name: "r", windowMs: 60_000, max: 1 });
    await limiter.hit("k");
    await limiter.refund("k");
    expect((await limiter.hit("k")).ok).toBe(true);
    expect((await limiter.hit("k")).ok).toBe(false);
    await limiter.reset("k");
    expect((await limiter.hit("k")).ok).toBe(true);
  });

  it("counts concurrent hits exactly", async () => {
    const limiter = createSharedRateLimiter(handle.db, { name: "c", windowMs: 60_000, max: 10 });
    const results = await Promise.all(Array.from({ length: 15 }, () => limiter.hit("burst")));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
  });

  it("backs off like the in-memory limiter, across instances", async () => {
    const options = { name: "b", free: 2, baseDelayMs: 60_000, maxDelayMs: 240_000, quietMs: 3_600_000 };
    const one = createSharedBackoffLimiter(handle.db, options);
    const other = createSharedBackoffLimiter(handle.db, options);
    expect((await one.hit("k")).ok).toBe(true);
    expect((await other.hit("k")).ok).toBe(true);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const refused = await one.hit("k");
      expect(refused.ok).toBe(false);
      expect((await other.hit("k")).ok).toBe(false);
      waits.push(refused.retryAfterSeconds);
      await travel("b:k", refused.retryAfterSeconds);
      expect((await other.hit("k")).ok).toBe(true);
    }
    expect(waits.map((w) => Math.round(w / 60))).toEqual([1, 2, 4, 4]);
    await other.refund("k");
    const [row] = await handle.db
      .select()
      .from(rateLimits)
      .where(sql`key = 'b:k'`);
    expect(row?.count).toBe(5);
    await travel("b:k", 3_600);
    expect((await one.hit("k")).ok).toBe(true);
    expect((await other.hit("k")).ok).toBe(true);
    expect((await one.hit("k")).ok).toBe(false);
    await one.reset("k");
    expect((await one.hit("k")).ok).toBe(true);
  });

  it("lets only the free attempts of a concurrent burst through", async () => {
    const limiter = createSharedBackoffLimiter(handle.db, {
      name: "burst",
      free: 3,
      baseDelayMs: 60_000,
      maxDelayMs: 60_000,
      quietMs: 3_600_000,
    });
    const results = await Promise.all(Array.from({ length: 12 }, () => limiter.hit("k")));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
  });

  it("drops windows that ended more than a day ago", async () => {
    await handle.db
      .insert(rateLimits)
      .values({ key: "old:x", windowStart: new Date(Date.now() - 2 * 86_400_000), count: 5 });
    expect(await pruneRateLimits(handle.db)).toBe(1);
  });
});
