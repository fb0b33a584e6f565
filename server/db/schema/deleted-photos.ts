import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { locations } from "./locations";

/**
 * Photos deleted from a listing in the last days (docs/product.md section 10 "Photos"): their files
 * stay until a daily job purges them, so the owner can restore one. A restore removes the row.
 */
export const deletedListingPhotos = pgTable(
  "deleted_listing_photos",
  {
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    url: text("url").notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    deletedBy: text("deleted_by"),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.url] }), index("deleted_listing_photos_at_idx").on(t.deletedAt)],
);

export type DeletedListingPhotoRow = typeof deletedListingPhotos.$inferSelect;
