import { asc, inArray, lte, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { cachePurges, type CachePurgeRow } from "../db/schema";
import { logger } from "../logger";
import { startOutboxPoller, type OutboxPoller } from "../outbox-poller";
import type { CacheRefresher } from "./refresher";

/**
 * Attempts before a purge is given up and logged. With the delays below the last one comes about
 * four minutes after the first; by s-maxage plus stale-while-revalidate (6 minutes by default) the
 * cache has let the old page go by itself, so trying longer would refresh nothing.
 */
export const MAX_ATTEMPTS = 6;

/** The wait after the Nth failed attempt (index N - 1). */
export const RETRY_DELAYS_MS = [5_000, 15_000, 30_000, 60_000, 120_000];

export function retryDelayMs(attempts: number): number {
  return RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1]!;
}

/**
 * How long a claimed row stays out of other workers' reach while this one refreshes it. A worker
 * that dies mid-batch leaves its rows to be taken again after the lease (at least once).
 */
export const LEASE_MS = 2 * 60_000;

export interface PurgeResult {
  /** Refreshed: every request answered, and the row deleted. */
  refreshed: number;
  retrying: number;
  /** Given up after MAX_ATTEMPTS, and deleted. */
  failed: number;
  /** Claimed but handed back untried because the lease was running out. */
  released: number;
}

/**
 * Refreshes the pages that are due, once.
 *
 * 1. A short transaction claims up to `batch` due rows (`next_attempt_at <= now`) with
 *    `SELECT … FOR UPDATE SKIP LOCKED`, counts the attempt, sets `claimed_at` and moves
 *    `next_attempt_at` to now + lease. Other workers, here or in other instances, skip the locked
 *    rows and find them not due once the claim commits: no row is refreshed by two workers at
 *    once, and no lock is held while talking to the cache. Rows a writer still holds (its
 *    transaction queued the path, or met it already queued, and has not committed) are skipped
 *    too, until that commit.
 * 2. Each path is refreshed outside any transaction, then its row deleted; or, on a failure, put
 *    back unclaimed with a back-off (merged into a row queued for the same path meanwhile); or
 *    deleted and logged after MAX_ATTEMPTS.
 *
 * `now` is the clock for the claim and every time written, so a test can run the worker in the
 * future; the lease budget is measured with the real clock. Once `signal` aborts (shutdown), the
 * page under way is finished and the rest handed back.
 */
export async function refreshDuePages(
  db: Database,
  refresher: CacheRefresher,
  options: { now?: Date; batch?: number; signal?: AbortSignal } = {},
): Promise<PurgeResult> {
  const now = options.now ?? new Date();
  const claimed = await claimDue(db, now, options.batch ?? 10);
  const result: PurgeResult = { refreshed: 0, retrying: 0, failed: 0, released: 0 };
  const started = performance.now();
  for (const [index, row] of claimed.entries()) {
    // Near the end of the lease, or shutting down: the rest go back untried, due at once.
    if (options.signal?.aborted || performance.now() - started > LEASE_MS - 2 * refresher.timeoutMs) {
      for (const rest of claimed.slice(index))
        if (
          await putBack(db, rest, { attempts: rest.attempts - 1, nextAttemptAt: new Date(), lastError: rest.lastError })
        )
          result.released++;
      break;
    }
    try {
      await refresher.refresh(row.path);
    } catch (error) {
      result[await recordFailure(db, row, error, now)]++;
      continue;
    }
    await db.execute(sql`delete from ${cachePurges} where id = ${row.id} and attempts = ${row.attempts}`);
    result.refreshed++;
  }
  return result;
}

async function claimDue(db: Database, now: Date, batch: number): Promise<CachePurgeRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: cachePurges.id })
      .from(cachePurges)
      // PostgreSQL keeps microseconds and a Date milliseconds: a row written in the millisecond of
      // `now` (queued, then kicked at once) is due too.
      .where(lte(cachePurges.nextAttemptAt, new Date(now.getTime() + 1)))
      .orderBy(asc(cachePurges.nextAttemptAt), asc(cachePurges.id))
      .limit(batch)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const rows = await tx
      .update(cachePurges)
      .set({
        attempts: sql`${cachePurges.attempts} + 1`,
        claimedAt: now,
        nextAttemptAt: new Date(now.getTime() + LEASE_MS),
      })
      .where(
        inArray(
          cachePurges.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    return rows.sort((a, b) => a.id - b.id);
  });
}

async function recordFailure(
  db: Database,
  row: CachePurgeRow,
  error: unknown,
  now: Date,
): Promise<"failed" | "retrying"> {
  const message = describeError(error);
  const fields = { path: row.path, attempts: row.attempts, error: message };
  if (row.attempts >= MAX_ATTEMPTS) {
    await db.execute(sql`delete from ${cachePurges} where id = ${row.id} and attempts = ${row.attempts}`);
    logger.error(fields, "the shared cache did not refresh a page after every retry; it expires there by itself");
    return "failed";
  }
  const delay = retryDelayMs(row.attempts);
  await putBack(db, row, {
    attempts: row.attempts,
    nextAttemptAt: new Date(now.getTime() + delay),
    lastError: message,
  });
  logger.warn({ ...fields, retryInMs: delay }, "the shared cache did not refresh a page; it will be retried");
  return "retrying";
}

/**
 * Makes a claimed row wait again, unclaimed, if it is still this claim's (had the lease run out
 * and another worker taken it, that claim counted a further attempt, and its outcome stands).
 * Deleted and queued again in one statement, because a row for the same path may have been queued
 * while this one was claimed: the two become one, keeping the larger count and this back-off.
 */
async function putBack(
  db: Database,
  row: CachePurgeRow,
  next: { attempts: number; nextAttemptAt: Date; lastError: string | null },
): Promise<boolean> {
  const result = await db.execute(sql`
    with mine as (
      delete from ${cachePurges} where id = ${row.id} and attempts = ${row.attempts} returning path, created_at
    )
    insert into ${cachePurges} (path, created_at, attempts, next_attempt_at, last_error)
    select path, created_at, ${next.attempts}, ${next.nextAttemptAt}, ${next.lastError} from mine
    on conflict (path) where claimed_at is null do update set
      attempts = greatest(${cachePurges.attempts}, excluded.attempts),
      next_attempt_at = excluded.next_attempt_at,
      last_error = excluded.last_error
    returning id`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 1000);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : "";
  return (detail && !error.message.includes(detail) ? `${error.message}: ${detail}` : error.message).slice(0, 1000);
}

export type PurgeWorker = OutboxPoller;

/**
 * Polls the queue every `intervalMs` (default 2 s: a page waits at most that long, plus the
 * refresh), 10 pages a batch (server/outbox-poller.ts); a stop finishes the page under way and
 * hands the rest of its batch back.
 */
export function startPurgeWorker(
  db: Database,
  refresher: CacheRefresher,
  options: { intervalMs?: number; batch?: number } = {},
): PurgeWorker {
  return startOutboxPoller({
    failure: "a shared cache purge run failed",
    intervalMs: options.intervalMs ?? 2000,
    batch: options.batch ?? 10,
    drain: async (batch, signal) => {
      const result = await refreshDuePages(db, refresher, { batch, signal });
      return result.refreshed + result.retrying + result.failed + result.released;
    },
  });
}
