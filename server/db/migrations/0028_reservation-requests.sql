ALTER TABLE "leads" ADD COLUMN "kind" text DEFAULT 'question' NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "reservation_status" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "leads_reservation_due_idx" ON "leads" USING btree ("reservation_status","expires_at");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_kind" CHECK (kind in ('question', 'reservation'));--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_reservation_status" CHECK ((kind = 'reservation') = (reservation_status is not null and expires_at is not null));--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_reservation_status_values" CHECK (reservation_status is null or reservation_status in ('pending', 'accepted', 'declined', 'expired'));