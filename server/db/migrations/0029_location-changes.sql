CREATE TABLE "location_changes" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "location_changes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"place_id" text NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "location_changes_changed_at_idx" ON "location_changes" USING btree ("changed_at");--> statement-breakpoint
CREATE INDEX "location_changes_xid_idx" ON "location_changes" USING btree ("xid");--> statement-breakpoint
CREATE FUNCTION "record_location_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		INSERT INTO "location_changes" ("place_id") VALUES (OLD."place_id");
	ELSE
		INSERT INTO "location_changes" ("place_id") VALUES (NEW."place_id");
		IF TG_OP = 'UPDATE' AND NEW."place_id" IS DISTINCT FROM OLD."place_id" THEN
			INSERT INTO "location_changes" ("place_id") VALUES (OLD."place_id");
		END IF;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "locations_changed_insert_delete" AFTER INSERT OR DELETE ON "locations"
	FOR EACH ROW EXECUTE FUNCTION "record_location_change"();
--> statement-breakpoint
CREATE TRIGGER "locations_changed_update" AFTER UPDATE ON "locations"
	FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "record_location_change"();
