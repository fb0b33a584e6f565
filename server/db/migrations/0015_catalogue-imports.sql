CREATE TABLE "catalogue_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"created_by" text,
	"created_by_email" text,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"status" text NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"check_report" jsonb,
	"apply_report" jsonb,
	"error" text,
	"applied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalogue_imports_status" CHECK (status in ('checking', 'checked', 'applying', 'applied', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "catalogue_imports" ADD CONSTRAINT "catalogue_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalogue_imports_created_idx" ON "catalogue_imports" USING btree ("created_at");