import { bigint, check, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { LISTING_REPORT_KINDS, QUEUE_ITEM_STATUSES } from "../../../domain/work-queue";
import { LISTING_PROBLEM_KINDS } from "../../../domain/listing-problems";
import { users } from "./auth";
import { locations } from "./locations";
import { at, inList } from "./columns";

/**
 * A visitor's "Suggest an edit" (docs/product.md section 12): what they say is wrong with a
 * listing, for the work queue. No address or other personal data of the visitor is kept; a
 * signed-in reporter's account is, so an administrator can tell reports apart.
 */
export const listingReports = pgTable(
  "listing_reports",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    kind: text("kind", { enum: LISTING_REPORT_KINDS }).notNull(),
    message: text("message"),
    reporterId: text("reporter_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: QUEUE_ITEM_STATUSES }).notNull().default("open"),
    resolvedBy: text("resolved_by").references(() => users.id, { onDelete: "set null" }),
    resolvedByEmail: text("resolved_by_email"),
    resolvedAt: at("resolved_at"),
    resolution: text("resolution"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("listing_reports_kind", inList("kind", LISTING_REPORT_KINDS)),
    check("listing_reports_status", inList("status", QUEUE_ITEM_STATUSES)),
    index("listing_reports_open_idx").on(t.status, t.createdAt),
    index("listing_reports_location_idx").on(t.locationId),
  ],
);

/**
 * A data problem the nightly check found (docs/product.md section 12). One row per listing, kind
 * and other listing (`other_id`, the likely duplicate; '' for the rest), so each run updates the
 * row it found before: an open problem that no longer holds is resolved by the check, and a
 * dismissed one stays dismissed.
 */
export const listingProblems = pgTable(
  "listing_problems",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    kind: text("kind", { enum: LISTING_PROBLEM_KINDS }).notNull(),
    otherId: text("other_id").notNull().default(""),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: QUEUE_ITEM_STATUSES }).notNull().default("open"),
    foundAt: at("found_at").notNull().defaultNow(),
    /** The latest run that found it. */
    seenAt: at("seen_at").notNull().defaultNow(),
    resolvedBy: text("resolved_by").references(() => users.id, { onDelete: "set null" }),
    resolvedByEmail: text("resolved_by_email"),
    resolvedAt: at("resolved_at"),
  },
  (t) => [
    check("listing_problems_kind", inList("kind", LISTING_PROBLEM_KINDS)),
    check("listing_problems_status", inList("status", QUEUE_ITEM_STATUSES)),
    uniqueIndex("listing_problems_key").on(t.locationId, t.kind, t.otherId),
    index("listing_problems_open_idx").on(t.status, t.kind),
  ],
);

export type ListingReportRow = typeof listingReports.$inferSelect;
export type ListingProblemRow = typeof listingProblems.$inferSelect;
