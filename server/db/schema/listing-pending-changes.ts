import { integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { timestamps } from "./columns";
import { locations } from "./locations";

/**
 * Key-field changes (name, address, map position) waiting for an administrator (ADR 014). One
 * row per listing: a new submission replaces the waiting one. `before` holds the published values
 * when it was submitted, so the reviewer sees what would change.
 */
export const listingPendingChanges = pgTable("listing_pending_changes", {
  locationId: text("location_id")
    .primaryKey()
    .references(() => locations.placeId, { onDelete: "cascade" }),
  submittedBy: text("submitted_by").references(() => users.id, { onDelete: "set null" }),
  submittedByEmail: text("submitted_by_email"),
  changes: jsonb("changes").$type<Record<string, unknown>>().notNull(),
  before: jsonb("before").$type<Record<string, unknown>>().notNull(),
  /** The listing's version the submission was made against. */
  baseVersion: integer("base_version").notNull(),
  ...timestamps,
});

export type ListingPendingChangeRow = typeof listingPendingChanges.$inferSelect;
