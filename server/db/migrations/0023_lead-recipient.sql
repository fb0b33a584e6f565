ALTER TABLE "leads" ADD COLUMN "recipient_user_id" text;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A lead belongs to the owner it was sent to (docs/operations.md, "Leads"). Leads
-- stored before this column existed go to the listing's owner of today: the best record there is.
UPDATE "leads" SET "recipient_user_id" = "listing_owners"."user_id" FROM "listing_owners"
WHERE "listing_owners"."location_id" = "leads"."location_id" AND "leads"."routed_to" = 'owner';--> statement-breakpoint
CREATE INDEX "leads_recipient_idx" ON "leads" USING btree ("recipient_user_id","created_at");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_recipient_is_owner" CHECK (routed_to = 'owner' or recipient_user_id is null);