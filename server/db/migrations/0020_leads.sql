CREATE TABLE "lead_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"lead_id" text NOT NULL,
	"author_user_id" text,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"email_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"routed_to" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"rv_type" text NOT NULL,
	"rv_length_feet" integer NOT NULL,
	"cover" text NOT NULL,
	"move_in" date,
	"name" text,
	"email" text,
	"phone" text,
	"message" text NOT NULL,
	"withdraw_token_hash" text NOT NULL,
	"visitor_user_id" text,
	"contact_deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_withdraw_token_hash_unique" UNIQUE("withdraw_token_hash"),
	CONSTRAINT "leads_status" CHECK (status in ('new', 'replied', 'won', 'lost', 'withdrawn', 'handled')),
	CONSTRAINT "leads_rv_type" CHECK (rv_type in ('class_a', 'class_b', 'class_c', 'fifth_wheel', 'travel_trailer', 'toy_hauler', 'other')),
	CONSTRAINT "leads_cover" CHECK (cover in ('any', 'uncovered', 'covered', 'enclosed')),
	CONSTRAINT "leads_routed_to" CHECK (routed_to in ('owner', 'admins'))
);
--> statement-breakpoint
ALTER TABLE "lead_messages" ADD CONSTRAINT "lead_messages_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_messages" ADD CONSTRAINT "lead_messages_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_location_id_locations_place_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("place_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_visitor_user_id_users_id_fk" FOREIGN KEY ("visitor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_messages_lead_idx" ON "lead_messages" USING btree ("lead_id","created_at");--> statement-breakpoint
CREATE INDEX "leads_location_idx" ON "leads" USING btree ("location_id","created_at");--> statement-breakpoint
CREATE INDEX "leads_routed_status_idx" ON "leads" USING btree ("routed_to","status");