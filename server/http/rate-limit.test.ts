import { describe, expect, it } from "vitest";
import { clientIp, createRateLimiter, tooManyRequests } from "./rate-limit";

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
