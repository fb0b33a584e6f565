import { sql } from "drizzle-orm";
import { bigint, check, date, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { COVER_WANTS, LEAD_KINDS, LEAD_STATUSES, RESERVATION_STATUSES, RV_TYPES } from "../../../domain/leads";
import { users } from "./auth";
import { locations } from "./locations";
import { at, inList } from "./columns";

/**
 * A visitor's question about a space at a facility (docs/product.md section 14). `routed_to` says
 * who answers: the listing's owner, or the admins when it has none. `recipient_user_id` is the
 * owner it was sent to: the lead stays theirs when the listing changes hands, and only the admins
 * see it once that account is deleted (docs/operations.md, "Leads"). The visitor's name, email and
 * phone are cleared after the retention period (`contact_deleted_at`); the rest stays for counts.
 * `withdraw_token_hash` is the SHA-256 of the token in the visitor's receipt link.
 */
export const leads = pgTable(
  "leads",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    routedTo: text("routed_to", { enum: ["owner", "admins"] }).notNull(),
    /** A question, or a reservation request (docs/product.md section 17). */
    kind: text("kind", { enum: LEAD_KINDS }).notNull().default("question"),
    /** A reservation request's answer; null for a question. */
    reservationStatus: text("reservation_status", { enum: RESERVATION_STATUSES }),
    /** When an unanswered reservation request expires (created + RESERVATION_ANSWER_HOURS). */
    expiresAt: at("expires_at"),
    /** When the owner accepted or declined it, or it expired. */
    answeredAt: at("answered_at"),
    status: text("status", { enum: LEAD_STATUSES }).notNull().default("new"),
    rvType: text("rv_type", { enum: RV_TYPES }).notNull(),
    rvLengthFeet: integer("rv_length_feet").notNull(),
    cover: text("cover", { enum: COVER_WANTS }).notNull(),
    moveIn: date("move_in", { mode: "string" }),
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    message: text("message").notNull(),
    withdrawTokenHash: text("withdraw_token_hash").notNull().unique(),
    visitorUserId: text("visitor_user_id").references(() => users.id, { onDelete: "set null" }),
    recipientUserId: text("recipient_user_id").references(() => users.id, { onDelete: "set null" }),
    contactDeletedAt: at("contact_deleted_at"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("leads_status", inList("status", LEAD_STATUSES)),
    check("leads_rv_type", inList("rv_type", RV_TYPES)),
    check("leads_cover", inList("cover", COVER_WANTS)),
    check("leads_routed_to", inList("routed_to", ["owner", "admins"])),
    check("leads_kind", inList("kind", LEAD_KINDS)),
    check(
      "leads_reservation_status",
      sql`(kind = 'reservation') = (reservation_status is not null and expires_at is not null)`,
    ),
    check(
      "leads_reservation_status_values",
      sql`reservation_status is null or ${inList("reservation_status", RESERVATION_STATUSES)}`,
    ),
    check("leads_recipient_is_owner", sql`routed_to = 'owner' or recipient_user_id is null`),
    index("leads_location_idx").on(t.locationId, t.createdAt),
    index("leads_routed_status_idx").on(t.routedTo, t.status),
    index("leads_recipient_idx").on(t.recipientUserId, t.createdAt),
    index("leads_reservation_due_idx").on(t.reservationStatus, t.expiresAt),
  ],
);

/** One message of a lead's thread: the visitor's question is the lead itself; replies are rows here. */
export const leadMessages = pgTable(
  "lead_messages",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    authorUserId: text("author_user_id").references(() => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    /** The outbox row that carried it to the visitor. */
    emailId: bigint("email_id", { mode: "number" }),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [index("lead_messages_lead_idx").on(t.leadId, t.createdAt)],
);

export type LeadRow = typeof leads.$inferSelect;
