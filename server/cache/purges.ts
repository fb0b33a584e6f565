import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { cachePurges, cachePurgeSettings } from "../db/schema";
import { CACHE_PURGE_PATH_MAX } from "./purge-path";

/**
 * Queues `path` for a refresh in the shared cache, in the caller's transaction: it is refreshed if
 * and only if that transaction commits. A path already waiting is not queued twice; the waiting
 * row stays locked until the caller commits, so the worker cannot refresh it before the change it
 * stands for is visible (the triggers of migration 0031 do the same). Call `kickPurges()` after
 * the commit to have it refreshed at once rather than at the next poll.
 */
export async function enqueuePurge(db: Database, path: string): Promise<void> {
  if (!path.startsWith("/") || path.length > CACHE_PURGE_PATH_MAX)
    throw new Error(`not a path of at most ${CACHE_PURGE_PATH_MAX} characters: ${path.slice(0, 100)}`);
  await db.execute(sql`
    insert into ${cachePurges} (path) values (${path})
    on conflict (path) where claimed_at is null do update set path = excluded.path`);
}

/**
 * Turns the triggers' purging on or off for every instance (`cache_purge_settings`), as the
 * configuration says at start: on with CACHE_PURGE_URL. Turned off, what waits is dropped, since
 * nothing will send it.
 */
export async function setCachePurging(db: Database, enabled: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(cachePurgeSettings)
      .values({ id: 1, enabled })
      .onConflictDoUpdate({ target: cachePurgeSettings.id, set: { enabled, updatedAt: sql`now()` } });
    if (!enabled) await tx.delete(cachePurges);
  });
}
