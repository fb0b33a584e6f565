import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import {
  analyticsSessions,
  locationMetrics,
  locationMetricsDaily,
  locationTrafficSources,
  locations,
} from "../db/schema";
import { TRAFFIC_SOURCES, type TrafficSource } from "../../domain/analytics-types";
import {
  activityTrend,
  conversionRate,
  engagementScore,
  growthRate,
  performanceScore,
  type ActivityTrend,
} from "./scores";

/** Read side of analytics, for the owner and admin dashboards (docs/product.md section 7, "Read metrics"). */

export interface MetricCounters {
  pageViews: number;
  listViews: number;
  websiteClicks: number;
  contactClicks: number;
  directionsClicks: number;
  uniqueVisitors: number;
  uniqueListViewers: number;
}

export interface DailyMetrics extends MetricCounters {
  /** YYYY-MM-DD (UTC) */
  date: string;
}

/** docs/product.md section 3's metrics document of one location. */
export interface MetricsDocument extends MetricCounters {
  locationId: string;
  firstViewed: string | null;
  lastViewed: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  lastUpdated: string | null;
  trafficSources: Record<TrafficSource, number>;
}

const COUNTER_KEYS = [
  "pageViews",
  "listViews",
  "websiteClicks",
  "contactClicks",
  "directionsClicks",
  "uniqueVisitors",
  "uniqueListViewers",
] as const satisfies readonly (keyof MetricCounters)[];

const zeroCounters = (): MetricCounters => ({
  pageViews: 0,
  listViews: 0,
  websiteClicks: 0,
  contactClicks: 0,
  directionsClicks: 0,
  uniqueVisitors: 0,
  uniqueListViewers: 0,
});

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const counters = (row: MetricCounters): MetricCounters =>
  Object.fromEntries(COUNTER_KEYS.map((k) => [k, Number(row[k])])) as unknown as MetricCounters;

/** The metrics document of a location; all zero when nothing was recorded yet. */
export async function getLocationMetrics(db: Database, locationId: string): Promise<MetricsDocument> {
  const [row] = await db.select().from(locationMetrics).where(eq(locationMetrics.locationId, locationId));
  const sources = await db
    .select({ source: locationTrafficSources.source, count: locationTrafficSources.count })
    .from(locationTrafficSources)
    .where(eq(locationTrafficSources.locationId, locationId));
  const trafficSources = Object.fromEntries(TRAFFIC_SOURCES.map((s) => [s, 0])) as Record<TrafficSource, number>;
  for (const { source, count } of sources) {
    if ((TRAFFIC_SOURCES as readonly string[]).includes(source))
      trafficSources[source as TrafficSource] = Number(count);
  }
  return {
    locationId,
    ...(row ? counters(row) : zeroCounters()),
    firstViewed: iso(row?.firstViewed),
    lastViewed: iso(row?.lastViewed),
    createdAt: iso(row?.createdAt),
    updatedAt: iso(row?.updatedAt),
    lastUpdated: iso(row?.lastUpdated),
    trafficSources,
  };
}

/** Daily rows of a location from `from` to `to` inclusive (YYYY-MM-DD), oldest first. */
export async function getDailyMetrics(
  db: Database,
  locationId: string,
  from: string,
  to: string,
): Promise<DailyMetrics[]> {
  const rows = await db
    .select()
    .from(locationMetricsDaily)
    .where(
      and(
        eq(locationMetricsDaily.locationId, locationId),
        gte(locationMetricsDaily.date, from),
        lte(locationMetricsDaily.date, to),
      ),
    )
    .orderBy(asc(locationMetricsDaily.date));
  return rows.map((r) => ({ date: r.date, ...counters(r) }));
}

/** Daily totals over every location (or the given ones) from `from` to `to`, oldest first. */
export async function getMetricsByDateRange(
  db: Database,
  from: string,
  to: string,
  locationIds?: readonly string[],
): Promise<DailyMetrics[]> {
  const d = locationMetricsDaily;
  const where = [gte(d.date, from), lte(d.date, to)];
  if (locationIds) {
    if (locationIds.length === 0) return [];
    where.push(inArray(d.locationId, [...locationIds]));
  }
  const sum = (column: SQL | typeof d.pageViews) => sql<number>`coalesce(sum(${column}), 0)::float8`;
  const rows = await db
    .select({
      date: d.date,
      pageViews: sum(d.pageViews),
      listViews: sum(d.listViews),
      websiteClicks: sum(d.websiteClicks),
      contactClicks: sum(d.contactClicks),
      directionsClicks: sum(d.directionsClicks),
      uniqueVisitors: sum(d.uniqueVisitors),
      uniqueListViewers: sum(d.uniqueListViewers),
    })
    .from(d)
    .where(and(...where))
    .groupBy(d.date)
    .orderBy(asc(d.date));
  return rows.map((r) => ({ date: r.date, ...counters(r) }));
}

export const TOP_METRICS = [...COUNTER_KEYS, "totalViews", "totalClicks"] as const;
export type TopMetric = (typeof TOP_METRICS)[number];

export interface RankedLocation extends MetricCounters {
  locationId: string;
  name: string;
  state: string | null;
  lastViewed: string | null;
  value: number;
}

const m = locationMetrics;
function metricExpression(metric: TopMetric): SQL {
  switch (metric) {
    case "totalViews":
      return sql`(${m.pageViews} + ${m.listViews})`;
    case "totalClicks":
      return sql`(${m.websiteClicks} + ${m.contactClicks} + ${m.directionsClicks})`;
    default:
      return sql`${m[metric]}`;
  }
}

/**
 * How many rows the top-locations read may look at (docs/product.md section 9): 300 for totalViews,
 * otherwise min(limit + offset + 20, 100). A page beyond that window is empty.
 */
export function topLocationsWindow(metric: TopMetric, limit: number, offset: number): number {
  return metric === "totalViews" ? 300 : Math.min(limit + offset + 20, 100);
}

const rankedColumns = {
  locationId: m.locationId,
  name: locations.name,
  state: locations.state,
  pageViews: m.pageViews,
  listViews: m.listViews,
  websiteClicks: m.websiteClicks,
  contactClicks: m.contactClicks,
  directionsClicks: m.directionsClicks,
  uniqueVisitors: m.uniqueVisitors,
  uniqueListViewers: m.uniqueListViewers,
  lastViewed: m.lastViewed,
};

type RankedRow = MetricCounters & { locationId: string; name: string; state: string | null; lastViewed: Date | null };
const ranked = (r: RankedRow, value: number): RankedLocation => ({
  locationId: r.locationId,
  name: r.name,
  state: r.state,
  lastViewed: iso(r.lastViewed),
  ...counters(r),
  value: Number(value),
});

/** Locations with the highest `metric`, best first, ties by id. */
export async function getTopLocations(
  db: Database,
  metric: TopMetric,
  { limit = 10, offset = 0 }: { limit?: number; offset?: number } = {},
): Promise<RankedLocation[]> {
  const window = topLocationsWindow(metric, limit, offset);
  const take = Math.max(0, Math.min(limit, window - offset));
  if (take === 0) return [];
  const value = metricExpression(metric);
  const rows = await db
    .select({ ...rankedColumns, value: sql<number>`${value}::float8` })
    .from(m)
    .innerJoin(locations, eq(locations.placeId, m.locationId))
    .orderBy(desc(value), asc(m.locationId))
    .limit(take)
    .offset(offset);
  return rows.map((r) => ranked(r, r.value));
}

/** Locations last viewed at or after `since`, most recent first. */
export async function getRecentActivity(db: Database, since: Date, limit = 20): Promise<RankedLocation[]> {
  const rows = await db
    .select(rankedColumns)
    .from(m)
    .innerJoin(locations, eq(locations.placeId, m.locationId))
    .where(gte(m.lastViewed, since))
    .orderBy(desc(m.lastViewed), asc(m.locationId))
    .limit(Math.min(Math.max(limit, 0), 100));
  return rows.map((r) => ranked(r, r.lastViewed?.getTime() ?? 0));
}

export interface PlatformAggregate extends MetricCounters {
  locations: number;
  conversionRate: number;
}

/** Totals over the 500 locations with the most page views (docs/product.md section 7). */
export async function getPlatformAggregate(db: Database): Promise<PlatformAggregate> {
  const top = db.select().from(m).orderBy(desc(m.pageViews), asc(m.locationId)).limit(500).as("top");
  const sum = (column: string) => sql<number>`coalesce(sum(${sql.identifier(column)}), 0)::float8`;
  const [row] = await db
    .select({
      locations: sql<number>`count(*)::int`,
      pageViews: sum("page_views"),
      listViews: sum("list_views"),
      websiteClicks: sum("website_clicks"),
      contactClicks: sum("contact_clicks"),
      directionsClicks: sum("directions_clicks"),
      uniqueVisitors: sum("unique_visitors"),
      uniqueListViewers: sum("unique_list_viewers"),
    })
    .from(top);
  const totals = row ? counters(row) : zeroCounters();
  return {
    ...totals,
    locations: Number(row?.locations ?? 0),
    conversionRate: conversionRate({ ...totals, lastViewed: null }),
  };
}

export interface StateViews {
  state: string;
  pageViews: number;
  listViews: number;
  locations: number;
}

/** Page and list views by state over the 300 locations with the most page views, most first. */
export async function getViewsByState(db: Database): Promise<StateViews[]> {
  const top = db
    .select({ state: locations.state, pageViews: m.pageViews, listViews: m.listViews })
    .from(m)
    .innerJoin(locations, eq(locations.placeId, m.locationId))
    .orderBy(desc(m.pageViews), asc(m.locationId))
    .limit(300)
    .as("top");
  const rows = await db
    .select({
      state: sql<string>`coalesce(${top.state}, '??')`,
      pageViews: sql<number>`sum(${top.pageViews})::float8`,
      listViews: sql<number>`sum(${top.listViews})::float8`,
      locations: sql<number>`count(*)::int`,
    })
    .from(top)
    .groupBy(top.state)
    .orderBy(sql`sum(${top.pageViews}) desc`, asc(top.state));
  return rows.map((r) => ({
    state: r.state,
    pageViews: Number(r.pageViews),
    listViews: Number(r.listViews),
    locations: Number(r.locations),
  }));
}

export interface LocationReport {
  metrics: MetricsDocument;
  from: string;
  to: string;
  daily: DailyMetrics[];
  scores: {
    conversionRate: number;
    engagement: number;
    performance: number;
    growth: number;
    trend: ActivityTrend;
  };
}

/** Everything the metrics endpoint returns for one location and period. */
export async function getLocationReport(
  db: Database,
  locationId: string,
  from: string,
  to: string,
  now = new Date(),
): Promise<LocationReport> {
  const metrics = await getLocationMetrics(db, locationId);
  const daily = await getDailyMetrics(db, locationId, from, to);
  const scoreInput = { ...metrics, lastViewed: metrics.lastViewed ? new Date(metrics.lastViewed) : null };
  // Growth and trend over every day of the period, days without events counting as zero.
  const days: { date: string; pageViews: number }[] = [];
  const byDate = new Map(daily.map((d) => [d.date, d.pageViews]));
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.push({ date, pageViews: byDate.get(date) ?? 0 });
  }
  return {
    metrics,
    from,
    to,
    daily,
    scores: {
      conversionRate: conversionRate(scoreInput),
      engagement: engagementScore(scoreInput, now),
      performance: performanceScore(scoreInput),
      growth: growthRate(days),
      trend: activityTrend(days),
    },
  };
}

/** docs/product.md section 3's analytics session, as the server recorded it. */
export interface AnalyticsSessionDocument {
  sessionId: string;
  startTime: Date;
  lastActivity: Date;
  pageViews: number;
  /** Seconds from the first to the last event. */
  duration: number;
  isNewSession: boolean;
  userId: string | null;
  locationId: string | null;
}

/** Analytics sessions active since `since`, most recent first (for the admin activity view). */
export async function getRecentSessions(
  db: Database,
  { since, limit = 50 }: { since: Date; limit?: number },
): Promise<AnalyticsSessionDocument[]> {
  const rows = await db
    .select()
    .from(analyticsSessions)
    .where(gte(analyticsSessions.lastActivity, since))
    .orderBy(desc(analyticsSessions.lastActivity))
    .limit(Math.min(Math.max(1, limit), 500));
  return rows.map((r) => ({
    sessionId: r.sessionId,
    startTime: r.startTime,
    lastActivity: r.lastActivity,
    pageViews: r.pageViews,
    duration: r.durationSeconds,
    isNewSession: r.isNewSession,
    userId: r.userId,
    locationId: r.locationId,
  }));
}
