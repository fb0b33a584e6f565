import { sql } from "drizzle-orm";
import { RAW_EVENT_DAYS } from "../../domain/analytics-period";
import type { Database } from "../db/client";

/**
 * The admin analytics roll-ups (docs/decisions/017-admin-analytics-rollups.md). Triggers keep the
 * counter roll-ups; this module counts the daily visitors, which a trigger cannot (a distinct
 * count), and can rebuild everything from the tables the roll-ups come from.
 */

const DAY_MS = 86_400_000;
/** A day's visits can still change this many days later: events up to 7 days old are accepted. */
export const VISITOR_DAY_SETTLES_DAYS = 8;

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const affected = (r: unknown) =>
  Number(
    (r as { rowCount?: number; affectedRows?: number }).rowCount ?? (r as { affectedRows?: number }).affectedRows ?? 0,
  );

/**
 * The first day whose visitors are not counted yet in `platform_visitors_daily`, and the first day
 * that may still change: days in between are counted by `countVisitorDays`, the rest live.
 */
export function settledBefore(now: Date): string {
  return dayOf(now.getTime() - VISITOR_DAY_SETTLES_DAYS * DAY_MS);
}

/**
 * The daily job: counts the different visitors of each settled day (older than 8 days) that the
 * sessions still cover (90 days) and that is not counted yet. Idempotent: a counted day is never
 * counted again. Returns the days added.
 */
export async function countVisitorDays(db: Database, now = new Date()): Promise<number> {
  const first = dayOf(now.getTime() - RAW_EVENT_DAYS * DAY_MS);
  const end = settledBefore(now);
  const result = await db.execute(sql`
    insert into platform_visitors_daily (date, visitors)
    select d, count(*) from (
      select distinct (start_time at time zone 'UTC')::date as d, auth_session_id from analytics_sessions
      where start_time >= ${first}::timestamptz and start_time < ${end}::timestamptz
    ) v
    where not exists (select 1 from platform_visitors_daily p where p.date = v.d)
    group by d
    on conflict (date) do nothing`);
  return affected(result);
}

/**
 * Recomputes every roll-up from its source tables (a repair; the triggers keep them right):
 * monthly and platform listing counters from `location_metrics_daily`, search demand from
 * `search_demand_daily`. Traffic sources per day only from the raw events still kept (90 days),
 * so earlier days keep their rows. The daily visitors are counted again for the days the sessions
 * still cover. In one transaction.
 */
export async function rebuildAnalyticsRollups(db: Database, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const counters =
      "sum(page_views), sum(list_views), sum(website_clicks), sum(contact_clicks), sum(directions_clicks), sum(unique_visitors), sum(unique_list_viewers)";
    const columns =
      "page_views, list_views, website_clicks, contact_clicks, directions_clicks, unique_visitors, unique_list_viewers";
    await tx.execute(sql`delete from location_metrics_monthly`);
    await tx.execute(
      sql.raw(`insert into location_metrics_monthly (location_id, month, ${columns})
        select location_id, date_trunc('month', date)::date, ${counters} from location_metrics_daily group by 1, 2`),
    );
    await tx.execute(sql`delete from platform_metrics_daily`);
    await tx.execute(
      sql.raw(`insert into platform_metrics_daily (date, shard, ${columns})
        select date, 0, ${counters} from location_metrics_daily group by 1`),
    );
    const kept = dayOf(now.getTime() - RAW_EVENT_DAYS * DAY_MS);
    await tx.execute(sql`delete from traffic_sources_daily where date > ${kept}::date`);
    await tx.execute(sql`
      insert into traffic_sources_daily (date, source, shard, page_views)
      select (received_at at time zone 'UTC')::date, coalesce(traffic_source, 'direct'), 0, count(*)
      from analytics_events
      where event_type = 'page_view' and location_id is not null and received_at >= (${kept}::date + 1)::timestamptz
      group by 1, 2`);
    // The daily rows go back 2 years; earlier months and days are kept as they are.
    const [oldest] = (
      (await tx.execute(sql`select min(date)::text as d from search_demand_daily`)) as unknown as {
        rows: { d: string | null }[];
      }
    ).rows;
    if (oldest?.d) {
      const month = `${oldest.d.slice(0, 7)}-01`;
      await tx.execute(sql`delete from search_demand_monthly where month >= ${month}::date`);
      await tx.execute(sql`
        insert into search_demand_monthly (month, place_key, place_label, state, searches, results, empty_searches,
          none_within_100)
        select date_trunc('month', date)::date, place_key, max(place_label), max(state), sum(searches), sum(results),
          sum(empty_searches), sum(none_within_100)
        from search_demand_daily where date >= ${month}::date group by 1, 2`);
      await tx.execute(sql`delete from platform_searches_daily where date >= ${oldest.d}::date`);
      await tx.execute(sql`
        insert into platform_searches_daily (date, searches, results, empty_searches, none_within_100)
        select date, sum(searches), sum(results), sum(empty_searches), sum(none_within_100)
        from search_demand_daily group by 1`);
    }
    await tx.execute(sql`delete from platform_visitors_daily where date >= ${kept}::date`);
    await countVisitorDays(tx as unknown as Database, now);
  });
}
