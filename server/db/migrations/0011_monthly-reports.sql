CREATE TABLE "monthly_report_runs" (
	"user_id" text NOT NULL,
	"month" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monthly_report_runs_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
ALTER TABLE "monthly_report_runs" ADD CONSTRAINT "monthly_report_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;