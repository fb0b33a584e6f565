import { sql, type SQL } from "drizzle-orm";
import { RAW_EVENT_DAYS } from "../../domain/analytics-period";
import { TRAFFIC_SOURCES, type TrafficSource } from "../../domain/analytics-types";
import { STATES } from "../geo/states";
import type { Database } from "../db/client";
import { addDays, change, previousPeriod, type ReportPeriod } from "./owner-report";
import { conversionRate } from "./scores";

/**
 * The admin analytics report (docs/product.md section 10, "Platform analytics"): the whole
 * platform over a period of whole UTC days. Read from the roll-ups of ADR 017 (daily platform
 * totals, monthly listing totals, daily traffic sources), the daily listing counters for the
 * partial months at the ends of a period, the analytics sessions (visitors; kept 90 days) and the
 * search demand table. Each function is one query, so the benchmark
 * (scripts/bench-admin-analytics.ts) can time them one by one.
 */

const DAY_MS = 86_400_000;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const num = (value: unknown) => Number(value ?? 0);
const round2 = (n: number) => Math.round(n * 100) / 100;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const startOf = (date: string) => new Date(`${date}T00:00:00Z`);
/** The instant just after the UTC day `date`. */
const endOf = (date: string) => new Date(startOf(date).getTime() + DAY_MS);

export type Period = Pick<ReportPeriod, "from" | "to" | "days">;

export interface Counters {
  pageViews: number;
  listViews: number;
  websiteClicks: number;
  /** Phone link and Contact button (the tracker's `phone` and `contact_button`). */
  phoneClicks: number;
  directionsClicks: number;
  /** Per listing and day, added up (docs/product.md section 10, "Analytics"). */
  uniqueVisitors: number;
}

export interface PlatformDay extends Counters {
  date: string;
  clicks: number;
  conversionRate: number;
  /** Different visitors (sign-in sessions) whose visit started this day. */
  visitors: number;
  /** Results-page searches (search demand). */
  searches: number;
}

const ZERO: Counters = {
  pageViews: 0,
  listViews: 0,
  websiteClicks: 0,
  phoneClicks: 0,
  directionsClicks: 0,
  uniqueVisitors: 0,
};

const clicksOf = (c: Counters) => c.websiteClicks + c.phoneClicks + c.directionsClicks;
const conversionOf = (c: Counters) =>
  conversionRate({
    pageViews: c.pageViews,
    websiteClicks: c.websiteClicks,
    contactClicks: c.phoneClicks,
    directionsClicks: c.directionsClicks,
    uniqueVisitors: 0,
    lastViewed: null,
  });

const COUNTER_SUMS = sql.raw(
  [
    "sum(page_views)::float8 as page_views",
    "sum(list_views)::float8 as list_views",
    "sum(website_clicks)::float8 as website_clicks",
    "sum(contact_clicks)::float8 as phone_clicks",
    "sum(directions_clicks)::float8 as directions_clicks",
    "sum(unique_visitors)::float8 as unique_visitors",
  ].join(", "),
);

type CounterRow = Record<
  "page_views" | "list_views" | "website_clicks" | "phone_clicks" | "directions_clicks" | "unique_visitors",
  unknown
>;
const countersOf = (r: CounterRow): Counters => ({
  pageViews: num(r.page_views),
  listViews: num(r.list_views),
  websiteClicks: num(r.website_clicks),
  phoneClicks: num(r.phone_clicks),
  directionsClicks: num(r.directions_clicks),
  uniqueVisitors: num(r.unique_visitors),
});

/** Platform counters per day from `from` to `to` (days with none left out), from the daily roll-up. */
export async function platformDays(db: Database, from: string, to: string): Promise<Map<string, Counters>> {
  const rows = rowsOf<CounterRow & { date: string }>(
    await db.execute(sql`
      select date::text as date, ${COUNTER_SUMS}
      from platform_metrics_daily where date between ${from}::date and ${to}::date
      group by date`),
  );
  return new Map(rows.map((r) => [String(r.date), countersOf(r)]));
}

/**
 * Visitors: different sign-in sessions (a browser, anonymous or signed in) with an analytics
 * session in the period, from `analytics_sessions`, which is kept 90 days after its last activity.
 */
export async function visitorCount(db: Database, from: string, to: string): Promise<number> {
  const [row] = rowsOf<{ visitors: unknown }>(
    await db.execute(sql`
      select count(*)::int as visitors from (
        select distinct auth_session_id from analytics_sessions
        where last_activity >= ${startOf(from).toISOString()}::timestamptz
          and start_time < ${endOf(to).toISOString()}::timestamptz) v`),
  );
  return num(row?.visitors);
}

/**
 * Visitors per day, each counted on the days their visits started: from `platform_visitors_daily`
 * up to the last day the daily job counted (server/analytics/rollups.ts), live after it.
 */
export async function visitorsPerDay(db: Database, from: string, to: string): Promise<Map<string, number>> {
  const [latest] = rowsOf<{ last: string | null }>(
    await db.execute(sql`select max(date)::text as last from platform_visitors_daily`),
  );
  const last = latest?.last ?? null;
  const counted = rowsOf<{ date: string; visitors: unknown }>(
    await db.execute(sql`
      select date::text as date, visitors from platform_visitors_daily
      where date between ${from}::date and ${to}::date`),
  );
  const daily = new Map(counted.map((r) => [String(r.date), num(r.visitors)]));
  const liveFrom = last && last >= from ? addDays(last, 1) : from;
  if (liveFrom <= to) {
    const live = rowsOf<{ date: string; visitors: unknown }>(
      await db.execute(sql`
        select d::text as date, count(*)::int as visitors from (
          select distinct (start_time at time zone 'UTC')::date as d, auth_session_id from analytics_sessions
          where start_time >= ${startOf(liveFrom).toISOString()}::timestamptz
            and start_time < ${endOf(to).toISOString()}::timestamptz) v
        group by d`),
    );
    for (const r of live) daily.set(String(r.date), num(r.visitors));
  }
  return daily;
}

/** Results-page searches per day (search demand). */
async function searchesPerDay(db: Database, from: string, to: string): Promise<Map<string, number>> {
  const rows = rowsOf<{ date: string; searches: unknown }>(
    await db.execute(sql`
      select date::text as date, searches::float8 as searches from platform_searches_daily
      where date between ${from}::date and ${to}::date`),
  );
  return new Map(rows.map((r) => [String(r.date), num(r.searches)]));
}

export interface ListingTotals extends Counters {
  locationId: string;
  name: string;
  slug: string;
  state: string | null;
  clicks: number;
  conversionRate: number;
}

const firstOfMonth = (date: string) => `${date.slice(0, 7)}-01`;
function nextMonth(first: string): string {
  const d = startOf(first);
  return dayOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

/**
 * The whole months inside [from, to] as [start, end) (the monthly roll-up answers them), or null
 * when there is none; the days outside them come from the daily rows.
 */
export function wholeMonths(from: string, to: string): { start: string; end: string } | null {
  const start = firstOfMonth(from) === from ? from : nextMonth(firstOfMonth(from));
  const end = addDays(to, 1) === nextMonth(firstOfMonth(to)) ? addDays(to, 1) : firstOfMonth(to);
  return start < end ? { start, end } : null;
}

/**
 * Every listing with any count in the period, with its totals: whole months from
 * `location_metrics_monthly`, the days at either end from `location_metrics_daily`. One query
 * that both the top lists and the states are computed from.
 */
export async function listingTotals(db: Database, from: string, to: string): Promise<ListingTotals[]> {
  const months = wholeMonths(from, to);
  const columns = sql.raw(
    "location_id, page_views, list_views, website_clicks, contact_clicks, directions_clicks, unique_visitors",
  );
  const daily = (a: string, b: string): SQL =>
    sql`select ${columns} from location_metrics_daily where date >= ${a}::date and date <= ${b}::date`;
  const parts: SQL[] = [];
  if (!months) parts.push(daily(from, to));
  else {
    parts.push(
      sql`select ${columns} from location_metrics_monthly where month >= ${months.start}::date and month < ${months.end}::date`,
    );
    if (from < months.start) parts.push(daily(from, addDays(months.start, -1)));
    if (months.end <= to) parts.push(daily(months.end, to));
  }
  const rows = rowsOf<CounterRow & { location_id: string; name: string; slug: string; state: string | null }>(
    await db.execute(sql`
      with parts as (${sql.join(parts, sql` union all `)}),
      totals as (select location_id, ${COUNTER_SUMS} from parts group by location_id)
      select t.*, l.name, l.slug, l.state from totals t join locations l on l.place_id = t.location_id`),
  );
  return rows.map((r) => {
    const c = countersOf(r);
    return {
      locationId: r.location_id,
      name: r.name,
      slug: r.slug,
      state: r.state,
      ...c,
      clicks: clicksOf(c),
      conversionRate: conversionOf(c),
    };
  });
}

export const TOP_LISTING_METRICS = ["pageViews", "listViews", "uniqueVisitors", "clicks", "conversionRate"] as const;
export type TopListingMetric = (typeof TOP_LISTING_METRICS)[number];
/** A listing needs this many page views in the period to rank by conversion (1 view, 1 click is not 100%). */
export const CONVERSION_MIN_PAGE_VIEWS = 20;

/** The `limit` listings with the most `metric`, ties by more page views, then by name. */
export function topListings(rows: readonly ListingTotals[], metric: TopListingMetric, limit: number): ListingTotals[] {
  return rows
    .filter((r) => r[metric] > 0 && (metric !== "conversionRate" || r.pageViews >= CONVERSION_MIN_PAGE_VIEWS))
    .sort((a, b) => b[metric] - a[metric] || b.pageViews - a.pageViews || a.name.localeCompare(b.name))
    .slice(0, limit);
}

export interface StateTotals {
  state: string;
  name: string;
  pageViews: number;
  listViews: number;
  clicks: number;
  /** Listings of the state with any count in the period. */
  listings: number;
}

/** Every state (and DC), with the period's totals of its listings; most page views first. */
export function stateTotals(rows: readonly ListingTotals[]): StateTotals[] {
  const byState = new Map<string, StateTotals>(
    STATES.map((s) => [s.code, { state: s.code, name: s.name, pageViews: 0, listViews: 0, clicks: 0, listings: 0 }]),
  );
  for (const r of rows) {
    const s = r.state ? byState.get(r.state) : undefined;
    if (!s) continue;
    s.pageViews += r.pageViews;
    s.listViews += r.listViews;
    s.clicks += r.clicks;
    s.listings++;
  }
  return [...byState.values()].sort((a, b) => b.pageViews - a.pageViews || a.name.localeCompare(b.name));
}

/** Listing page views by traffic source in the period, most first (sources without views left out). */
export async function trafficSources(
  db: Database,
  from: string,
  to: string,
): Promise<{ source: TrafficSource; pageViews: number }[]> {
  const rows = rowsOf<{ source: string; page_views: unknown }>(
    await db.execute(sql`
      select source, sum(page_views)::float8 as page_views from traffic_sources_daily
      where date between ${from}::date and ${to}::date group by source`),
  );
  const counts = new Map<TrafficSource, number>();
  for (const r of rows) {
    const known = (TRAFFIC_SOURCES as readonly string[]).includes(r.source) ? (r.source as TrafficSource) : "other";
    counts.set(known, (counts.get(known) ?? 0) + num(r.page_views));
  }
  return [...counts.entries()]
    .filter(([, n]) => n > 0)
    .map(([source, pageViews]) => ({ source, pageViews }))
    .sort((a, b) => b.pageViews - a.pageViews || a.source.localeCompare(b.source));
}

export interface SessionRow {
  startTime: string;
  lastActivity: string;
  /** Seconds from the first to the last event. */
  duration: number;
  pageViews: number;
  /** The sign-in session's first visit (a new visitor). */
  isNewVisitor: boolean;
  /** Signed in with an account (not an anonymous visitor). */
  signedIn: boolean;
  /** The listing of the session's latest event with one. */
  listing: { name: string; slug: string } | null;
}

/**
 * The most recent analytics sessions active in the period (latest activity first). Nothing that
 * names a person: no ids, addresses or user agents, only whether an account was signed in.
 */
export async function recentSessions(db: Database, from: string, to: string, limit = 20): Promise<SessionRow[]> {
  const rows = rowsOf<{
    start_time: string | Date;
    last_activity: string | Date;
    duration_seconds: unknown;
    page_views: unknown;
    is_new_session: boolean;
    signed_in: boolean;
    name: string | null;
    slug: string | null;
  }>(
    await db.execute(sql`
      select s.start_time, s.last_activity, s.duration_seconds, s.page_views, s.is_new_session,
        coalesce(u.is_anonymous = false, false) as signed_in, l.name, l.slug
      from analytics_sessions s
      left join users u on u.id = s.user_id
      left join locations l on l.place_id = s.location_id
      where s.last_activity >= ${startOf(from).toISOString()}::timestamptz
        and s.last_activity < ${endOf(to).toISOString()}::timestamptz
      order by s.last_activity desc
      limit ${Math.min(Math.max(1, limit), 500)}`),
  );
  return rows.map((r) => ({
    startTime: new Date(r.start_time).toISOString(),
    lastActivity: new Date(r.last_activity).toISOString(),
    duration: num(r.duration_seconds),
    pageViews: num(r.page_views),
    isNewVisitor: Boolean(r.is_new_session),
    signedIn: Boolean(r.signed_in),
    listing: r.name && r.slug ? { name: r.name, slug: r.slug } : null,
  }));
}

export interface DemandRow {
  placeKey: string;
  placeLabel: string;
  state: string | null;
  searches: number;
  /** Results per search, on average (with the visitors' filters). */
  averageResults: number;
  emptySearches: number;
  noneWithin100: number;
}

export interface SearchDemand {
  searches: number;
  emptySearches: number;
  noneWithin100: number;
  /** Places searched, counted together. */
  places: number;
}

const DEMAND_COLUMNS = sql.raw("place_key, place_label, state, searches, results, empty_searches, none_within_100");

/** The period's rows of search demand: whole months from the monthly table, the ends from the daily. */
function demandParts(from: string, to: string): SQL {
  const months = wholeMonths(from, to);
  const daily = (a: string, b: string): SQL =>
    sql`select ${DEMAND_COLUMNS} from search_demand_daily where date >= ${a}::date and date <= ${b}::date`;
  const parts: SQL[] = [];
  if (!months) parts.push(daily(from, to));
  else {
    parts.push(
      sql`select ${DEMAND_COLUMNS} from search_demand_monthly where month >= ${months.start}::date and month < ${months.end}::date`,
    );
    if (from < months.start) parts.push(daily(from, addDays(months.start, -1)));
    if (months.end <= to) parts.push(daily(months.end, to));
  }
  return sql.join(parts, sql` union all `);
}

/** The period's search totals: from the daily platform roll-up, and the places searched. */
export async function searchDemandTotals(db: Database, from: string, to: string): Promise<SearchDemand> {
  const [row] = rowsOf<Record<"searches" | "empty" | "none", unknown>>(
    await db.execute(sql`
      select coalesce(sum(searches), 0)::float8 as searches, coalesce(sum(empty_searches), 0)::float8 as empty,
        coalesce(sum(none_within_100), 0)::float8 as none
      from platform_searches_daily where date between ${from}::date and ${to}::date`),
  );
  const [places] = rowsOf<{ places: unknown }>(
    await db.execute(sql`
      select count(*)::int as places from (select distinct place_key from (${demandParts(from, to)}) p) d`),
  );
  return {
    searches: num(row?.searches),
    emptySearches: num(row?.empty),
    noneWithin100: num(row?.none),
    places: num(places?.places),
  };
}

/**
 * The places searched in the period, by `order`: `searches` (the most searched) or `gaps` (the
 * most searches that found no listing within 100 miles, only places with such searches).
 */
export async function searchDemandPlaces(
  db: Database,
  from: string,
  to: string,
  order: "searches" | "gaps",
  limit = 20,
): Promise<DemandRow[]> {
  const rows = rowsOf<{
    place_key: string;
    place_label: string;
    state: string | null;
    searches: unknown;
    results: unknown;
    empty: unknown;
    none: unknown;
  }>(
    await db.execute(sql`
      select place_key, max(place_label) as place_label, max(state) as state, sum(searches)::float8 as searches,
        sum(results)::float8 as results, sum(empty_searches)::float8 as empty, sum(none_within_100)::float8 as none
      from (${demandParts(from, to)}) p
      group by place_key
      ${order === "gaps" ? sql`having sum(none_within_100) > 0` : sql``}
      order by ${order === "gaps" ? sql`sum(none_within_100) desc,` : sql``} sum(searches) desc, place_key
      limit ${Math.min(Math.max(1, limit), 1000)}`),
  );
  return rows.map((r) => {
    const searches = num(r.searches);
    return {
      placeKey: r.place_key,
      placeLabel: r.place_label,
      state: r.state,
      searches,
      averageResults: searches > 0 ? round2(num(r.results) / searches) : 0,
      emptySearches: num(r.empty),
      noneWithin100: num(r.none),
    };
  });
}

export interface PlatformTotals extends Counters {
  clicks: number;
  conversionRate: number;
  visitors: number;
  searches: number;
}

export interface PlatformTrend {
  totals: PlatformTotals;
  previousTotals: PlatformTotals;
  previous: { from: string; to: string };
  /**
   * Percent change against the period before; null when that had none, or for visitors when the
   * sessions kept do not cover it (`visitorsCompared` false).
   */
  growth: Record<"pageViews" | "listViews" | "visitors" | "clicks" | "searches", number | null>;
  visitorsCompared: boolean;
  /** Every day of the period, oldest first, days without counts as zeros. */
  daily: PlatformDay[];
  /**
   * Set when the period (or the one before, for the comparison) starts before the analytics
   * sessions kept: visitors are counted from this day only.
   */
  visitorsFrom: string | null;
}

function addUp(days: Iterable<Counters>): Counters {
  const total = { ...ZERO };
  for (const d of days) for (const k of Object.keys(ZERO) as (keyof Counters)[]) total[k] += d[k];
  return total;
}

/** Totals, the day-by-day rows and the comparison with the period of the same length before. */
export async function platformTrend(db: Database, period: Period, now = new Date()): Promise<PlatformTrend> {
  const previous = previousPeriod(period);
  // One read of the daily roll-up for both periods, which are adjacent.
  const kept = dayOf(now.getTime() - RAW_EVENT_DAYS * DAY_MS);
  const [days, visitors, visitorDays, visitorsBefore, searches] = await Promise.all([
    platformDays(db, previous.from, period.to),
    visitorCount(db, period.from, period.to),
    visitorsPerDay(db, period.from, period.to),
    // Sessions older than that are gone: the period before would count only some of its visitors.
    previous.to >= kept ? visitorCount(db, previous.from, previous.to) : Promise.resolve(null),
    searchesPerDay(db, previous.from, period.to),
  ]);
  const daily: PlatformDay[] = [];
  for (let date = period.from; date <= period.to; date = addDays(date, 1)) {
    const c = days.get(date) ?? ZERO;
    daily.push({
      date,
      ...c,
      clicks: clicksOf(c),
      conversionRate: conversionOf(c),
      visitors: visitorDays.get(date) ?? 0,
      searches: searches.get(date) ?? 0,
    });
  }
  const sumOver = (a: string, b: string) => {
    const picked: Counters[] = [];
    let searchCount = 0;
    for (const [date, c] of days) if (date >= a && date <= b) picked.push(c);
    for (const [date, n] of searches) if (date >= a && date <= b) searchCount += n;
    return { counters: addUp(picked), searches: searchCount };
  };
  const now0 = sumOver(period.from, period.to);
  const then = sumOver(previous.from, previous.to);
  const totals: PlatformTotals = {
    ...now0.counters,
    clicks: clicksOf(now0.counters),
    conversionRate: conversionOf(now0.counters),
    visitors,
    searches: now0.searches,
  };
  const previousTotals: PlatformTotals = {
    ...then.counters,
    clicks: clicksOf(then.counters),
    conversionRate: conversionOf(then.counters),
    visitors: visitorsBefore ?? 0,
    searches: then.searches,
  };
  return {
    totals,
    previousTotals,
    previous,
    growth: {
      pageViews: change(previousTotals.pageViews, totals.pageViews),
      listViews: change(previousTotals.listViews, totals.listViews),
      visitors: visitorsBefore === null || previous.from < kept ? null : change(visitorsBefore, visitors),
      clicks: change(previousTotals.clicks, totals.clicks),
      searches: change(previousTotals.searches, totals.searches),
    },
    visitorsCompared: visitorsBefore !== null && previous.from >= kept,
    daily,
    visitorsFrom: period.from < kept ? kept : null,
  };
}

export interface Conversions {
  /** Questions and reservation requests sent from listing pages (docs/product.md sections 14 and 17). */
  leads: number;
  /** Reservation requests among them. */
  reservations: number;
  /** Reservation requests accepted, on the day of the answer. */
  reservationsAccepted: number;
}

/** The platform's leads, reservation requests and accepted reservations in [from, to] (UTC days). */
export async function conversionTotals(db: Database, from: string, to: string): Promise<Conversions> {
  const start = startOf(from).toISOString();
  const end = endOf(to).toISOString();
  const [row] = rowsOf<Record<"leads" | "reservations" | "accepted", unknown>>(
    await db.execute(sql`
      select
        count(*) filter (where created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz)::int as leads,
        count(*) filter (where kind = 'reservation'
          and created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz)::int as reservations,
        count(*) filter (where reservation_status = 'accepted'
          and answered_at >= ${start}::timestamptz and answered_at < ${end}::timestamptz)::int as accepted
      from leads
      where (created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz)
         or (answered_at >= ${start}::timestamptz and answered_at < ${end}::timestamptz)`),
  );
  return { leads: num(row?.leads), reservations: num(row?.reservations), reservationsAccepted: num(row?.accepted) };
}
