import { and, eq, lt, notExists, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { sessions, users } from "../db/schema";

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
