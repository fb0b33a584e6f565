import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { QUEUE_ITEM_STATUSES } from "../../../domain/work-queue";
import { REVIEW_REPORT_KINDS, REVIEW_STATUSES, STORED_KINDS, type HoldReason } from "../../../domain/reviews";
import { users } from "./auth";
import { locations } from "./locations";
import { at, inList } from "./columns";

const stars = (name: string) => smallint(name);

/**
 * A review written on this site (docs/product.md section 16): one per account and facility. Only a
 * `published` one counts in the listing's rating, through `locations.review_count` and
 * `review_star_sum`, which the service changes in the same transaction as the review. The author's
 * address is kept only as a keyed hash (`ip_hash`), to tell bursts from one address apart.
 * `removal_cause` is `ban` when banning the author removed it, so lifting the ban brings it back.
 */
export const reviews = pgTable(
  "reviews",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    authorName: text("author_name").notNull(),
    stars: stars("stars").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    stayMonth: text("stay_month").notNull(),
    storedKind: text("stored_kind", { enum: STORED_KINDS }).notNull(),
    lengthFeet: integer("length_feet").notNull(),
    security: stars("security"),
    access: stars("access"),
    value: stars("value"),
    cleanliness: stars("cleanliness"),
    status: text("status", { enum: REVIEW_STATUSES }).notNull(),
    holdReasons: jsonb("hold_reasons").$type<HoldReason[]>().notNull().default([]),
    decisionReason: text("decision_reason"),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: at("decided_at"),
    removalCause: text("removal_cause"),
    helpfulCount: integer("helpful_count").notNull().default(0),
    /** The owner said this person stored here (the "Stored here" mark). */
    stayConfirmedAt: at("stay_confirmed_at"),
    ipHash: text("ip_hash"),
    publishedAt: at("published_at"),
    editedAt: at("edited_at"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("reviews_status", inList("status", REVIEW_STATUSES)),
    check("reviews_stored_kind", inList("stored_kind", STORED_KINDS)),
    check(
      "reviews_stars",
      sql`stars between 1 and 5 and coalesce(security, 1) between 1 and 5 and coalesce(access, 1) between 1 and 5 and coalesce(value, 1) between 1 and 5 and coalesce(cleanliness, 1) between 1 and 5`,
    ),
    uniqueIndex("reviews_one_per_author").on(t.locationId, t.authorId),
    index("reviews_location_idx").on(t.locationId, t.status, t.createdAt),
    index("reviews_author_idx").on(t.authorId, t.createdAt),
    index("reviews_status_idx").on(t.status, t.createdAt),
    index("reviews_ip_idx").on(t.ipHash, t.createdAt),
  ],
);

/** An earlier version of a review, kept when its author edits it ("edited"). */
export const reviewRevisions = pgTable(
  "review_revisions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    reviewId: bigint("review_id", { mode: "number" })
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    stars: stars("stars").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** When this version was written (the review's created_at or the edit before). */
    writtenAt: at("written_at").notNull(),
    replacedAt: at("replaced_at").notNull().defaultNow(),
  },
  (t) => [index("review_revisions_review_idx").on(t.reviewId, t.replacedAt)],
);

/** One "helpful" per account and review. */
export const reviewVotes = pgTable(
  "review_votes",
  {
    reviewId: bigint("review_id", { mode: "number" })
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.userId] })],
);

/**
 * The listing owner's public answer, one per review. `author_id` is the owner when it was written:
 * a reply stays the words of the owner at the time when the listing changes hands, and the next
 * owner may edit it (it answers for the listing).
 */
export const reviewReplies = pgTable("review_replies", {
  reviewId: bigint("review_id", { mode: "number" })
    .primaryKey()
    .references(() => reviews.id, { onDelete: "cascade" }),
  authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
  body: text("body").notNull(),
  createdAt: at("created_at").notNull().defaultNow(),
  updatedAt: at("updated_at").notNull().defaultNow(),
});

/** A report of a review, by a visitor or the listing's owner, for the work queue. */
export const reviewReports = pgTable(
  "review_reports",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    reviewId: bigint("review_id", { mode: "number" })
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: REVIEW_REPORT_KINDS }).notNull(),
    message: text("message"),
    reporterId: text("reporter_id").references(() => users.id, { onDelete: "set null" }),
    /** Whether the listing's owner sent it. */
    byOwner: boolean("by_owner").notNull().default(false),
    status: text("status", { enum: QUEUE_ITEM_STATUSES }).notNull().default("open"),
    resolvedBy: text("resolved_by").references(() => users.id, { onDelete: "set null" }),
    resolvedAt: at("resolved_at"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("review_reports_kind", inList("kind", REVIEW_REPORT_KINDS)),
    check("review_reports_status", inList("status", QUEUE_ITEM_STATUSES)),
    index("review_reports_open_idx").on(t.status, t.createdAt),
    index("review_reports_review_idx").on(t.reviewId, t.status),
  ],
);

export type ReviewRow = typeof reviews.$inferSelect;
export type ReviewReplyRow = typeof reviewReplies.$inferSelect;
export type ReviewReportRow = typeof reviewReports.$inferSelect;
