import { lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { rateLimits } from "../db/schema";
import type { BackoffOptions, RateLimiter } from "./rate-limit";

/**
 * A rate limiter whose counters live in the database, so every app instance behind a load
 * balancer counts against the same budget. One upsert per hit: cheap enough for sign-in, sign-up
 * and new sessions (not for the analytics hot path, which keeps per-instance counters).
 */
export interface SharedRateLimiter {
  hit(key: string): Promise<{ ok: boolean; retryAfterSeconds: number }>;
  refund(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/** Giving back one attempt and forgetting a key: the same for both kinds of shared limiter. */
function keyOperations(db: Database, id: (key: string) => string): Pick<SharedRateLimiter, "refund" | "reset"> {
  return {
    async refund(key) {
      await db.execute(sql`update rate_limits set count = greatest(count - 1, 0) where key = ${id(key)}`);
    },
    async reset(key) {
      await db.execute(sql`delete from rate_limits where key = ${id(key)}`);
    },
  };
}

export function createSharedRateLimiter(
  db: Database,
  { name, windowMs, max }: { name: string; windowMs: number; max: number },
): SharedRateLimiter {
  const id = (key: string) => `${name}:${key}`;
  const windowSeconds = windowMs / 1000;
  return {
    async hit(key) {
      const [row] = rowsOf(
        await db.execute(sql`
          insert into rate_limits as r (key, window_start, count) values (${id(key)}, now(), 1)
          on conflict (key) do update set
            window_start = case when r.window_start <= now() - make_interval(secs => ${windowSeconds})
              then now() else r.window_start end,
            count = case when r.window_start <= now() - make_interval(secs => ${windowSeconds})
              then 1 else r.count + 1 end
          returning count,
            ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now())))::int
              as retry_after`),
      );
      const count = Number(row?.count ?? 1);
      return { ok: count <= max, retryAfterSeconds: Math.max(1, Number(row?.retry_after ?? windowSeconds)) };
    },
    ...keyOperations(db, id),
  };
}

/**
 * createBackoffLimiter (server/http/rate-limit.ts) with its state in `rate_limits`: `count` is the
 * attempts since the key was last quiet for `quietMs`, and `window_start` the time of the latest
 * allowed attempt. One atomic upsert decides and records, so concurrent instances cannot all pass
 * through the same opening: the update runs only when the attempt is allowed (its WHERE is checked
 * on the locked, latest row), so a returned row means allowed and no row means refused. (Comparing
 * `window_start` with now() instead misjudged two statements within one clock tick.)
 */
export function createSharedBackoffLimiter(
  db: Database,
  { name, ...options }: BackoffOptions & { name: string },
): SharedRateLimiter {
  const id = (key: string) => `${name}:${key}`;
  const quietSeconds = options.quietMs / 1000;
  const delay = (count: ReturnType<typeof sql>) => sql`(case when ${count} < ${options.free} then interval '0'
    else make_interval(secs => least(${options.baseDelayMs / 1000}::float8
      * power(2::float8, least(${count} - ${options.free}, 30)), ${options.maxDelayMs / 1000}::float8)) end)`;
  const quiet = sql`r.window_start <= now() - make_interval(secs => ${quietSeconds})`;
  const early = sql`now() < r.window_start + ${delay(sql`r.count`)}`;
  return {
    async hit(key) {
      const allowed = rowsOf(
        await db.execute(sql`
          insert into rate_limits as r (key, window_start, count) values (${id(key)}, now(), 1)
          on conflict (key) do update set
            count = case when ${quiet} then 1 else r.count + 1 end,
            window_start = now()
          where ${quiet} or not (${early})
          returning 1 as allowed`),
      );
      if (allowed.length > 0) return { ok: true, retryAfterSeconds: 0 };
      const [row] = rowsOf(
        await db.execute(sql`
          select ceil(extract(epoch from (r.window_start + ${delay(sql`r.count`)} - now())))::int as retry_after
          from rate_limits r where r.key = ${id(key)}`),
      );
      return { ok: false, retryAfterSeconds: Math.max(1, Number(row?.retry_after ?? 1)) };
    },
    ...keyOperations(db, id),
  };
}

/** Wraps an in-memory limiter in the shared interface (one instance, e.g. on PGlite). */
export function localRateLimiter(limiter: RateLimiter): SharedRateLimiter {
  return {
    hit: async (key) => limiter.hit(key),
    refund: async (key) => limiter.refund(key),
    reset: async (key) => limiter.reset(key),
  };
}

/** Drops windows that ended more than a day ago (a daily job). */
export async function pruneRateLimits(db: Database, now = new Date()): Promise<number> {
  const removed = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, new Date(now.getTime() - 24 * 60 * 60 * 1000)))
    .returning({ key: rateLimits.key });
  return removed.length;
}
