CREATE TABLE "deleted_listing_photos" (
	"location_id" text NOT NULL,
	"url" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_by" text,
	CONSTRAINT "deleted_listing_photos_location_id_url_pk" PRIMARY KEY("location_id","url")
);
--> statement-breakpoint
ALTER TABLE "deleted_listing_photos" ADD CONSTRAINT "deleted_listing_photos_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deleted_listing_photos_at_idx" ON "deleted_listing_photos" USING btree ("deleted_at");