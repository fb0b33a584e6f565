ALTER TABLE "invoices" ADD COLUMN "tier" "tier";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "interval" text;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "next_tier" "tier";--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "next_interval" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_interval_check" CHECK (interval in ('month', 'year'));--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_next_interval_check" CHECK (next_interval in ('month', 'year'));