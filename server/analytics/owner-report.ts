import { leadsPerDay } from "../leads/service";
import { reservationsPerDay } from "../leads/reservations";
import { and, eq, gte, inArray, lt, lte, max, sql } from "drizzle-orm";
import {
  ANALYTICS_PRESETS,
  CUSTOM_RANGE,
  DEFAULT_ANALYTICS_DAYS,
  MAX_ANALYTICS_DAYS,
  RAW_EVENT_DAYS,
} from "../../domain/analytics-period";
import { TRAFFIC_SOURCES, type TrafficSource } from "../../domain/analytics-types";
import { formatCsv } from "../csv";
import type { Database } from "../db/client";
import { analyticsEvents, locationMetrics, locationMetricsDaily, locations } from "../db/schema";
import { getMetricsByDateRange, type DailyMetrics } from "./queries";
import { conversionRate, engagementScore, performanceScore, totalClicks } from "./scores";

/**
 * The owner analytics report (docs/product.md section 10, "Analytics"): one listing or several
 * combined, over a period of whole UTC days, against the period of the same length just before.
 * Built on the daily counters (`location_metrics_daily`) that the metrics API reads too, so the
 * screen, its CSV and the API agree.
 */

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface ReportPeriod {
  /** YYYY-MM-DD (UTC), both ends included. */
  from: string;
  to: string;
  days: number;
  /** The preset chosen, or null for a custom range. */
  preset: number | null;
}

export type PeriodResult =
  { ok: true; period: ReportPeriod } | { ok: false; field: "from" | "to" | "days"; message: string };

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const timeOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
export const addDays = (date: string, days: number) => dayOf(timeOf(date) + days * DAY_MS);
const daysBetween = (from: string, to: string) => Math.round((timeOf(to) - timeOf(from)) / DAY_MS) + 1;

function validDate(value: string): boolean {
  const time = timeOf(value);
  return DATE.test(value) && !Number.isNaN(time) && dayOf(time) === value;
}

/**
 * The period of `?days=7|30|90` (or the `presets` given), or of `?days=custom&from=&to=` (`days` may be left out when a date
 * is given, so `?from=&to=` links work). The screen's form sends both a preset and the dates: the
 * preset wins unless it is `custom`. In a custom range a missing end is today, a missing start 30
 * days before the end. Today is the UTC day of `now`.
 */
export function parseReportPeriod(
  params: URLSearchParams,
  now = new Date(),
  presets: readonly number[] = ANALYTICS_PRESETS,
): PeriodResult {
  const from = (params.get("from") ?? "").trim();
  const to = (params.get("to") ?? "").trim();
  const raw = (params.get("days") ?? "").trim();
  const today = dayOf(now.getTime());
  if (raw === CUSTOM_RANGE || (raw === "" && (from || to))) {
    if (from && !validDate(from))
      return { ok: false, field: "from", message: `The start date “${from.slice(0, 20)}” is not a date (YYYY-MM-DD).` };
    if (to && !validDate(to))
      return { ok: false, field: "to", message: `The end date “${to.slice(0, 20)}” is not a date (YYYY-MM-DD).` };
    const end = to || today;
    const start = from || addDays(end, -(DEFAULT_ANALYTICS_DAYS - 1));
    if (start > end) return { ok: false, field: "from", message: "The start date must not be after the end date." };
    const days = daysBetween(start, end);
    if (days > MAX_ANALYTICS_DAYS)
      return {
        ok: false,
        field: "from",
        message: `Choose a range of at most ${MAX_ANALYTICS_DAYS} days (this one has ${days}).`,
      };
    return { ok: true, period: { from: start, to: end, days, preset: null } };
  }
  const preset = raw === "" ? DEFAULT_ANALYTICS_DAYS : presets.find((d) => String(d) === raw);
  if (!preset) {
    const choices = `${presets.slice(0, -1).join(", ")} or ${presets.at(-1)}`;
    return { ok: false, field: "days", message: `Choose ${choices} days, or a custom range.` };
  }
  return { ok: true, period: { from: addDays(today, -(preset - 1)), to: today, days: preset, preset } };
}

/** The period of the same length that ends the day before `period` starts. */
export function previousPeriod(period: Pick<ReportPeriod, "from" | "days">): { from: string; to: string } {
  return { from: addDays(period.from, -period.days), to: addDays(period.from, -1) };
}

export interface ReportTotals {
  pageViews: number;
  listViews: number;
  uniqueVisitors: number;
  websiteClicks: number;
  /** Phone and 'Contact' button clicks (the tracker's `phone` and `contact_button`). */
  phoneClicks: number;
  directionsClicks: number;
  clicks: number;
  /** Clicks per page view in percent, capped at 100 (server/analytics/scores.ts). */
  conversionRate: number;
  /** Visitors' questions about a space (docs/product.md section 14), a conversion of their own. */
  leads: number;
  /** Reservation requests sent (section 17), among the leads: a conversion of their own too. */
  reservations: number;
  /** Reservation requests accepted, on the day of the answer. */
  reservationsAccepted: number;
}

export interface ReportDay extends ReportTotals {
  date: string;
}

export interface ListingTotals extends ReportTotals {
  locationId: string;
  name: string;
}

export interface OwnerReport {
  from: string;
  to: string;
  days: number;
  previous: { from: string; to: string };
  totals: ReportTotals;
  previousTotals: ReportTotals;
  /** Percent change against the previous period; null when the previous period had none. */
  growth: Record<"pageViews" | "listViews" | "uniqueVisitors" | "clicks", number | null>;
  /** Every day of the period, oldest first, days without events as zeros. */
  daily: ReportDay[];
  /** Page views by traffic source in the period, most first (sources without views left out). */
  sources: { source: TrafficSource; pageViews: number }[];
  /** Set when the period starts before the raw events kept: sources count from this day only. */
  sourcesFrom: string | null;
  scores: { engagement: number; performance: number };
  /** The last page view ever recorded for these listings (ISO), which the engagement score reads. */
  lastViewed: string | null;
  /** Whether any of the listings was ever viewed or shown, in any period. */
  everSeen: boolean;
  /** One row per listing, most page views first (only useful for several listings). */
  listings: ListingTotals[];
}

type Counters = Pick<
  DailyMetrics,
  "pageViews" | "listViews" | "uniqueVisitors" | "websiteClicks" | "contactClicks" | "directionsClicks"
>;

const round2 = (n: number) => Math.round(n * 100) / 100;

function toTotals(c: Counters): ReportTotals {
  const input = { ...c, lastViewed: null };
  return {
    pageViews: c.pageViews,
    listViews: c.listViews,
    uniqueVisitors: c.uniqueVisitors,
    websiteClicks: c.websiteClicks,
    phoneClicks: c.contactClicks,
    directionsClicks: c.directionsClicks,
    clicks: totalClicks(c),
    conversionRate: conversionRate(input),
    leads: 0,
    reservations: 0,
    reservationsAccepted: 0,
  };
}

const ZERO: Counters = {
  pageViews: 0,
  listViews: 0,
  uniqueVisitors: 0,
  websiteClicks: 0,
  contactClicks: 0,
  directionsClicks: 0,
};

function sum(rows: readonly Counters[]): Counters {
  const total = { ...ZERO };
  for (const row of rows) for (const key of Object.keys(ZERO) as (keyof Counters)[]) total[key] += row[key];
  return total;
}

/** Percent change from `before` to `after`; null when there was nothing before to compare with. */
export function change(before: number, after: number): number | null {
  if (before === 0) return after === 0 ? 0 : null;
  return round2(((after - before) / before) * 100);
}

async function totalsByListing(db: Database, ids: readonly string[], from: string, to: string) {
  const d = locationMetricsDaily;
  const total = (column: typeof d.pageViews) => sql<number>`coalesce(sum(${column}), 0)::float8`;
  const rows = await db
    .select({
      locationId: locations.placeId,
      name: locations.name,
      pageViews: total(d.pageViews),
      listViews: total(d.listViews),
      uniqueVisitors: total(d.uniqueVisitors),
      websiteClicks: total(d.websiteClicks),
      contactClicks: total(d.contactClicks),
      directionsClicks: total(d.directionsClicks),
    })
    .from(locations)
    .leftJoin(d, and(eq(d.locationId, locations.placeId), gte(d.date, from), lte(d.date, to)))
    .where(inArray(locations.placeId, [...ids]))
    .groupBy(locations.placeId, locations.name);
  return rows
    .map((r) => ({
      locationId: r.locationId,
      name: r.name,
      ...toTotals({
        pageViews: Number(r.pageViews),
        listViews: Number(r.listViews),
        uniqueVisitors: Number(r.uniqueVisitors),
        websiteClicks: Number(r.websiteClicks),
        contactClicks: Number(r.contactClicks),
        directionsClicks: Number(r.directionsClicks),
      }),
    }))
    .sort((a, b) => b.pageViews - a.pageViews || a.name.localeCompare(b.name));
}

async function trafficSources(db: Database, ids: readonly string[], from: string, to: string) {
  const e = analyticsEvents;
  const rows = await db
    .select({ source: e.trafficSource, count: sql<number>`count(*)::int` })
    .from(e)
    .where(
      and(
        eq(e.eventType, "page_view"),
        inArray(e.locationId, [...ids]),
        gte(e.occurredAt, new Date(timeOf(from))),
        lt(e.occurredAt, new Date(timeOf(to) + DAY_MS)),
      ),
    )
    .groupBy(e.trafficSource);
  const counts = new Map<TrafficSource, number>();
  for (const { source, count } of rows) {
    const known = (TRAFFIC_SOURCES as readonly string[]).includes(source ?? "") ? (source as TrafficSource) : "other";
    counts.set(known, (counts.get(known) ?? 0) + Number(count));
  }
  return [...counts.entries()]
    .map(([source, pageViews]) => ({ source, pageViews }))
    .sort((a, b) => b.pageViews - a.pageViews || a.source.localeCompare(b.source));
}

/** The report of the listings `ids` (already authorised) over `period`. */
export async function buildOwnerReport(
  db: Database,
  ids: readonly string[],
  period: Pick<ReportPeriod, "from" | "to" | "days">,
  now = new Date(),
): Promise<OwnerReport> {
  const previous = previousPeriod(period);
  const [current, before, listings, sources, seen, leadDays, leadsBefore, bookings, bookingsBefore] = await Promise.all(
    [
      getMetricsByDateRange(db, period.from, period.to, ids),
      getMetricsByDateRange(db, previous.from, previous.to, ids),
      ids.length > 0 ? totalsByListing(db, ids, period.from, period.to) : Promise.resolve([]),
      ids.length > 0 ? trafficSources(db, ids, period.from, period.to) : Promise.resolve([]),
      ids.length > 0
        ? db
            .select({ lastViewed: max(locationMetrics.lastViewed), rows: sql<number>`count(*)::int` })
            .from(locationMetrics)
            .where(inArray(locationMetrics.locationId, [...ids]))
        : Promise.resolve([{ lastViewed: null, rows: 0 }]),
      leadsPerDay(db, ids, period.from, period.to),
      leadsPerDay(db, ids, previous.from, previous.to),
      reservationsPerDay(db, ids, period.from, period.to),
      reservationsPerDay(db, ids, previous.from, previous.to),
    ],
  );
  const leadsIn = (days: Map<string, number>) => [...days.values()].reduce((a, b) => a + b, 0);
  const conversions = (
    leadMap: Map<string, number>,
    reservations: { requests: Map<string, number>; accepted: Map<string, number> },
  ) => ({
    leads: leadsIn(leadMap),
    reservations: leadsIn(reservations.requests),
    reservationsAccepted: leadsIn(reservations.accepted),
  });
  const byDate = new Map(current.map((d) => [d.date, d]));
  const daily: ReportDay[] = [];
  for (let date = period.from; date <= period.to; date = addDays(date, 1)) {
    daily.push({
      date,
      ...toTotals(byDate.get(date) ?? ZERO),
      leads: leadDays.get(date) ?? 0,
      reservations: bookings.requests.get(date) ?? 0,
      reservationsAccepted: bookings.accepted.get(date) ?? 0,
    });
  }
  const now0 = sum(current);
  const then = sum(before);
  const lastViewedRaw = seen[0]?.lastViewed ?? null;
  const lastViewed = lastViewedRaw ? new Date(lastViewedRaw) : null;
  const scoreInput = { ...now0, lastViewed };
  const retained = addDays(dayOf(now.getTime()), -RAW_EVENT_DAYS);
  return {
    from: period.from,
    to: period.to,
    days: period.days,
    previous,
    totals: { ...toTotals(now0), ...conversions(leadDays, bookings) },
    previousTotals: { ...toTotals(then), ...conversions(leadsBefore, bookingsBefore) },
    growth: {
      pageViews: change(then.pageViews, now0.pageViews),
      listViews: change(then.listViews, now0.listViews),
      uniqueVisitors: change(then.uniqueVisitors, now0.uniqueVisitors),
      clicks: change(totalClicks(then), totalClicks(now0)),
    },
    daily,
    sources,
    sourcesFrom: period.from < retained ? retained : null,
    scores: { engagement: engagementScore(scoreInput, now), performance: performanceScore(scoreInput) },
    lastViewed: lastViewed ? lastViewed.toISOString() : null,
    everSeen: Number(seen[0]?.rows ?? 0) > 0,
    listings,
  };
}

export const CSV_COLUMNS = [
  "date",
  "page_views",
  "list_views",
  "unique_visitors",
  "website_clicks",
  "phone_clicks",
  "directions_clicks",
  "clicks",
  "conversion_percent",
  "leads",
  "reservation_requests",
  "reservations_accepted",
] as const;

/** The daily rows as CSV, through the site's one CSV writer (server/csv.ts). */
export function dailyCsv(daily: readonly ReportDay[]): string {
  return formatCsv(
    CSV_COLUMNS,
    daily.map((d) => [
      d.date,
      d.pageViews,
      d.listViews,
      d.uniqueVisitors,
      d.websiteClicks,
      d.phoneClicks,
      d.directionsClicks,
      d.clicks,
      d.conversionRate.toFixed(2),
      d.leads,
      d.reservations,
      d.reservationsAccepted,
    ]),
  );
}
