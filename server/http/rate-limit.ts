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

export interface BackoffOptions {
  /** Attempts allowed without any wait. */
  free: number;
  /** The wait after the first attempt beyond `free`; it doubles with each further one. */
  baseDelayMs: number;
  /** The longest wait between two attempts. */
  maxDelayMs: number;
  /** After this long without an attempt, the key starts afresh. */
  quietMs: number;
}

/** How long after the last attempt the next may come, once `count` attempts have been made. */
export function backoffDelayMs(count: number, { free, baseDelayMs, maxDelayMs }: BackoffOptions): number {
  if (count < free) return 0;
  // Capping the exponent keeps 2^n finite; the ceiling is reached long before.
  return Math.min(baseDelayMs * 2 ** Math.min(count - free, 30), maxDelayMs);
}

/**
 * A growing wait instead of a wall: `free` attempts, then each further one must come a little
 * later after the previous (1 s, 2 s, 4 s … up to `maxDelayMs`). Refused attempts do not count
 * and do not lengthen the wait. For a budget that strangers share with the rightful user (all
 * sign-ins to one account), so an attack is slowed without locking the owner out for long.
 */
export function createBackoffLimiter(options: BackoffOptions & { now?: () => number }): RateLimiter {
  const { quietMs, now = Date.now } = options;
  const keys = new Map<string, { last: number; count: number }>();
  let lastSweep = now();
  function sweep(time: number) {
    if (time - lastSweep < quietMs) return;
    lastSweep = time;
    for (const [key, k] of keys) if (time - k.last >= quietMs) keys.delete(key);
  }
  return {
    hit(key) {
      const time = now();
      sweep(time);
      const k = keys.get(key);
      if (!k || time - k.last >= quietMs) {
        keys.set(key, { last: time, count: 1 });
        return { ok: true, retryAfterSeconds: 0 };
      }
      const until = k.last + backoffDelayMs(k.count, options);
      if (time < until) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((until - time) / 1000)) };
      k.count += 1;
      k.last = time;
      return { ok: true, retryAfterSeconds: 0 };
    },
    refund(key) {
      const k = keys.get(key);
      if (k && k.count > 0) k.count -= 1;
    },
    reset(key) {
      keys.delete(key);
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
