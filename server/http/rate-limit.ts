/**
 * Fixed-window counters in memory, per key (an IP, an account, a session). Each app instance
 * counts for itself, so behind a load balancer with N instances a client gets at most N times the
 * limit: enough to stop password guessing and scripted floods, documented in docs/operations.md.
 */
export interface RateLimiter {
  hit(key: string): { ok: boolean; retryAfterSeconds: number };
  /** Gives back one hit (a sign-in that succeeded should not count against the address). */
  refund(key: string): void;
  reset(key: string): void;
}

export function createRateLimiter({
  windowMs,
  max,
  now = Date.now,
}: {
  windowMs: number;
  max: number;
  now?: () => number;
}): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();
  function sweep(time: number) {
    if (time - lastSweep < windowMs) return;
    lastSweep = time;
    for (const [key, w] of windows) if (time - w.start >= windowMs) windows.delete(key);
  }
  return {
    hit(key) {
      const time = now();
      sweep(time);
      let w = windows.get(key);
      if (!w || time - w.start >= windowMs) {
        w = { start: time, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      const retryAfterSeconds = Math.max(1, Math.ceil((w.start + windowMs - time) / 1000));
      return { ok: w.count <= max, retryAfterSeconds };
    },
    refund(key) {
      const w = windows.get(key);
      if (w && w.count > 0) w.count -= 1;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

/**
 * The client's address. Express (trust proxy off by default) puts the socket address in
 * X-Forwarded-For only when TRUST_PROXY is configured; see server/app.ts, which sets
 * `x-client-ip` on every request from Express's own `req.ip`.
 */
export function clientIp(request: Request): string {
  return request.headers.get("x-client-ip") ?? "unknown";
}

/** A 429 answer that names the wait. */
export function tooManyRequests(retryAfterSeconds: number, message = "Too many attempts. Please try again later.") {
  return Response.json({ error: message }, { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } });
}
