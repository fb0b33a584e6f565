import { describe, expect, it } from "vitest";
import { backoffDelayMs, clientIp, createBackoffLimiter, createRateLimiter, tooManyRequests } from "./rate-limit";

describe("fixed-window rate limiter", () => {
  it("allows max hits per window per key, then says how long to wait", () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ windowMs: 60_000, max: 3, now: () => now });
    expect([1, 2, 3].map(() => limiter.hit("a").ok)).toEqual([true, true, true]);
    expect(limiter.hit("a")).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(limiter.hit("b").ok).toBe(true);
    now += 45_000;
    expect(limiter.hit("a")).toEqual({ ok: false, retryAfterSeconds: 15 });
    now += 15_000;
    expect(limiter.hit("a").ok).toBe(true);
  });

  it("gives a hit back on refund", () => {
    const limiter = createRateLimiter({ windowMs: 60_000, max: 1 });
    limiter.hit("k");
    limiter.refund("k");
    expect(limiter.hit("k").ok).toBe(true);
    expect(limiter.hit("k").ok).toBe(false);
  });

  it("forgets a key on reset", () => {
    const limiter = createRateLimiter({ windowMs: 60_000, max: 1 });
    limiter.hit("k");
    expect(limiter.hit("k").ok).toBe(false);
    limiter.reset("k");
    expect(limiter.hit("k").ok).toBe(true);
  });

  it("answers 429 with Retry-After, and reads the address the server set", async () => {
    const response = tooManyRequests(12);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("12");
    expect(await response.json()).toEqual({ error: "Too many attempts. Please try again later." });
    expect(clientIp(new Request("http://x/", { headers: { "x-client-ip": "203.0.113.5" } }))).toBe("203.0.113.5");
    expect(clientIp(new Request("http://x/"))).toBe("unknown");
  });
});

describe("backoff limiter", () => {
  const options = { free: 3, baseDelayMs: 1_000, maxDelayMs: 8_000, quietMs: 60_000 };

  it("lets the free attempts through, then asks for a wait that doubles up to a ceiling", () => {
    let now = 5_000_000;
    const limiter = createBackoffLimiter({ ...options, now: () => now });
    expect([1, 2, 3].map(() => limiter.hit("a").ok)).toEqual([true, true, true]);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const refused = limiter.hit("a");
      expect(refused.ok).toBe(false);
      waits.push(refused.retryAfterSeconds);
      // A refused attempt does not make the wait longer.
      expect(limiter.hit("a").retryAfterSeconds).toBe(refused.retryAfterSeconds);
      now += refused.retryAfterSeconds * 1_000;
      expect(limiter.hit("a").ok).toBe(true);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]);
    expect(limiter.hit("b").ok).toBe(true);
  });

  it("forgets a key after a quiet period, and gives a hit back on refund", () => {
    let now = 0;
    const limiter = createBackoffLimiter({ ...options, now: () => now });
    for (let i = 0; i < 3; i++) limiter.hit("k");
    expect(limiter.hit("k").ok).toBe(false);
    limiter.refund("k");
    expect(limiter.hit("k").ok).toBe(true);
    expect(limiter.hit("k").ok).toBe(false);
    now += 60_000;
    expect([1, 2, 3].map(() => limiter.hit("k").ok)).toEqual([true, true, true]);
    limiter.reset("k");
    expect([1, 2, 3].map(() => limiter.hit("k").ok)).toEqual([true, true, true]);
  });

  it("computes the delay from the count without overflowing", () => {
    expect([0, 2, 3, 4, 5, 6, 1e6].map((count) => backoffDelayMs(count, options))).toEqual([
      0, 0, 1_000, 2_000, 4_000, 8_000, 8_000,
    ]);
  });
});
