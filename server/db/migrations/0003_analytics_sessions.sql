CREATE TABLE "analytics_sessions" (
	"auth_session_id" text NOT NULL,
	"session_id" text NOT NULL,
	"user_id" text,
	"start_time" timestamp with time zone NOT NULL,
	"last_activity" timestamp with time zone NOT NULL,
	"duration_seconds" bigint GENERATED ALWAYS AS (floor(extract(epoch from (last_activity - start_time)))::bigint) STORED NOT NULL,
	"page_views" bigint DEFAULT 0 NOT NULL,
	"is_new_session" boolean NOT NULL,
	"location_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_sessions_auth_session_id_session_id_pk" PRIMARY KEY("auth_session_id","session_id")
);
--> statement-breakpoint
CREATE INDEX "analytics_sessions_last_idx" ON "analytics_sessions" USING btree ("last_activity");