CREATE TABLE "listing_revisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"kind" text NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"fields" jsonb NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"reason" text,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_pending_changes" (
	"location_id" text PRIMARY KEY NOT NULL,
	"submitted_by" text,
	"submitted_by_email" text,
	"changes" jsonb NOT NULL,
	"before" jsonb NOT NULL,
	"base_version" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "size_offers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "prices_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "covered_clearance_feet" real;--> statement-breakpoint
ALTER TABLE "listing_revisions" ADD CONSTRAINT "listing_revisions_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_pending_changes" ADD CONSTRAINT "listing_pending_changes_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_pending_changes" ADD CONSTRAINT "listing_pending_changes_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_revisions_location_idx" ON "listing_revisions" USING btree ("location_id","created_at");