import { bigint, check, index, integer, pgTable, primaryKey, real, text, uniqueIndex } from "drizzle-orm/pg-core";
import { WAITLIST_STATUSES } from "../../../domain/waitlist";
import { users } from "./auth";
import { locations } from "./locations";
import { at, inList } from "./columns";

/**
 * A visitor waiting for a size of a facility (docs/product.md section 17): `pending` until the
 * address is confirmed by the link emailed to it (double opt-in), then `active` until they leave.
 * One row per address and size: joining again reuses it, keeping its place only while active.
 * `joined_at` orders the emails of an opening. The owner sees counts, never the addresses.
 */
export const waitlistEntries = pgTable(
  "waitlist_entries",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    /** The size as "12x40" (domain/availability.ts `sizeKey`). */
    sizeKey: text("size_key").notNull(),
    email: text("email").notNull(),
    rvLengthFeet: real("rv_length_feet").notNull(),
    status: text("status", { enum: WAITLIST_STATUSES }).notNull().default("pending"),
    visitorUserId: text("visitor_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: at("created_at").notNull().defaultNow(),
    /** When the address was confirmed: the place in the queue. */
    joinedAt: at("joined_at"),
    leftAt: at("left_at"),
  },
  (t) => [
    check("waitlist_entries_status", inList("status", WAITLIST_STATUSES)),
    uniqueIndex("waitlist_entries_address_idx").on(t.locationId, t.sizeKey, t.email),
    index("waitlist_entries_queue_idx").on(t.locationId, t.sizeKey, t.status, t.joinedAt),
  ],
);

/**
 * A size that became open (from full, waitlist or no status to available or few left) in one
 * listing edit. Recorded in the edit's transaction; its emails are queued in the same transaction,
 * one per active entry (`waitlist_notices`), so an opening is announced once and only once.
 */
export const availabilityOpenings = pgTable(
  "availability_openings",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    sizeKey: text("size_key").notNull(),
    openedAt: at("opened_at").notNull().defaultNow(),
    /** How many people waiting were emailed. */
    notified: integer("notified").notNull().default(0),
  },
  (t) => [index("availability_openings_location_idx").on(t.locationId, t.openedAt)],
);

/** Who was emailed about which opening: at most once each (the key). */
export const waitlistNotices = pgTable(
  "waitlist_notices",
  {
    openingId: integer("opening_id")
      .notNull()
      .references(() => availabilityOpenings.id, { onDelete: "cascade" }),
    entryId: text("entry_id")
      .notNull()
      .references(() => waitlistEntries.id, { onDelete: "cascade" }),
    /** The outbox row that carried it. */
    emailId: bigint("email_id", { mode: "number" }),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.openingId, t.entryId] })],
);

export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;
