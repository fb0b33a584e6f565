-- The admin analytics roll-ups (docs/decisions/017-admin-analytics-rollups.md): statement-level
-- triggers add what a statement changed in location_metrics_daily to location_metrics_monthly and
-- platform_metrics_daily, what it changed in location_traffic_sources to traffic_sources_daily, and
-- what it changed in search_demand_daily to search_demand_monthly and platform_searches_daily,
-- in the same transaction. Platform rows are sharded by the writer's backend pid so that
-- concurrent ingest transactions rarely wait on one row. Then the tables are filled from what
-- exists. server/analytics/rollups.ts has the same arithmetic as a rebuild.
CREATE FUNCTION analytics_rollup_daily_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO location_metrics_monthly AS m (location_id, month, page_views, list_views, website_clicks,
    contact_clicks, directions_clicks, unique_visitors, unique_list_viewers)
  SELECT location_id, date_trunc('month', date)::date, sum(page_views), sum(list_views), sum(website_clicks),
    sum(contact_clicks), sum(directions_clicks), sum(unique_visitors), sum(unique_list_viewers)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (location_id, month) DO UPDATE SET
    page_views = m.page_views + excluded.page_views, list_views = m.list_views + excluded.list_views,
    website_clicks = m.website_clicks + excluded.website_clicks,
    contact_clicks = m.contact_clicks + excluded.contact_clicks,
    directions_clicks = m.directions_clicks + excluded.directions_clicks,
    unique_visitors = m.unique_visitors + excluded.unique_visitors,
    unique_list_viewers = m.unique_list_viewers + excluded.unique_list_viewers;
  INSERT INTO platform_metrics_daily AS p (date, shard, page_views, list_views, website_clicks, contact_clicks,
    directions_clicks, unique_visitors, unique_list_viewers)
  SELECT date, (pg_backend_pid() % 8)::smallint, sum(page_views), sum(list_views), sum(website_clicks),
    sum(contact_clicks), sum(directions_clicks), sum(unique_visitors), sum(unique_list_viewers)
  FROM new_rows GROUP BY 1 ORDER BY 1
  ON CONFLICT (date, shard) DO UPDATE SET
    page_views = p.page_views + excluded.page_views, list_views = p.list_views + excluded.list_views,
    website_clicks = p.website_clicks + excluded.website_clicks,
    contact_clicks = p.contact_clicks + excluded.contact_clicks,
    directions_clicks = p.directions_clicks + excluded.directions_clicks,
    unique_visitors = p.unique_visitors + excluded.unique_visitors,
    unique_list_viewers = p.unique_list_viewers + excluded.unique_list_viewers;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update adds new minus old, grouped by each row's own key (so even a changed key is right).
CREATE FUNCTION analytics_rollup_daily_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO location_metrics_monthly AS m (location_id, month, page_views, list_views, website_clicks,
    contact_clicks, directions_clicks, unique_visitors, unique_list_viewers)
  SELECT location_id, date_trunc('month', date)::date, sum(page_views), sum(list_views), sum(website_clicks),
    sum(contact_clicks), sum(directions_clicks), sum(unique_visitors), sum(unique_list_viewers)
  FROM (
    SELECT location_id, date, page_views, list_views, website_clicks, contact_clicks, directions_clicks,
      unique_visitors, unique_list_viewers FROM new_rows
    UNION ALL
    SELECT location_id, date, -page_views, -list_views, -website_clicks, -contact_clicks, -directions_clicks,
      -unique_visitors, -unique_list_viewers FROM old_rows
  ) c GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (location_id, month) DO UPDATE SET
    page_views = m.page_views + excluded.page_views, list_views = m.list_views + excluded.list_views,
    website_clicks = m.website_clicks + excluded.website_clicks,
    contact_clicks = m.contact_clicks + excluded.contact_clicks,
    directions_clicks = m.directions_clicks + excluded.directions_clicks,
    unique_visitors = m.unique_visitors + excluded.unique_visitors,
    unique_list_viewers = m.unique_list_viewers + excluded.unique_list_viewers;
  INSERT INTO platform_metrics_daily AS p (date, shard, page_views, list_views, website_clicks, contact_clicks,
    directions_clicks, unique_visitors, unique_list_viewers)
  SELECT date, (pg_backend_pid() % 8)::smallint, sum(page_views), sum(list_views), sum(website_clicks),
    sum(contact_clicks), sum(directions_clicks), sum(unique_visitors), sum(unique_list_viewers)
  FROM (
    SELECT location_id, date, page_views, list_views, website_clicks, contact_clicks, directions_clicks,
      unique_visitors, unique_list_viewers FROM new_rows
    UNION ALL
    SELECT location_id, date, -page_views, -list_views, -website_clicks, -contact_clicks, -directions_clicks,
      -unique_visitors, -unique_list_viewers FROM old_rows
  ) c GROUP BY 1 ORDER BY 1
  ON CONFLICT (date, shard) DO UPDATE SET
    page_views = p.page_views + excluded.page_views, list_views = p.list_views + excluded.list_views,
    website_clicks = p.website_clicks + excluded.website_clicks,
    contact_clicks = p.contact_clicks + excluded.contact_clicks,
    directions_clicks = p.directions_clicks + excluded.directions_clicks,
    unique_visitors = p.unique_visitors + excluded.unique_visitors,
    unique_list_viewers = p.unique_list_viewers + excluded.unique_list_viewers;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER location_metrics_daily_rollup_insert AFTER INSERT ON location_metrics_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_rollup_daily_insert();
--> statement-breakpoint
CREATE TRIGGER location_metrics_daily_rollup_update AFTER UPDATE ON location_metrics_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION analytics_rollup_daily_update();
--> statement-breakpoint
-- Page views by source, dated by the UTC day of the transaction that counted them.
CREATE FUNCTION analytics_rollup_sources_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO traffic_sources_daily AS t (date, source, shard, page_views)
  SELECT (now() AT TIME ZONE 'UTC')::date, source, (pg_backend_pid() % 8)::smallint, sum(count)
  FROM new_rows GROUP BY 2 ORDER BY 2
  ON CONFLICT (date, source, shard) DO UPDATE SET page_views = t.page_views + excluded.page_views;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION analytics_rollup_sources_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO traffic_sources_daily AS t (date, source, shard, page_views)
  SELECT (now() AT TIME ZONE 'UTC')::date, source, (pg_backend_pid() % 8)::smallint, sum(count)
  FROM (SELECT source, count FROM new_rows UNION ALL SELECT source, -count FROM old_rows) c
  GROUP BY 2 HAVING sum(count) <> 0 ORDER BY 2
  ON CONFLICT (date, source, shard) DO UPDATE SET page_views = t.page_views + excluded.page_views;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER location_traffic_sources_rollup_insert AFTER INSERT ON location_traffic_sources
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_rollup_sources_insert();
--> statement-breakpoint
CREATE TRIGGER location_traffic_sources_rollup_update AFTER UPDATE ON location_traffic_sources
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION analytics_rollup_sources_update();
--> statement-breakpoint
CREATE FUNCTION search_demand_rollup_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_demand_monthly AS m (month, place_key, place_label, state, searches, results, empty_searches, none_within_100)
  SELECT date_trunc('month', date)::date, place_key, max(place_label), max(state), sum(searches), sum(results),
    sum(empty_searches), sum(none_within_100)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (month, place_key) DO UPDATE SET
    place_label = excluded.place_label, state = coalesce(excluded.state, m.state),
    searches = m.searches + excluded.searches, results = m.results + excluded.results,
    empty_searches = m.empty_searches + excluded.empty_searches,
    none_within_100 = m.none_within_100 + excluded.none_within_100;
  INSERT INTO platform_searches_daily AS p (date, searches, results, empty_searches, none_within_100)
  SELECT date, sum(searches), sum(results), sum(empty_searches), sum(none_within_100)
  FROM new_rows GROUP BY 1 ORDER BY 1
  ON CONFLICT (date) DO UPDATE SET
    searches = p.searches + excluded.searches, results = p.results + excluded.results,
    empty_searches = p.empty_searches + excluded.empty_searches,
    none_within_100 = p.none_within_100 + excluded.none_within_100;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_demand_rollup_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_demand_monthly AS m (month, place_key, place_label, state, searches, results, empty_searches, none_within_100)
  SELECT date_trunc('month', date)::date, place_key, max(place_label), max(state), sum(searches), sum(results),
    sum(empty_searches), sum(none_within_100)
  FROM (
    SELECT date, place_key, place_label, state, searches, results, empty_searches, none_within_100 FROM new_rows
    UNION ALL
    SELECT date, place_key, NULL, NULL, -searches, -results, -empty_searches, -none_within_100 FROM old_rows
  ) c GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (month, place_key) DO UPDATE SET
    place_label = excluded.place_label, state = coalesce(excluded.state, m.state),
    searches = m.searches + excluded.searches, results = m.results + excluded.results,
    empty_searches = m.empty_searches + excluded.empty_searches,
    none_within_100 = m.none_within_100 + excluded.none_within_100;
  INSERT INTO platform_searches_daily AS p (date, searches, results, empty_searches, none_within_100)
  SELECT date, sum(searches), sum(results), sum(empty_searches), sum(none_within_100)
  FROM (
    SELECT date, place_key, place_label, state, searches, results, empty_searches, none_within_100 FROM new_rows
    UNION ALL
    SELECT date, place_key, NULL, NULL, -searches, -results, -empty_searches, -none_within_100 FROM old_rows
  ) c GROUP BY 1 ORDER BY 1
  ON CONFLICT (date) DO UPDATE SET
    searches = p.searches + excluded.searches, results = p.results + excluded.results,
    empty_searches = p.empty_searches + excluded.empty_searches,
    none_within_100 = p.none_within_100 + excluded.none_within_100;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER search_demand_daily_rollup_insert AFTER INSERT ON search_demand_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_demand_rollup_insert();
--> statement-breakpoint
CREATE TRIGGER search_demand_daily_rollup_update AFTER UPDATE ON search_demand_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION search_demand_rollup_update();
--> statement-breakpoint
-- What exists today: the daily counters, and the page views by source of the raw events still kept.
INSERT INTO location_metrics_monthly (location_id, month, page_views, list_views, website_clicks, contact_clicks,
  directions_clicks, unique_visitors, unique_list_viewers)
SELECT location_id, date_trunc('month', date)::date, sum(page_views), sum(list_views), sum(website_clicks),
  sum(contact_clicks), sum(directions_clicks), sum(unique_visitors), sum(unique_list_viewers)
FROM location_metrics_daily GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO platform_metrics_daily (date, shard, page_views, list_views, website_clicks, contact_clicks,
  directions_clicks, unique_visitors, unique_list_viewers)
SELECT date, 0, sum(page_views), sum(list_views), sum(website_clicks), sum(contact_clicks), sum(directions_clicks),
  sum(unique_visitors), sum(unique_list_viewers)
FROM location_metrics_daily GROUP BY 1;
--> statement-breakpoint
INSERT INTO traffic_sources_daily (date, source, shard, page_views)
SELECT (received_at AT TIME ZONE 'UTC')::date, coalesce(traffic_source, 'direct'), 0, count(*)
FROM analytics_events WHERE event_type = 'page_view' AND location_id IS NOT NULL GROUP BY 1, 2;
