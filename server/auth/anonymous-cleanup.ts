import { and, eq, lt, notExists, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { sessions, users } from "../db/schema";
import { logger } from "../logger";

export const ANONYMOUS_IDLE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes anonymous accounts idle for 30 days: created more than 30 days ago and with no session
 * used (better-auth moves a session's updated_at at most daily while it is in use) since then.
 * Their sessions go with them (foreign key cascade). Returns how many were removed.
 */
export async function purgeIdleAnonymousUsers(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ANONYMOUS_IDLE_DAYS * DAY_MS);
  const recentSession = db
    .select({ one: sql`1` })
    .from(sessions)
    .where(and(eq(sessions.userId, users.id), sql`${sessions.updatedAt} >= ${cutoff.toISOString()}`));
  const removed = await db
    .delete(users)
    .where(and(eq(users.isAnonymous, true), lt(users.createdAt, cutoff), notExists(recentSession)))
    .returning({ id: users.id });
  return removed.length;
}

/**
 * Runs the purge once shortly after start-up and then every 24 hours in each app instance
 * (several instances purging at once is harmless: the delete is idempotent). `npm run
 * auth:purge-anonymous` runs it once, for a cron job when the schedule should live outside.
 */
export function scheduleAnonymousPurge(db: Database, everyMs = DAY_MS): () => void {
  const run = () =>
    purgeIdleAnonymousUsers(db).then(
      (count) => count > 0 && logger.info({ count }, "purged idle anonymous accounts"),
      (error: unknown) => logger.warn({ err: error }, "could not purge idle anonymous accounts"),
    );
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
