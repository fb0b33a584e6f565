CREATE TABLE "job_runs" (
	"name" text NOT NULL,
	"day" date NOT NULL,
	"instance" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text,
	CONSTRAINT "job_runs_name_day_pk" PRIMARY KEY("name","day")
);
