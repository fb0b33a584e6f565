import { bigint, date, index, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { locations } from "./locations";

/**
 * Roll-ups of the analytics counters for the admin analytics screen (docs/product.md section 10,
 * "Platform analytics"; docs/decisions/017-admin-analytics-rollups.md). They are kept by
 * statement-level triggers on `location_metrics_daily` and `location_traffic_sources` (migration
 * 0014), in the transaction that changes those, so every writer keeps them right without knowing
 * of them; `rebuildAnalyticsRollups` (server/analytics/rollups.ts) recomputes them from scratch.
 *
 * Platform-wide rows are split into `shard`s (the writing connection's backend pid modulo 8), so
 * that concurrent ingest transactions rarely wait for each other on one hot row per day; readers
 * add the shards up.
 */

const counter = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

const metricColumns = {
  pageViews: counter("page_views"),
  listViews: counter("list_views"),
  websiteClicks: counter("website_clicks"),
  contactClicks: counter("contact_clicks"),
  directionsClicks: counter("directions_clicks"),
  uniqueVisitors: counter("unique_visitors"),
  uniqueListViewers: counter("unique_list_viewers"),
};

/** `location_metrics_daily` added up per listing and calendar month (`month` is its first day). */
export const locationMetricsMonthly = pgTable(
  "location_metrics_monthly",
  {
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    month: date("month", { mode: "string" }).notNull(),
    ...metricColumns,
  },
  (t) => [primaryKey({ columns: [t.locationId, t.month] }), index("location_metrics_monthly_month_idx").on(t.month)],
);

/**
 * `location_metrics_daily` added up over every listing per UTC day. A listing deleted later keeps
 * its part here: the visits happened on the platform.
 */
export const platformMetricsDaily = pgTable(
  "platform_metrics_daily",
  {
    date: date("date", { mode: "string" }).notNull(),
    shard: smallint("shard").notNull(),
    ...metricColumns,
  },
  (t) => [primaryKey({ columns: [t.date, t.shard] })],
);

/**
 * Listing page views per traffic source class and UTC day the server counted them on (the
 * all-time `location_traffic_sources` has no day).
 */
export const trafficSourcesDaily = pgTable(
  "traffic_sources_daily",
  {
    date: date("date", { mode: "string" }).notNull(),
    source: text("source").notNull(),
    shard: smallint("shard").notNull(),
    pageViews: counter("page_views"),
  },
  (t) => [primaryKey({ columns: [t.date, t.source, t.shard] })],
);

/**
 * Different visitors (sign-in sessions) whose visits started on each UTC day, counted from
 * `analytics_sessions` once the day can no longer change (8 days on: events up to 7 days old are
 * accepted) by the daily job (server/analytics/rollups.ts). Outlives the sessions (90 days), so the
 * daily visitors of a whole year can be drawn; the days not counted yet are counted live.
 */
export const platformVisitorsDaily = pgTable("platform_visitors_daily", {
  date: date("date", { mode: "string" }).primaryKey(),
  visitors: bigint("visitors", { mode: "number" }).notNull(),
});
