import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import type { DatabaseHandle } from "../db/client";
import { rateLimits } from "../db/schema";
import { createSharedRateLimiter, pruneRateLimits } from "./shared-rate-limit";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

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
    const limiter = createSharedRateLimiter(handle.db, { name: "short", windowMs: 500, max: 1 });
    expect((await limiter.hit("k")).ok).toBe(true);
    expect((await limiter.hit("k")).ok).toBe(false);
    await new Promise((r) => setTimeout(r, 650));
    expect((await limiter.hit("k")).ok).toBe(true);
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

  it("drops windows that ended more than a day ago", async () => {
    await handle.db
      .insert(rateLimits)
      .values({ key: "old:x", windowStart: new Date(Date.now() - 2 * 86_400_000), count: 5 });
    expect(await pruneRateLimits(handle.db)).toBe(1);
  });
});
