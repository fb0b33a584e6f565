import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, pgSequence, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { locations, tierEnum } from "./locations";
import { users } from "./auth";
import { at } from "./columns";

const oneOf = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

export const PROMOTION_STATUSES = ["pending", "active", "past_due", "ended", "void"] as const;
export const LIVE_PROMOTION_STATUSES = ["pending", "active", "past_due"] as const;
export const PROMOTION_PROVIDERS = ["invoice", "stripe", "admin"] as const;
export const INVOICE_STATUSES = ["open", "paid", "void"] as const;

/**
 * A listing's paid (or granted) tier for a period (docs/product.md section 11, ADR 016). At most
 * one live promotion (pending, active or past_due) per listing: a partial unique index, so two
 * racing requests cannot both land. `base_tier` is the tier the listing returns to when it ends.
 */
export const promotions = pgTable(
  "promotions",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.placeId, { onDelete: "cascade" }),
    buyerUserId: text("buyer_user_id").references(() => users.id, { onDelete: "set null" }),
    tier: tierEnum("tier").notNull(),
    interval: text("interval").notNull(),
    provider: text("provider").notNull(),
    status: text("status").notNull().default("pending"),
    baseTier: tierEnum("base_tier"),
    periodStart: at("period_start"),
    periodEnd: at("period_end"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    endedAt: at("ended_at"),
    endReason: text("end_reason"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id").unique(),
    stripeCheckoutSessionId: text("stripe_checkout_session_id").unique(),
    /** The provider event time last applied: an older event arriving late changes nothing (ADR 016). */
    providerStateAt: at("provider_state_at"),
    /** A change of plan scheduled for the next period (docs/product.md section 11); null when none. */
    nextTier: tierEnum("next_tier"),
    nextInterval: text("next_interval"),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    ...timestamps,
  },
  (t) => [
    check("promotions_status_check", oneOf(t.status.name, PROMOTION_STATUSES)),
    check("promotions_interval_check", oneOf(t.interval.name, ["month", "year"])),
    check("promotions_provider_check", oneOf(t.provider.name, PROMOTION_PROVIDERS)),
    check("promotions_next_interval_check", oneOf(t.nextInterval.name, ["month", "year"])),
    uniqueIndex("promotions_one_live_per_listing_idx")
      .on(t.locationId)
      .where(oneOf(t.status.name, LIVE_PROMOTION_STATUSES)),
    index("promotions_status_period_idx").on(t.status, t.periodEnd),
    index("promotions_buyer_idx").on(t.buyerUserId, t.createdAt),
  ],
);

/** Invoice numbers RVS-YYYY-NNNNNN come from this sequence: unique under any concurrency. */
export const invoiceNumberSeq = pgSequence("invoice_number_seq", { startWith: 1, increment: 1 });

export const invoices = pgTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    number: text("number").notNull().unique(),
    promotionId: text("promotion_id")
      .notNull()
      .references(() => promotions.id, { onDelete: "cascade" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status").notNull().default("open"),
    periodStart: at("period_start"),
    periodEnd: at("period_end"),
    issuedAt: at("issued_at").notNull().defaultNow(),
    dueAt: at("due_at"),
    paidAt: at("paid_at"),
    voidedAt: at("voided_at"),
    voidReason: text("void_reason"),
    stripeInvoiceId: text("stripe_invoice_id").unique(),
    hostedInvoiceUrl: text("hosted_invoice_url"),
    /** The plan this invoice bills (docs/product.md section 11); null on invoices issued before plans were recorded. */
    tier: tierEnum("tier"),
    interval: text("interval"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    check("invoices_status_check", oneOf(t.status.name, INVOICE_STATUSES)),
    check("invoices_amount_check", sql.raw(`${t.amountCents.name} >= 0`)),
    check("invoices_interval_check", oneOf(t.interval.name, ["month", "year"])),
    index("invoices_promotion_idx").on(t.promotionId),
    index("invoices_status_idx").on(t.status, t.issuedAt),
  ],
);

/** Webhook events already applied: inserted first in the same transaction, so a replay is a no-op. */
export const stripeEvents = pgTable("stripe_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  created: at("created").notNull(),
  processedAt: at("processed_at").notNull().defaultNow(),
});

export type PromotionRow = typeof promotions.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
