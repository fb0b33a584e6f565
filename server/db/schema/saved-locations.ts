import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { locations } from "./locations";

/**
 * A facility a visitor saved (docs/product.md section 15). Anonymous visitors are user rows too
 * (better-auth's anonymous plugin), so one table serves both; signing up or in moves the rows to
 * the account (server/saved/service.ts, ADR 023). Gone with the person or the listing.
 */
export const savedLocations = pgTable(
  "saved_locations",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    savedAt: timestamp("saved_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.locationId] }),
    // Deleting a listing finds its saves without scanning every person's.
    index("saved_locations_location_idx").on(t.locationId),
  ],
);

export type SavedLocationRow = typeof savedLocations.$inferSelect;
