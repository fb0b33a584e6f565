-- The shared cache's purges (docs/operations.md, "A shared cache in front"): a write to what a
-- facility page shows queues its path in cache_purges, in the writing transaction, so that no
-- writer can forget it. What the page shows: its locations row (details, photos, hours, sizes and
-- availability, tier, the review tally), whether someone manages it (listing_owners), its published
-- reviews (their text, "helpful" counts and "Stored here" marks live on the reviews row) and the
-- owners' replies (review_replies). Nearby cards, home and results pages are not purged: they
-- expire within s-maxage.
--
-- Statement triggers with transition tables: a bulk load reads cache_purge_settings once per
-- statement, not once per row, and writes nothing while purging is off (no CACHE_PURGE_URL, the
-- default); while it is on, one INSERT per statement. Paths are sorted so that concurrent writers
-- lock the rows they share in one order. ON CONFLICT DO UPDATE (a no-op update) rather than DO
-- NOTHING: it locks the waiting row until the writer commits, and the worker's claim skips locked
-- rows, so a refresh never runs ahead of an edit it was coalesced with.
CREATE FUNCTION "purge_location_pages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NOT coalesce((SELECT "enabled" FROM "cache_purge_settings" WHERE "id" = 1), false) THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || "slug" FROM "new_rows" WHERE char_length("slug") <= 2000 ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || "slug" FROM "old_rows" WHERE char_length("slug") <= 2000 ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	ELSE
		-- Both slugs when it changed: the old address now redirects to the new one.
		INSERT INTO "cache_purges" ("path")
		SELECT '/location/' || "slug"
		FROM (SELECT "slug" FROM "new_rows" UNION SELECT "slug" FROM "old_rows") AS "changed"
		WHERE char_length("slug") <= 2000 ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "locations_purge_insert" AFTER INSERT ON "locations"
	REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_location_pages"();
--> statement-breakpoint
CREATE TRIGGER "locations_purge_update" AFTER UPDATE ON "locations"
	REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_location_pages"();
--> statement-breakpoint
CREATE TRIGGER "locations_purge_delete" AFTER DELETE ON "locations"
	REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_location_pages"();
--> statement-breakpoint
-- A review shows on its facility page while it is published: a write that publishes, changes or
-- withdraws one changes the page; one to a held or rejected review does not.
CREATE FUNCTION "purge_review_pages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NOT coalesce((SELECT "enabled" FROM "cache_purge_settings" WHERE "id" = 1), false) THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || l."slug" FROM "locations" l
		WHERE l."place_id" IN (SELECT "location_id" FROM "new_rows" WHERE "status" = 'published')
			AND char_length(l."slug") <= 2000
		ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || l."slug" FROM "locations" l
		WHERE l."place_id" IN (SELECT "location_id" FROM "old_rows" WHERE "status" = 'published')
			AND char_length(l."slug") <= 2000
		ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	ELSE
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || l."slug" FROM "locations" l
		WHERE l."place_id" IN (
				SELECT "location_id" FROM "new_rows" WHERE "status" = 'published'
				UNION SELECT "location_id" FROM "old_rows" WHERE "status" = 'published'
			)
			AND char_length(l."slug") <= 2000
		ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "reviews_purge_insert" AFTER INSERT ON "reviews"
	REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_review_pages"();
--> statement-breakpoint
CREATE TRIGGER "reviews_purge_update" AFTER UPDATE ON "reviews"
	REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_review_pages"();
--> statement-breakpoint
CREATE TRIGGER "reviews_purge_delete" AFTER DELETE ON "reviews"
	REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_review_pages"();
--> statement-breakpoint
-- An owner's reply shows under its review, on the review's facility page.
CREATE FUNCTION "purge_review_reply_pages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NOT coalesce((SELECT "enabled" FROM "cache_purge_settings" WHERE "id" = 1), false) THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || l."slug" FROM "reviews" r JOIN "locations" l ON l."place_id" = r."location_id"
		WHERE r."id" IN (SELECT "review_id" FROM "new_rows") AND r."status" = 'published'
			AND char_length(l."slug") <= 2000
		ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || l."slug" FROM "reviews" r JOIN "locations" l ON l."place_id" = r."location_id"
		WHERE r."id" IN (SELECT "review_id" FROM "old_rows") AND r."status" = 'published'
			AND char_length(l."slug") <= 2000
		ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	ELSE
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || l."slug" FROM "reviews" r JOIN "locations" l ON l."place_id" = r."location_id"
		WHERE r."id" IN (SELECT "review_id" FROM "new_rows" UNION SELECT "review_id" FROM "old_rows")
			AND r."status" = 'published' AND char_length(l."slug") <= 2000
		ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "review_replies_purge_insert" AFTER INSERT ON "review_replies"
	REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_review_reply_pages"();
--> statement-breakpoint
CREATE TRIGGER "review_replies_purge_update" AFTER UPDATE ON "review_replies"
	REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_review_reply_pages"();
--> statement-breakpoint
CREATE TRIGGER "review_replies_purge_delete" AFTER DELETE ON "review_replies"
	REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_review_reply_pages"();
--> statement-breakpoint
-- The "Verified owner" badge: whether a row here names the listing.
CREATE FUNCTION "purge_listing_owner_pages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NOT coalesce((SELECT "enabled" FROM "cache_purge_settings" WHERE "id" = 1), false) THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || l."slug" FROM "locations" l
		WHERE l."place_id" IN (SELECT "location_id" FROM "new_rows") AND char_length(l."slug") <= 2000
		ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || l."slug" FROM "locations" l
		WHERE l."place_id" IN (SELECT "location_id" FROM "old_rows") AND char_length(l."slug") <= 2000
		ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	ELSE
		INSERT INTO "cache_purges" ("path")
		SELECT DISTINCT '/location/' || l."slug" FROM "locations" l
		WHERE l."place_id" IN (SELECT "location_id" FROM "new_rows" UNION SELECT "location_id" FROM "old_rows")
			AND char_length(l."slug") <= 2000
		ORDER BY 1
		ON CONFLICT ("path") WHERE "claimed_at" IS NULL DO UPDATE SET "path" = excluded."path";
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "listing_owners_purge_insert" AFTER INSERT ON "listing_owners"
	REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_listing_owner_pages"();
--> statement-breakpoint
CREATE TRIGGER "listing_owners_purge_update" AFTER UPDATE ON "listing_owners"
	REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_listing_owner_pages"();
--> statement-breakpoint
CREATE TRIGGER "listing_owners_purge_delete" AFTER DELETE ON "listing_owners"
	REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "purge_listing_owner_pages"();
