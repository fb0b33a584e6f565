CREATE TABLE "location_metrics_monthly" (
	"location_id" text NOT NULL,
	"month" date NOT NULL,
	"page_views" bigint DEFAULT 0 NOT NULL,
	"list_views" bigint DEFAULT 0 NOT NULL,
	"website_clicks" bigint DEFAULT 0 NOT NULL,
	"contact_clicks" bigint DEFAULT 0 NOT NULL,
	"directions_clicks" bigint DEFAULT 0 NOT NULL,
	"unique_visitors" bigint DEFAULT 0 NOT NULL,
	"unique_list_viewers" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "location_metrics_monthly_location_id_month_pk" PRIMARY KEY("location_id","month")
);
--> statement-breakpoint
CREATE TABLE "platform_metrics_daily" (
	"date" date NOT NULL,
	"shard" smallint NOT NULL,
	"page_views" bigint DEFAULT 0 NOT NULL,
	"list_views" bigint DEFAULT 0 NOT NULL,
	"website_clicks" bigint DEFAULT 0 NOT NULL,
	"contact_clicks" bigint DEFAULT 0 NOT NULL,
	"directions_clicks" bigint DEFAULT 0 NOT NULL,
	"unique_visitors" bigint DEFAULT 0 NOT NULL,
	"unique_list_viewers" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "platform_metrics_daily_date_shard_pk" PRIMARY KEY("date","shard")
);
--> statement-breakpoint
CREATE TABLE "platform_visitors_daily" (
	"date" date PRIMARY KEY NOT NULL,
	"visitors" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "traffic_sources_daily" (
	"date" date NOT NULL,
	"source" text NOT NULL,
	"shard" smallint NOT NULL,
	"page_views" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "traffic_sources_daily_date_source_shard_pk" PRIMARY KEY("date","source","shard")
);
--> statement-breakpoint
CREATE TABLE "platform_searches_daily" (
	"date" date PRIMARY KEY NOT NULL,
	"searches" bigint DEFAULT 0 NOT NULL,
	"results" bigint DEFAULT 0 NOT NULL,
	"empty_searches" bigint DEFAULT 0 NOT NULL,
	"none_within_100" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_demand_daily" (
	"date" date NOT NULL,
	"place_key" text NOT NULL,
	"place_label" text NOT NULL,
	"state" varchar(2),
	"searches" bigint DEFAULT 0 NOT NULL,
	"results" bigint DEFAULT 0 NOT NULL,
	"empty_searches" bigint DEFAULT 0 NOT NULL,
	"none_within_100" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "search_demand_daily_date_place_key_pk" PRIMARY KEY("date","place_key")
);
--> statement-breakpoint
CREATE TABLE "search_demand_monthly" (
	"month" date NOT NULL,
	"place_key" text NOT NULL,
	"place_label" text NOT NULL,
	"state" varchar(2),
	"searches" bigint DEFAULT 0 NOT NULL,
	"results" bigint DEFAULT 0 NOT NULL,
	"empty_searches" bigint DEFAULT 0 NOT NULL,
	"none_within_100" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "search_demand_monthly_month_place_key_pk" PRIMARY KEY("month","place_key")
);
--> statement-breakpoint
ALTER TABLE "location_metrics_monthly" ADD CONSTRAINT "location_metrics_monthly_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "location_metrics_monthly_month_idx" ON "location_metrics_monthly" USING btree ("month");--> statement-breakpoint
CREATE INDEX "analytics_sessions_start_idx" ON "analytics_sessions" USING btree ("start_time");