import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { locations } from "./locations";

/**
 * Every change to a listing's owner-editable fields (docs/product.md section 10): who, when, which
 * fields, and their values before and after. `kind` says what happened (domain/listings.ts
 * REVISION_KINDS): published at once, submitted for review, approved, rejected, restored.
 * The actor is kept as text with their email beside it, like the audit trail, so the history
 * outlives a deleted account.
 */
export const listingRevisions = pgTable(
  "listing_revisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    fields: jsonb("fields").$type<string[]>().notNull(),
    before: jsonb("before").$type<Record<string, unknown>>().notNull(),
    after: jsonb("after").$type<Record<string, unknown>>().notNull(),
    reason: text("reason"),
    requestId: text("request_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("listing_revisions_location_idx").on(t.locationId, t.createdAt)],
);

export type ListingRevisionRow = typeof listingRevisions.$inferSelect;
