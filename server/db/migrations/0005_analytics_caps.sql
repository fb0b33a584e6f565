CREATE TABLE "analytics_ip_budgets" (
	"date" date NOT NULL,
	"ip_key" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "analytics_ip_budgets_date_ip_key_pk" PRIMARY KEY("date","ip_key")
);
--> statement-breakpoint
CREATE TABLE "analytics_session_caps" (
	"hour" timestamp with time zone NOT NULL,
	"auth_session_id" text NOT NULL,
	"location_id" text NOT NULL,
	"kind" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "analytics_session_caps_hour_auth_session_id_location_id_kind_pk" PRIMARY KEY("hour","auth_session_id","location_id","kind")
);
