CREATE TABLE "listing_problems" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "listing_problems_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"location_id" text NOT NULL,
	"kind" text NOT NULL,
	"other_id" text DEFAULT '' NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_by" text,
	"resolved_by_email" text,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "listing_problems_kind" CHECK (kind in ('no_coordinates', 'outside_state', 'no_contact', 'likely_duplicate', 'closed', 'stale')),
	CONSTRAINT "listing_problems_status" CHECK (status in ('open', 'resolved', 'dismissed'))
);
--> statement-breakpoint
CREATE TABLE "listing_reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "listing_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"location_id" text NOT NULL,
	"kind" text NOT NULL,
	"message" text,
	"reporter_id" text,
	"status" text DEFAULT 'open' NOT NULL,
	"resolved_by" text,
	"resolved_by_email" text,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listing_reports_kind" CHECK (kind in ('wrong_hours', 'wrong_phone', 'closed', 'wrong_location', 'other')),
	CONSTRAINT "listing_reports_status" CHECK (status in ('open', 'resolved', 'dismissed'))
);
--> statement-breakpoint
ALTER TABLE "listing_problems" ADD CONSTRAINT "listing_problems_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_problems" ADD CONSTRAINT "listing_problems_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_reports" ADD CONSTRAINT "listing_reports_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_reports" ADD CONSTRAINT "listing_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_reports" ADD CONSTRAINT "listing_reports_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "listing_problems_key" ON "listing_problems" USING btree ("location_id","kind","other_id");--> statement-breakpoint
CREATE INDEX "listing_problems_open_idx" ON "listing_problems" USING btree ("status","kind");--> statement-breakpoint
CREATE INDEX "listing_reports_open_idx" ON "listing_reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "listing_reports_location_idx" ON "listing_reports" USING btree ("location_id");