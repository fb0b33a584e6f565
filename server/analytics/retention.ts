import { sql } from "drizzle-orm";
import type { Database } from "../db/client";

export interface RetentionPolicy {
  /** Raw events (and analytics session records) older than this are deleted; the counters they fed stay. Default 90 days. */
  rawEventDays?: number;
  /** Daily unique-session marks older than this; events older than 7 days are refused anyway. */
  dailySessionDays?: number;
}

/**
 * Deletes what the counters no longer need: raw events past their retention (kept for audits and
 * recounts), the per-day unique-session marks of days that can no longer receive events, and the
 * cap counters of past hours and days. The all-time marks stay: they are what makes a returning
 * session not count as a new visitor.
 */
export async function pruneAnalytics(
  db: Database,
  { rawEventDays = 90, dailySessionDays = 8 }: RetentionPolicy = {},
  now = new Date(),
): Promise<{ events: number; dailySessions: number; sessions: number; sessionCaps: number; ipBudgets: number }> {
  const rawCutoff = new Date(now.getTime() - rawEventDays * 86_400_000).toISOString();
  const dayCutoff = new Date(now.getTime() - dailySessionDays * 86_400_000).toISOString().slice(0, 10);
  const events = await db.execute(sql`delete from analytics_events where received_at < ${rawCutoff}::timestamptz`);
  const marks = await db.execute(sql`delete from analytics_daily_unique_sessions where date < ${dayCutoff}::date`);
  const sessions = await db.execute(
    sql`delete from analytics_sessions where last_activity < ${rawCutoff}::timestamptz`,
  );
  // The cap counters matter only for the current hour and UTC day (server/analytics/caps.ts).
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const caps = await db.execute(sql`delete from analytics_session_caps where hour < ${hourAgo}::timestamptz`);
  const budgets = await db.execute(sql`delete from analytics_ip_budgets where date < ${yesterday}::date`);
  const count = (r: unknown) =>
    Number(
      (r as { rowCount?: number; affectedRows?: number }).rowCount ??
        (r as { affectedRows?: number }).affectedRows ??
        0,
    );
  return {
    events: count(events),
    dailySessions: count(marks),
    sessions: count(sessions),
    sessionCaps: count(caps),
    ipBudgets: count(budgets),
  };
}

/** Search demand per day is kept this long; the monthly and platform roll-ups stay (ADR 017). */
export const SEARCH_DEMAND_DAYS = 731;

/**
 * Deletes the daily search demand of whole months that ended more than `days` (2 years) ago, so
 * that a month is either all in `search_demand_daily` or not at all (a rebuild of the monthly
 * roll-up then never sees half a month). The monthly and platform rows are kept.
 */
export async function pruneSearchDemand(db: Database, days = SEARCH_DEMAND_DAYS, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 7);
  const result = await db.execute(sql`delete from search_demand_daily where date < ${`${cutoff}-01`}::date`);
  return Number((result as { rowCount?: number; affectedRows?: number }).rowCount ?? 0);
}
