import { ADMIN_ANALYTICS_PRESETS, CUSTOM_RANGE } from "../../domain/analytics-period";
import { getDatabase } from "../db";
import type { Database } from "../db/client";
import { badRequest } from "../errors";
import { formatCsv } from "../csv";
import { stateMapShapes, type StateMap } from "../geo/state-map";
import {
  conversionTotals,
  listingTotals,
  platformTrend,
  recentSessions,
  searchDemandPlaces,
  searchDemandTotals,
  stateTotals,
  topListings,
  trafficSources,
  TOP_LISTING_METRICS,
  type Conversions,
  type DemandRow,
  type ListingTotals,
  type PlatformTrend,
  type SearchDemand,
  type SessionRow,
  type StateTotals,
  type TopListingMetric,
} from "./admin-report";
import { parseReportPeriod, previousPeriod, type ReportPeriod } from "./owner-report";

/**
 * The loader bodies of /admin/analytics and /admin/analytics.csv (docs/product.md section 10,
 * "Platform analytics"; docs/api.md, "Admin analytics"). The admin console's guard has run.
 */

export const TOP_LIMIT = 10;
export const DEMAND_LIMIT = 15;
/** The CSV downloads' row caps. */
export const CSV_TOP_LIMIT = 100;
export const CSV_DEMAND_LIMIT = 1_000;
export const CSV_SESSIONS_LIMIT = 500;

export interface AdminReport {
  from: string;
  to: string;
  days: number;
  trend: PlatformTrend;
  /** Leads, reservation requests and accepted reservations: this period's and the one before. */
  conversions: { current: Conversions; previous: Conversions };
  topMetric: TopListingMetric;
  top: ListingTotals[];
  /** Listings with any count in the period. */
  listingsSeen: number;
  states: StateTotals[];
  sources: { source: string; pageViews: number }[];
  sessions: SessionRow[];
  search: { totals: SearchDemand; places: DemandRow[]; gaps: DemandRow[] };
}

/** The whole screen's numbers for `period`, ranking the top listings by `topMetric`. */
export async function buildAdminReport(
  db: Database,
  period: Pick<ReportPeriod, "from" | "to" | "days">,
  topMetric: TopListingMetric,
  now = new Date(),
): Promise<AdminReport> {
  const { from, to } = period;
  const previous = previousPeriod(period);
  const [trend, listings, sources, sessions, totals, places, gaps, current, before] = await Promise.all([
    platformTrend(db, period, now),
    listingTotals(db, from, to),
    trafficSources(db, from, to),
    recentSessions(db, from, to, 20),
    searchDemandTotals(db, from, to),
    searchDemandPlaces(db, from, to, "searches", DEMAND_LIMIT),
    searchDemandPlaces(db, from, to, "gaps", DEMAND_LIMIT),
    conversionTotals(db, from, to),
    conversionTotals(db, previous.from, previous.to),
  ]);
  return {
    from,
    to,
    days: period.days,
    trend,
    conversions: { current, previous: before },
    topMetric,
    top: topListings(listings, topMetric, TOP_LIMIT),
    listingsSeen: listings.length,
    states: stateTotals(listings),
    sources,
    sessions,
    search: { totals, places, gaps },
  };
}

type Field = "from" | "to" | "days" | "top";

function parseTop(params: URLSearchParams): TopListingMetric | null {
  const raw = (params.get("top") ?? "").trim();
  if (raw === "") return "pageViews";
  return (TOP_LISTING_METRICS as readonly string[]).includes(raw) ? (raw as TopListingMetric) : null;
}

const TOP_MESSAGE = `Rank listings by one of: ${TOP_LISTING_METRICS.join(", ")}.`;

export type AdminAnalyticsPage =
  | {
      ok: true;
      values: { from: string; to: string; days: string; top: TopListingMetric };
      report: AdminReport;
      map: StateMap;
    }
  | {
      ok: false;
      values: { from: string; to: string; days: string; top: string };
      error: { field: Field; message: string };
    };

/** /admin/analytics: a bad period or metric is answered on the page itself (status 400), values kept. */
export async function adminAnalyticsPage(
  request: Request,
  now = new Date(),
): Promise<{ status: number; data: AdminAnalyticsPage }> {
  const params = new URL(request.url).searchParams;
  const values = {
    from: (params.get("from") ?? "").slice(0, 20),
    to: (params.get("to") ?? "").slice(0, 20),
    days: (params.get("days") ?? "").slice(0, 10),
    top: (params.get("top") ?? "").slice(0, 40),
  };
  if (values.days === "" && (values.from || values.to)) values.days = CUSTOM_RANGE;
  const parsed = parseReportPeriod(params, now, ADMIN_ANALYTICS_PRESETS);
  if (!parsed.ok)
    return { status: 400, data: { ok: false, values, error: { field: parsed.field, message: parsed.message } } };
  const top = parseTop(params);
  if (!top) return { status: 400, data: { ok: false, values, error: { field: "top", message: TOP_MESSAGE } } };
  const { period } = parsed;
  const report = await buildAdminReport(getDatabase(), period, top, now);
  return {
    status: 200,
    data: {
      ok: true,
      values: {
        from: period.from,
        to: period.to,
        days: period.preset ? String(period.preset) : CUSTOM_RANGE,
        top,
      },
      report,
      map: stateMapShapes(),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// CSV

export const CSV_TABLES = ["daily", "top", "states", "sources", "sessions", "searches", "gaps"] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

const fixed2 = (n: number) => n.toFixed(2);

/** The CSV text of one table of the screen over `period`. */
export async function adminCsv(
  db: Database,
  table: CsvTable,
  period: Pick<ReportPeriod, "from" | "to" | "days">,
  top: TopListingMetric,
  now = new Date(),
): Promise<string> {
  const { from, to } = period;
  switch (table) {
    case "daily": {
      const { daily } = await platformTrend(db, period, now);
      return formatCsv(
        [
          "date",
          "page_views",
          "list_views",
          "visitors",
          "website_clicks",
          "phone_clicks",
          "directions_clicks",
          "clicks",
          "conversion_percent",
          "searches",
        ],
        daily.map((d) => [
          d.date,
          d.pageViews,
          d.listViews,
          d.visitors,
          d.websiteClicks,
          d.phoneClicks,
          d.directionsClicks,
          d.clicks,
          fixed2(d.conversionRate),
          d.searches,
        ]),
      );
    }
    case "top": {
      const rows = topListings(await listingTotals(db, from, to), top, CSV_TOP_LIMIT);
      return formatCsv(
        [
          "rank",
          "listing_id",
          "name",
          "state",
          "page_views",
          "list_views",
          "unique_visitors",
          "website_clicks",
          "phone_clicks",
          "directions_clicks",
          "clicks",
          "conversion_percent",
        ],
        rows.map((r, i) => [
          i + 1,
          r.locationId,
          r.name,
          r.state,
          r.pageViews,
          r.listViews,
          r.uniqueVisitors,
          r.websiteClicks,
          r.phoneClicks,
          r.directionsClicks,
          r.clicks,
          fixed2(r.conversionRate),
        ]),
      );
    }
    case "states": {
      const rows = stateTotals(await listingTotals(db, from, to));
      return formatCsv(
        ["state", "state_name", "page_views", "list_views", "clicks", "listings_with_traffic"],
        rows.map((s) => [s.state, s.name, s.pageViews, s.listViews, s.clicks, s.listings]),
      );
    }
    case "sources": {
      const rows = await trafficSources(db, from, to);
      return formatCsv(
        ["source", "page_views"],
        rows.map((s) => [s.source, s.pageViews]),
      );
    }
    case "sessions": {
      const rows = await recentSessions(db, from, to, CSV_SESSIONS_LIMIT);
      return formatCsv(
        ["last_activity", "start_time", "duration_seconds", "page_views", "new_visitor", "signed_in", "last_listing"],
        rows.map((s) => [
          s.lastActivity,
          s.startTime,
          s.duration,
          s.pageViews,
          s.isNewVisitor,
          s.signedIn,
          s.listing?.name ?? null,
        ]),
      );
    }
    case "searches":
    case "gaps": {
      const rows = await searchDemandPlaces(db, from, to, table, CSV_DEMAND_LIMIT);
      return formatCsv(
        ["place", "place_key", "state", "searches", "average_results", "empty_searches", "none_within_100_miles"],
        rows.map((d) => [
          d.placeLabel,
          d.placeKey,
          d.state,
          d.searches,
          fixed2(d.averageResults),
          d.emptySearches,
          d.noneWithin100,
        ]),
      );
    }
  }
}

/** /admin/analytics.csv?table=&days= (or &from=&to=)[&top=]: one table as a download. */
export async function adminAnalyticsCsv(request: Request, now = new Date()): Promise<Response> {
  const db = getDatabase();
  const params = new URL(request.url).searchParams;
  const table = (params.get("table") ?? "").trim();
  if (!(CSV_TABLES as readonly string[]).includes(table))
    throw badRequest(`Choose a table to download: ${CSV_TABLES.join(", ")}.`, { field: "table" });
  const parsed = parseReportPeriod(params, now, ADMIN_ANALYTICS_PRESETS);
  if (!parsed.ok) throw badRequest(parsed.message, { field: parsed.field });
  const top = parseTop(params);
  if (!top) throw badRequest(TOP_MESSAGE, { field: "top" });
  const { period } = parsed;
  const body = await adminCsv(db, table as CsvTable, period, top, now);
  const name = table === "top" ? `top-${top}` : table;
  const file = `platform-${name}-${period.from}-to-${period.to}.csv`.replace(/[^A-Za-z0-9._-]/g, "-");
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
