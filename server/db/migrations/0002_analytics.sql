CREATE TABLE "analytics_daily_unique_sessions" (
	"location_id" text NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"session_id" text NOT NULL,
	CONSTRAINT "analytics_daily_unique_sessions_location_id_date_kind_session_id_pk" PRIMARY KEY("location_id","date","kind","session_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"session_id" text NOT NULL,
	"auth_session_id" text NOT NULL,
	"user_id" text,
	"location_id" text,
	"element_type" text,
	"url" text NOT NULL,
	"referrer" text,
	"traffic_source" text,
	"user_agent" text,
	"viewport" jsonb
);
--> statement-breakpoint
CREATE TABLE "analytics_unique_sessions" (
	"location_id" text NOT NULL,
	"kind" text NOT NULL,
	"session_id" text NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_unique_sessions_location_id_kind_session_id_pk" PRIMARY KEY("location_id","kind","session_id")
);
--> statement-breakpoint
CREATE TABLE "location_metrics" (
	"location_id" text PRIMARY KEY NOT NULL,
	"page_views" bigint DEFAULT 0 NOT NULL,
	"list_views" bigint DEFAULT 0 NOT NULL,
	"website_clicks" bigint DEFAULT 0 NOT NULL,
	"contact_clicks" bigint DEFAULT 0 NOT NULL,
	"directions_clicks" bigint DEFAULT 0 NOT NULL,
	"unique_visitors" bigint DEFAULT 0 NOT NULL,
	"unique_list_viewers" bigint DEFAULT 0 NOT NULL,
	"first_viewed" timestamp with time zone,
	"last_viewed" timestamp with time zone,
	"last_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "location_metrics_daily" (
	"location_id" text NOT NULL,
	"date" date NOT NULL,
	"page_views" bigint DEFAULT 0 NOT NULL,
	"list_views" bigint DEFAULT 0 NOT NULL,
	"website_clicks" bigint DEFAULT 0 NOT NULL,
	"contact_clicks" bigint DEFAULT 0 NOT NULL,
	"directions_clicks" bigint DEFAULT 0 NOT NULL,
	"unique_visitors" bigint DEFAULT 0 NOT NULL,
	"unique_list_viewers" bigint DEFAULT 0 NOT NULL,
	"last_updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "location_metrics_daily_location_id_date_pk" PRIMARY KEY("location_id","date")
);
--> statement-breakpoint
CREATE TABLE "location_traffic_sources" (
	"location_id" text NOT NULL,
	"source" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "location_traffic_sources_location_id_source_pk" PRIMARY KEY("location_id","source")
);
--> statement-breakpoint
ALTER TABLE "analytics_daily_unique_sessions" ADD CONSTRAINT "analytics_daily_unique_sessions_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_unique_sessions" ADD CONSTRAINT "analytics_unique_sessions_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_metrics" ADD CONSTRAINT "location_metrics_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_metrics_daily" ADD CONSTRAINT "location_metrics_daily_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_traffic_sources" ADD CONSTRAINT "location_traffic_sources_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_daily_unique_sessions_date_idx" ON "analytics_daily_unique_sessions" USING btree ("date");--> statement-breakpoint
CREATE INDEX "analytics_events_received_at_idx" ON "analytics_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "analytics_events_location_idx" ON "analytics_events" USING btree ("location_id","occurred_at");--> statement-breakpoint
CREATE INDEX "location_metrics_page_views_idx" ON "location_metrics" USING btree ("page_views" desc);--> statement-breakpoint
CREATE INDEX "location_metrics_last_viewed_idx" ON "location_metrics" USING btree ("last_viewed" desc);--> statement-breakpoint
CREATE INDEX "location_metrics_daily_date_idx" ON "location_metrics_daily" USING btree ("date");