CREATE TABLE "cache_purge_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cache_purge_settings_one_row" CHECK ("cache_purge_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "cache_purges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cache_purges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "cache_purges_path" CHECK (char_length("cache_purges"."path") between 1 and 2048 and left("cache_purges"."path", 1) = '/')
);
--> statement-breakpoint
CREATE UNIQUE INDEX "cache_purges_unclaimed_path_idx" ON "cache_purges" USING btree ("path") WHERE "cache_purges"."claimed_at" is null;--> statement-breakpoint
CREATE INDEX "cache_purges_due_idx" ON "cache_purges" USING btree ("next_attempt_at");