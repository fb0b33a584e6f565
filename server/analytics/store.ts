import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import type { AnalyticsViewport, ClickType, TrafficSource } from "../../domain/analytics-types";
import { INGEST_CAPS, capKind, capOf, hourOf } from "./caps";

/** The counters both metrics tables share, and the upsert clause that adds a batch's to them. */
const COUNTER_COLUMNS = [
  "page_views",
  "list_views",
  "website_clicks",
  "contact_clicks",
  "directions_clicks",
  "unique_visitors",
  "unique_list_viewers",
] as const;
const ADD_COUNTERS = sql.raw(COUNTER_COLUMNS.map((c) => `${c} = m.${c} + excluded.${c}`).join(",\n        "));

/** One event as stored: validated, normalised, with the server's view of who sent it. */
export interface EventRow {
  eventId: string;
  eventType: "page_view" | "list_view" | "click";
  occurredAt: Date;
  sessionId: string;
  authSessionId: string;
  userId: string | null;
  locationId: string | null;
  elementType: ClickType | null;
  url: string;
  referrer: string | null;
  trafficSource: TrafficSource | null;
  userAgent: string | null;
  viewport: AnalyticsViewport | null;
  /** When the server received it: the hour and day the caps count it in (never the client's clock). */
  receivedAt: Date;
  /** The sender's address budget key (server/analytics/caps.ts `ipBudgetKey`); not stored. */
  ipKey: string;
}

/** What became of an event that was not already stored: counted, or over a cap and dropped. */
export type EventOutcome = "counted" | "dropped";

/** A batch's counts; its unique visitors and list viewers are counted in SQL, from the new marks. */
interface Counters {
  page_views: number;
  list_views: number;
  website_clicks: number;
  contact_clicks: number;
  directions_clicks: number;
}

const zero = (): Counters => ({
  page_views: 0,
  list_views: 0,
  website_clicks: 0,
  contact_clicks: 0,
  directions_clicks: 0,
});

const CLICK_COLUMN: Record<ClickType, keyof Counters> = {
  website: "website_clicks",
  phone: "contact_clicks",
  contact_button: "contact_clicks",
  directions: "directions_clicks",
};

const utcDate = (d: Date) => d.toISOString().slice(0, 10);
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
/**
 * One column of a set-based statement's rows as a single array parameter, read back with
 * `unnest($1::text[], $2::bigint[], …)`: PostgreSQL reads typed arrays about twice as fast as the
 * same rows as JSON (`jsonb_to_recordset`), which made the JSON parse the largest part of the raw
 * events' insert (docs/decisions/022-analytics-write-path.md). `sql.param`, because drizzle spreads a
 * bare array into a list of parameters.
 */
const column = <T>(rows: readonly T[], value: (row: T) => unknown) => sql.param(rows.map(value));

function bump(counters: Counters, row: EventRow): void {
  if (row.eventType === "page_view") counters.page_views++;
  else if (row.eventType === "list_view") counters.list_views++;
  else if (row.elementType) counters[CLICK_COLUMN[row.elementType]]++;
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * The upsert of the analytics session records (docs/product.md section 3) of new events: start,
 * last activity, page views, the latest listing, the user; a session's first row says whether it
 * is the sign-in session's first analytics session (a new visitor). Null without rows.
 */
function sessionsUpsert(rows: readonly EventRow[]): SQL | null {
  const sessions = new Map<
    string,
    {
      auth_session_id: string;
      session_id: string;
      user_id: string | null;
      start_time: Date;
      last_activity: Date;
      page_views: number;
      location_id: string | null;
      located_at: Date | null;
    }
  >();
  for (const row of rows) {
    const key = `${row.authSessionId}\u0000${row.sessionId}`;
    let s = sessions.get(key);
    if (!s) {
      s = {
        auth_session_id: row.authSessionId,
        session_id: row.sessionId,
        user_id: null,
        start_time: row.occurredAt,
        last_activity: row.occurredAt,
        page_views: 0,
        location_id: null,
        located_at: null,
      };
      sessions.set(key, s);
    }
    if (row.occurredAt < s.start_time) s.start_time = row.occurredAt;
    if (row.occurredAt > s.last_activity) s.last_activity = row.occurredAt;
    if (row.eventType === "page_view") s.page_views++;
    if (row.userId) s.user_id = row.userId;
    if (row.locationId && (!s.located_at || row.occurredAt >= s.located_at)) {
      s.location_id = row.locationId;
      s.located_at = row.occurredAt;
    }
  }
  if (sessions.size === 0) return null;
  const payload = [...sessions.values()]
    .sort((a, b) =>
      a.auth_session_id === b.auth_session_id
        ? a.session_id.localeCompare(b.session_id)
        : a.auth_session_id < b.auth_session_id
          ? -1
          : 1,
    )
    .map(({ located_at: _, start_time, last_activity, ...rest }) => ({
      ...rest,
      start_time: start_time.toISOString(),
      last_activity: last_activity.toISOString(),
    }));
  return sql`
    insert into analytics_sessions as s (auth_session_id, session_id, user_id, start_time, last_activity,
      page_views, location_id, is_new_session)
    select x.auth_session_id, x.session_id, x.user_id, x.start_time, x.last_activity, x.page_views, x.location_id,
      not exists (select 1 from analytics_sessions o
        where o.auth_session_id = x.auth_session_id and o.session_id <> x.session_id)
    from unnest(${column(payload, (p) => p.auth_session_id)}::text[], ${column(payload, (p) => p.session_id)}::text[],
      ${column(payload, (p) => p.user_id)}::text[], ${column(payload, (p) => p.start_time)}::timestamptz[],
      ${column(payload, (p) => p.last_activity)}::timestamptz[], ${column(payload, (p) => p.page_views)}::bigint[],
      ${column(payload, (p) => p.location_id)}::text[])
      as x(auth_session_id, session_id, user_id, start_time, last_activity, page_views, location_id)
    order by 1, 2
    on conflict (auth_session_id, session_id) do update set
      user_id = coalesce(excluded.user_id, s.user_id),
      start_time = least(s.start_time, excluded.start_time),
      last_activity = greatest(s.last_activity, excluded.last_activity),
      page_views = s.page_views + excluded.page_views,
      location_id = case when excluded.last_activity >= s.last_activity
        then coalesce(excluded.location_id, s.location_id) else coalesce(s.location_id, excluded.location_id) end,
      updated_at = now()`;
}

/**
 * `total` is a cap's counter after this transaction added `rows` to it, so what was there before
 * is total - rows.length: the rows past the room that left are dropped, in order.
 */
function dropOverCap(rows: readonly EventRow[], total: number, cap: number, dropped: Set<EventRow>): void {
  const room = Math.max(0, cap - (total - rows.length));
  for (const row of rows.slice(room)) dropped.add(row);
}

/** No session counter at or below this can have dropped an event: the database returns only the others. */
const SMALLEST_SESSION_CAP = Math.min(
  INGEST_CAPS.pageViewsPerHour,
  INGEST_CAPS.listViewsPerHour,
  INGEST_CAPS.clicksPerTypePerHour,
);

/**
 * Applies the caps of server/analytics/caps.ts to events not stored before, in order, by counting
 * them in the cap tables inside the caller's transaction: first what each sign-in session has
 * added to each listing this hour (per event kind), then what each address has added today. The
 * upserts lock the counter rows, so concurrent transactions, on any instance, see each other's
 * counts. Returns the events within the caps.
 */
async function withinCaps(tx: Transaction, rows: readonly EventRow[]): Promise<EventRow[]> {
  const byCap = new Map<string, { rows: EventRow[]; hour: string; key: string[] }>();
  for (const row of rows) {
    if (row.locationId === null) continue;
    const hour = hourOf(row.receivedAt);
    const key = [row.authSessionId, row.locationId, capKind(row.eventType, row.elementType)];
    const id = `${new Date(hour).getTime()}\u0000${key.join("\u0000")}`;
    let entry = byCap.get(id);
    if (!entry) byCap.set(id, (entry = { rows: [], hour, key }));
    entry.rows.push(row);
  }
  const dropped = new Set<EventRow>();
  if (byCap.size > 0) {
    const payload = [...byCap.values()]
      .map((e) => ({
        hour: e.hour,
        auth_session_id: e.key[0]!,
        location_id: e.key[1]!,
        kind: e.key[2]!,
        count: e.rows.length,
      }))
      .sort((a, b) =>
        compareKeys(
          [a.hour, a.auth_session_id, a.location_id, a.kind],
          [b.hour, b.auth_session_id, b.location_id, b.kind],
        ),
      );
    const counts = rowsOf(
      await tx.execute(sql`
        with c as (
          insert into analytics_session_caps as c (hour, auth_session_id, location_id, kind, count)
          select x.hour, x.auth_session_id, x.location_id, x.kind, x.count
          from unnest(${column(payload, (p) => p.hour)}::timestamptz[], ${column(payload, (p) => p.auth_session_id)}::text[],
            ${column(payload, (p) => p.location_id)}::text[], ${column(payload, (p) => p.kind)}::text[],
            ${column(payload, (p) => p.count)}::integer[]) as x(hour, auth_session_id, location_id, kind, count)
          order by 1, 2, 3, 4
          on conflict (hour, auth_session_id, location_id, kind) do update set count = c.count + excluded.count
          returning c.hour, c.auth_session_id, c.location_id, c.kind, c.count
        )
        select (extract(epoch from hour) * 1000)::bigint::text as hour_ms, auth_session_id, location_id, kind, count
        from c where count > ${SMALLEST_SESSION_CAP}`),
    );
    for (const r of counts) {
      const kind = String(r.kind);
      const entry = byCap.get(
        `${String(r.hour_ms)}\u0000${String(r.auth_session_id)}\u0000${String(r.location_id)}\u0000${kind}`,
      );
      if (entry) dropOverCap(entry.rows, Number(r.count), capOf(kind), dropped);
    }
  }

  const byAddress = new Map<string, { date: string; ip_key: string; rows: EventRow[] }>();
  for (const row of rows) {
    if (dropped.has(row)) continue;
    const date = utcDate(row.receivedAt);
    const id = `${date}\u0000${row.ipKey}`;
    let entry = byAddress.get(id);
    if (!entry) byAddress.set(id, (entry = { date, ip_key: row.ipKey, rows: [] }));
    entry.rows.push(row);
  }
  if (byAddress.size > 0) {
    const payload = [...byAddress.values()]
      .map((e) => ({ date: e.date, ip_key: e.ip_key, count: e.rows.length }))
      .sort((a, b) => compareKeys([a.date, a.ip_key], [b.date, b.ip_key]));
    const counts = rowsOf(
      await tx.execute(sql`
        with b as (
          insert into analytics_ip_budgets as b (date, ip_key, count)
          select x.date, x.ip_key, x.count
          from unnest(${column(payload, (p) => p.date)}::date[], ${column(payload, (p) => p.ip_key)}::text[],
            ${column(payload, (p) => p.count)}::integer[]) as x(date, ip_key, count)
          order by 1, 2
          on conflict (date, ip_key) do update set count = b.count + excluded.count
          returning b.date, b.ip_key, b.count
        )
        select date::text as date, ip_key, count from b where count > ${INGEST_CAPS.eventsPerIpPerDay}`),
    );
    for (const r of counts) {
      const entry = byAddress.get(`${String(r.date)}\u0000${String(r.ip_key)}`);
      if (entry) dropOverCap(entry.rows, Number(r.count), INGEST_CAPS.eventsPerIpPerDay, dropped);
    }
  }
  return dropped.size === 0 ? [...rows] : rows.filter((row) => !dropped.has(row));
}

const compareKeys = (a: readonly string[], b: readonly string[]) => {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! !== b[i]!) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
};

/**
 * Stores events and counts the ones not seen before, in one transaction: a multi-row insert of
 * the raw events that skips known event ids and returns the new ones; the caps
 * (server/analytics/caps.ts) for those, whose over-the-cap events are deleted again (never
 * visible outside the transaction); then one statement of set-based upserts of the analytics
 * session records, the unique-session marks and the counters for the events kept. Six round trips
 * with `begin` and `commit`, however many events. Replaying a batch therefore changes nothing, and
 * a replay does not use up a cap. Rows are sorted by key so concurrent writers lock in the same
 * order. Returns the outcome of each event that was new (a missing id is a duplicate).
 */
export async function storeEvents(db: Database, rows: readonly EventRow[]): Promise<Map<string, EventOutcome>> {
  if (rows.length === 0) return new Map();
  return db.transaction(async (tx) => {
    const inserted = rowsOf(
      await tx.execute(sql`
        insert into analytics_events (event_id, event_type, occurred_at, session_id, auth_session_id, user_id,
          location_id, element_type, url, referrer, traffic_source, user_agent, viewport)
        select x.event_id, x.event_type, x.occurred_at, x.session_id, x.auth_session_id, x.user_id, x.location_id,
          x.element_type, x.url, x.referrer, x.traffic_source, x.user_agent, x.viewport::jsonb
        from unnest(${column(rows, (r) => r.eventId)}::text[], ${column(rows, (r) => r.eventType)}::text[],
          ${column(rows, (r) => r.occurredAt.toISOString())}::timestamptz[], ${column(rows, (r) => r.sessionId)}::text[],
          ${column(rows, (r) => r.authSessionId)}::text[], ${column(rows, (r) => r.userId)}::text[],
          ${column(rows, (r) => r.locationId)}::text[], ${column(rows, (r) => r.elementType)}::text[],
          ${column(rows, (r) => r.url)}::text[], ${column(rows, (r) => r.referrer)}::text[],
          ${column(rows, (r) => r.trafficSource)}::text[], ${column(rows, (r) => r.userAgent)}::text[],
          -- As text, cast row by row: a jsonb[] parameter (or a jsonb field of jsonb_to_recordset)
          -- costs about 20 us an element to read, the cast 1 us.
          ${column(rows, (r) => (r.viewport ? JSON.stringify(r.viewport) : null))}::text[])
          as x(event_id, event_type, occurred_at, session_id, auth_session_id, user_id, location_id, element_type,
            url, referrer, traffic_source, user_agent, viewport)
        on conflict (event_id) do nothing
        returning event_id`),
    );
    const fresh = new Set(inserted.map((r) => String(r.event_id)));
    // An id twice in the rows (two batches of one group) is new once: its first row.
    const offered = rows.filter((r) => fresh.delete(r.eventId));
    const stored = await withinCaps(tx, offered);
    const outcomes = new Map<string, EventOutcome>(offered.map((r) => [r.eventId, "dropped"]));
    for (const row of stored) outcomes.set(row.eventId, "counted");
    if (stored.length < offered.length) {
      const over = offered.filter((r) => outcomes.get(r.eventId) === "dropped").map((r) => r.eventId);
      await tx.execute(sql`delete from analytics_events where event_id = any(${sql.param(over)}::text[])`);
    }
    const sessions = sessionsUpsert(stored);
    if (!sessions) return outcomes;
    const counted = stored.filter((r) => r.locationId !== null);
    if (counted.length === 0) {
      await tx.execute(sessions);
      return outcomes;
    }

    // Aggregate the new events in memory: per location, per location and day, per traffic source.
    const total = new Map<string, Counters & { first: Date | null; last: Date | null }>();
    const daily = new Map<string, Counters & { location_id: string; date: string }>();
    const sources = new Map<string, { location_id: string; source: string; count: number }>();
    const marks = new Map<string, { location_id: string; kind: string; session_id: string }>();
    const dayMarks = new Map<string, { location_id: string; date: string; kind: string; session_id: string }>();
    for (const row of counted) {
      const id = row.locationId!;
      const date = utcDate(row.occurredAt);
      let all = total.get(id);
      if (!all) total.set(id, (all = { ...zero(), first: null, last: null }));
      let day = daily.get(`${id}\u0000${date}`);
      if (!day) daily.set(`${id}\u0000${date}`, (day = { ...zero(), location_id: id, date }));
      bump(all, row);
      bump(day, row);
      if (row.eventType === "click") continue;
      const kind = row.eventType === "page_view" ? "visit" : "list";
      marks.set(`${id}\u0000${kind}\u0000${row.authSessionId}`, {
        location_id: id,
        kind,
        session_id: row.authSessionId,
      });
      dayMarks.set(`${id}\u0000${date}\u0000${kind}\u0000${row.authSessionId}`, {
        location_id: id,
        date,
        kind,
        session_id: row.authSessionId,
      });
      if (row.eventType === "page_view") {
        if (!all.first || row.occurredAt < all.first) all.first = row.occurredAt;
        if (!all.last || row.occurredAt > all.last) all.last = row.occurredAt;
        const source = row.trafficSource ?? "direct";
        const entry = sources.get(`${id}\u0000${source}`);
        if (entry) entry.count++;
        else sources.set(`${id}\u0000${source}`, { location_id: id, source, count: 1 });
      }
    }
    const markRows = [...marks.values()];
    const dayMarkRows = [...dayMarks.values()];
    const totals = [...total.entries()]
      .map(([location_id, c]) => ({
        location_id,
        ...c,
        first: c.first?.toISOString() ?? null,
        last: c.last?.toISOString() ?? null,
      }))
      .sort((a, b) => (a.location_id < b.location_id ? -1 : 1));
    const days = [...daily.values()].sort((a, b) =>
      a.location_id === b.location_id ? a.date.localeCompare(b.date) : a.location_id < b.location_id ? -1 : 1,
    );
    const bySource = [...sources.values()].sort((a, b) =>
      a.location_id === b.location_id ? a.source.localeCompare(b.source) : a.location_id < b.location_id ? -1 : 1,
    );

    // One statement: the session records, the unique-session marks, and the counters, whose unique
    // visitors and list viewers are the marks that were new. Each upsert takes its rows in key order.
    await tx.execute(sql`
      with sessions as (${sessions}),
      marks as (
        insert into analytics_unique_sessions (location_id, kind, session_id)
        select x.location_id, x.kind, x.session_id
        from unnest(${column(markRows, (m) => m.location_id)}::text[], ${column(markRows, (m) => m.kind)}::text[],
          ${column(markRows, (m) => m.session_id)}::text[]) as x(location_id, kind, session_id)
        order by 1, 2, 3
        on conflict do nothing
        returning location_id, kind
      ),
      day_marks as (
        insert into analytics_daily_unique_sessions (location_id, date, kind, session_id)
        select x.location_id, x.date, x.kind, x.session_id
        from unnest(${column(dayMarkRows, (m) => m.location_id)}::text[], ${column(dayMarkRows, (m) => m.date)}::date[],
          ${column(dayMarkRows, (m) => m.kind)}::text[], ${column(dayMarkRows, (m) => m.session_id)}::text[])
          as x(location_id, date, kind, session_id)
        order by 1, 2, 3, 4
        on conflict do nothing
        returning location_id, date, kind
      ),
      new_marks as (
        select location_id, count(*) filter (where kind = 'visit') as visitors,
          count(*) filter (where kind = 'list') as list_viewers
        from marks group by location_id
      ),
      new_day_marks as (
        select location_id, date, count(*) filter (where kind = 'visit') as visitors,
          count(*) filter (where kind = 'list') as list_viewers
        from day_marks group by location_id, date
      ),
      totals as (
        insert into location_metrics as m (location_id, page_views, list_views, website_clicks, contact_clicks,
          directions_clicks, unique_visitors, unique_list_viewers, first_viewed, last_viewed)
        select x.location_id, x.page_views, x.list_views, x.website_clicks, x.contact_clicks, x.directions_clicks,
          coalesce(n.visitors, 0), coalesce(n.list_viewers, 0), x.first, x.last
        from unnest(${column(totals, (t) => t.location_id)}::text[], ${column(totals, (t) => t.page_views)}::bigint[],
          ${column(totals, (t) => t.list_views)}::bigint[], ${column(totals, (t) => t.website_clicks)}::bigint[],
          ${column(totals, (t) => t.contact_clicks)}::bigint[], ${column(totals, (t) => t.directions_clicks)}::bigint[],
          ${column(totals, (t) => t.first)}::timestamptz[], ${column(totals, (t) => t.last)}::timestamptz[])
          as x(location_id, page_views, list_views, website_clicks, contact_clicks, directions_clicks, first, last)
        left join new_marks n on n.location_id = x.location_id
        order by x.location_id
        on conflict (location_id) do update set
          ${ADD_COUNTERS},
          first_viewed = least(m.first_viewed, excluded.first_viewed),
          last_viewed = greatest(m.last_viewed, excluded.last_viewed),
          last_updated = now(),
          updated_at = now()
      ),
      days as (
        insert into location_metrics_daily as m (location_id, date, page_views, list_views, website_clicks,
          contact_clicks, directions_clicks, unique_visitors, unique_list_viewers)
        select x.location_id, x.date, x.page_views, x.list_views, x.website_clicks, x.contact_clicks,
          x.directions_clicks, coalesce(n.visitors, 0), coalesce(n.list_viewers, 0)
        from unnest(${column(days, (d) => d.location_id)}::text[], ${column(days, (d) => d.date)}::date[],
          ${column(days, (d) => d.page_views)}::bigint[], ${column(days, (d) => d.list_views)}::bigint[],
          ${column(days, (d) => d.website_clicks)}::bigint[], ${column(days, (d) => d.contact_clicks)}::bigint[],
          ${column(days, (d) => d.directions_clicks)}::bigint[])
          as x(location_id, date, page_views, list_views, website_clicks, contact_clicks, directions_clicks)
        left join new_day_marks n on n.location_id = x.location_id and n.date = x.date
        order by x.location_id, x.date
        on conflict (location_id, date) do update set
          ${ADD_COUNTERS},
          last_updated = now()
      )
      insert into location_traffic_sources as t (location_id, source, count)
      select x.location_id, x.source, x.count
      from unnest(${column(bySource, (t) => t.location_id)}::text[], ${column(bySource, (t) => t.source)}::text[],
        ${column(bySource, (t) => t.count)}::bigint[]) as x(location_id, source, count)
      order by x.location_id, x.source
      on conflict (location_id, source) do update set count = t.count + excluded.count`);
    return outcomes;
  });
}
