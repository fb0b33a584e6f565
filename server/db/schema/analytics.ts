import { sql } from "drizzle-orm";
import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { locations } from "./locations";
import { at } from "./columns";

/**
 * Analytics (docs/product.md section 3, "Metrics document" and "Analytics event"). Raw events are written
 * once, keyed by their client event id, so a retried batch inserts nothing new; the counters below
 * are incremented only for the events that insert actually added (server/analytics/ingest.ts).
 */

const counter = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

/** Every accepted event, as received. Append-only; old rows may be pruned (docs/operations.md). */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    eventId: text("event_id").primaryKey(),
    eventType: text("event_type").notNull(),
    occurredAt: at("occurred_at").notNull(),
    receivedAt: at("received_at").notNull().defaultNow(),
    /** The tracker's analytics session (30 minutes idle). */
    sessionId: text("session_id").notNull(),
    /** The sign-in session that sent it (anonymous or not): what unique counts are keyed by. */
    authSessionId: text("auth_session_id").notNull(),
    userId: text("user_id"),
    locationId: text("location_id"),
    elementType: text("element_type"),
    url: text("url").notNull(),
    referrer: text("referrer"),
    trafficSource: text("traffic_source"),
    userAgent: text("user_agent"),
    viewport: jsonb("viewport").$type<{ width: number; height: number }>(),
  },
  (t) => [
    index("analytics_events_received_at_idx").on(t.receivedAt),
    index("analytics_events_location_idx").on(t.locationId, t.occurredAt),
  ],
);

const metricColumns = {
  pageViews: counter("page_views"),
  listViews: counter("list_views"),
  websiteClicks: counter("website_clicks"),
  contactClicks: counter("contact_clicks"),
  directionsClicks: counter("directions_clicks"),
  uniqueVisitors: counter("unique_visitors"),
  uniqueListViewers: counter("unique_list_viewers"),
};

const locationRef = () =>
  text("location_id")
    .notNull()
    .references(() => locations.placeId, { onDelete: "cascade" });

/** The metrics document of one location: its all-time counters. */
export const locationMetrics = pgTable(
  "location_metrics",
  {
    locationId: locationRef().primaryKey(),
    ...metricColumns,
    firstViewed: at("first_viewed"),
    lastViewed: at("last_viewed"),
    lastUpdated: at("last_updated").notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    index("location_metrics_page_views_idx").on(sql`${t.pageViews} desc`),
    index("location_metrics_last_viewed_idx").on(sql`${t.lastViewed} desc`),
  ],
);

/** The same counters per location and UTC day (the product rules' daily document "location id plus date"). */
export const locationMetricsDaily = pgTable(
  "location_metrics_daily",
  {
    locationId: locationRef(),
    date: date("date", { mode: "string" }).notNull(),
    ...metricColumns,
    lastUpdated: at("last_updated").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.date] }), index("location_metrics_daily_date_idx").on(t.date)],
);

/** Page views by traffic source class, per location. */
export const locationTrafficSources = pgTable(
  "location_traffic_sources",
  {
    locationId: locationRef(),
    source: text("source").notNull(),
    count: counter("count"),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.source] })],
);

/**
 * Which sign-in sessions have viewed ('visit') or seen in a list ('list') a location: the
 * uniqueVisitorSessions / uniqueListViewerSessions of the product rules' metrics document. A row that inserts
 * is a new unique visitor; one that conflicts is not.
 */
export const analyticsUniqueSessions = pgTable(
  "analytics_unique_sessions",
  {
    locationId: locationRef(),
    kind: text("kind").notNull(),
    sessionId: text("session_id").notNull(),
    firstSeen: at("first_seen").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.kind, t.sessionId] })],
);

/** The same per UTC day, for the daily unique counts; rows older than a week may be pruned. */
export const analyticsDailyUniqueSessions = pgTable(
  "analytics_daily_unique_sessions",
  {
    locationId: locationRef(),
    date: date("date", { mode: "string" }).notNull(),
    kind: text("kind").notNull(),
    sessionId: text("session_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.locationId, t.date, t.kind, t.sessionId] }),
    index("analytics_daily_unique_sessions_date_idx").on(t.date),
  ],
);

/**
 * What each sign-in session has added to each listing per UTC hour, by event kind (`page_view`,
 * `list_view`, `click:<type>`): the per-session caps of server/analytics/caps.ts, counted in the
 * ingest transaction so that they hold across batches and app instances. `count` counts the
 * events offered, so it may pass the cap. No foreign key: rows live an hour or two (the daily
 * retention job deletes them), and the key leads with the hour so that pruning is a range scan.
 */
export const analyticsSessionCaps = pgTable(
  "analytics_session_caps",
  {
    hour: at("hour").notNull(),
    authSessionId: text("auth_session_id").notNull(),
    locationId: text("location_id").notNull(),
    kind: text("kind").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.authSessionId, t.locationId, t.kind] })],
);

/**
 * Events each client address has added per UTC day (the per-address budget of
 * server/analytics/caps.ts). `ip_key` is a hash of the address (an IPv6 /64), never the address.
 */
export const analyticsIpBudgets = pgTable(
  "analytics_ip_budgets",
  {
    date: date("date", { mode: "string" }).notNull(),
    ipKey: text("ip_key").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.date, t.ipKey] })],
);

export type LocationMetricsRow = typeof locationMetrics.$inferSelect;
export type LocationMetricsDailyRow = typeof locationMetricsDaily.$inferSelect;

/**
 * docs/product.md section 3's analytics session, as the server saw it: one row per tracker session
 * (30 minutes idle) within one sign-in session, kept up to date from the events that arrive.
 * `is_new_session` is true for the first analytics session of a sign-in session (a new visitor).
 */
export const analyticsSessions = pgTable(
  "analytics_sessions",
  {
    authSessionId: text("auth_session_id").notNull(),
    sessionId: text("session_id").notNull(),
    userId: text("user_id"),
    startTime: at("start_time").notNull(),
    lastActivity: at("last_activity").notNull(),
    durationSeconds: bigint("duration_seconds", { mode: "number" })
      .notNull()
      .generatedAlwaysAs(sql`floor(extract(epoch from (last_activity - start_time)))::bigint`),
    pageViews: counter("page_views"),
    isNewSession: boolean("is_new_session").notNull(),
    /** The listing of the session's most recent event that had one. */
    locationId: text("location_id"),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.authSessionId, t.sessionId] }),
    index("analytics_sessions_last_idx").on(t.lastActivity),
    // The admin analytics' visitors per day (server/analytics/admin-report.ts).
    index("analytics_sessions_start_idx").on(t.startTime),
  ],
);
