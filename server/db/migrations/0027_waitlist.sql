CREATE TABLE "availability_openings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "availability_openings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"location_id" text NOT NULL,
	"size_key" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "waitlist_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"size_key" text NOT NULL,
	"email" text NOT NULL,
	"rv_length_feet" real NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"visitor_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"joined_at" timestamp with time zone,
	"left_at" timestamp with time zone,
	CONSTRAINT "waitlist_entries_status" CHECK (status in ('pending', 'active', 'left'))
);
--> statement-breakpoint
CREATE TABLE "waitlist_notices" (
	"opening_id" integer NOT NULL,
	"entry_id" text NOT NULL,
	"email_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_notices_opening_id_entry_id_pk" PRIMARY KEY("opening_id","entry_id")
);
--> statement-breakpoint
ALTER TABLE "availability_openings" ADD CONSTRAINT "availability_openings_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_visitor_user_id_users_id_fk" FOREIGN KEY ("visitor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_notices" ADD CONSTRAINT "waitlist_notices_opening_id_availability_openings_id_fk" FOREIGN KEY ("opening_id") REFERENCES "public"."availability_openings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_notices" ADD CONSTRAINT "waitlist_notices_entry_id_waitlist_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."waitlist_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "availability_openings_location_idx" ON "availability_openings" USING btree ("location_id","opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_address_idx" ON "waitlist_entries" USING btree ("location_id","size_key","email");--> statement-breakpoint
CREATE INDEX "waitlist_entries_queue_idx" ON "waitlist_entries" USING btree ("location_id","size_key","status","joined_at");