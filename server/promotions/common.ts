import { and, eq, sql } from "drizzle-orm";
import type { Tier } from "../../domain/tiers";
import { recordAudit, type AuditActor } from "../audit/record";
import type { Actor } from "../auth/actor";
import { ownsListing } from "../auth/ownership";
import type { Config, InvoiceIssuerSettings } from "../config";
import type { Database } from "../db/client";
import { invoices, locations, promotions, type PromotionRow } from "../db/schema";
import { kickEmail } from "../email";
import { badRequest, forbidden } from "../errors";
import { notifyLocationsChanged } from "../search";
import { INTERVALS, PAID_TIERS, type Interval, type PaidTier } from "./plans";
import { listingForTier } from "./queries";

/**
 * What every promotion write shares (./service.ts, ./change-plan.ts, ./stripe.ts): who may act,
 * the settings and messages, plan values read from a form, snapshots for the audit trail, and the
 * listing's tier.
 */
/** The settings the service reads; tests pass their own. */
export type PromotionSettings = Pick<
  Config,
  "promotionPlans" | "INVOICE_DUE_DAYS" | "INVOICE_PAYMENT_INSTRUCTIONS" | "PROMOTION_GRACE_DAYS"
> &
  InvoiceIssuerSettings;

const REASON_MAX = 500;
export const asTx = (t: unknown) => t as Database;

export const PROMOTION_MESSAGES = {
  listingGone: "This listing does not exist or was removed.",
  promotionGone: "This promotion does not exist.",
  invoiceGone: "This invoice does not exist.",
  notYours: "Only the listing's owner or an administrator can do this.",
  notBuyer: "Only the account that bought this promotion, while it owns the listing, or an administrator can do this.",
  adminsOnly: "Only an administrator can do this.",
  oneLive: "This listing already has a promotion that is pending, active or past due. Cancel it or let it end first.",
  keyReused: "This request was already used for a different promotion. Reload the page and try again.",
  unknownPlan: "Choose one of the plans on offer.",
  unknownInterval: "Choose monthly or yearly billing.",
  reasonNeeded: "Give a reason (3 to 500 characters).",
  notInvoiceMode: "This promotion is not paid by invoice.",
  notBillable: "This promotion has ended; it cannot be invoiced.",
  paidCannotVoid: "A paid invoice cannot be voided.",
  voidCannotPay: "A void invoice cannot be marked paid.",
  endedCannotPay: "This invoice's promotion has ended or was voided; void the invoice instead.",
  notLive: "This promotion has already ended.",
} as const;

export function requireAdmin(actor: Actor) {
  if (!actor.isAdmin) throw forbidden(PROMOTION_MESSAGES.adminsOnly);
}

export async function requireOwnerOrAdmin(db: Database, actor: Actor, locationId: string) {
  if (actor.isAdmin) return;
  if (!(await ownsListing(db, actor.userId, locationId))) throw forbidden(PROMOTION_MESSAGES.notYours);
}

/**
 * Billing belongs to the account that bought it (docs/product.md section 11): a promotion, its
 * invoices, checkout and card portal are acted on by its buyer while the buyer owns the listing, or
 * by an administrator. A listing's later owner is not its buyer: a transfer ends the old owner's
 * promotion (./transfer.ts), and nothing of it is theirs. A granted promotion has no buyer: only
 * administrators act on it.
 */
export async function requireBuyerOrAdmin(db: Database, actor: Actor, promotion: PromotionRow) {
  if (actor.isAdmin) return;
  if (promotion.buyerUserId !== actor.userId || !(await ownsListing(db, actor.userId, promotion.locationId)))
    throw forbidden(PROMOTION_MESSAGES.notBuyer);
}

/**
 * Reading an invoice or receipt: its buyer (even after the listing moved on: it is their receipt)
 * or an administrator.
 */
export function requireInvoiceReader(actor: Actor, promotion: Pick<PromotionRow, "buyerUserId">) {
  if (actor.isAdmin) return;
  if (!promotion.buyerUserId || promotion.buyerUserId !== actor.userId) throw forbidden(PROMOTION_MESSAGES.notBuyer);
}

export function reasonOf(reason: string | undefined): string {
  const text = (reason ?? "").trim();
  if (text.length < 3 || text.length > REASON_MAX) throw badRequest(PROMOTION_MESSAGES.reasonNeeded);
  return text;
}

export function paidTierOf(tier: string): PaidTier {
  if (!(PAID_TIERS as readonly string[]).includes(tier)) throw badRequest(PROMOTION_MESSAGES.unknownPlan);
  return tier as PaidTier;
}

export function intervalOf(interval: string): Interval {
  if (!(INTERVALS as readonly string[]).includes(interval)) throw badRequest(PROMOTION_MESSAGES.unknownInterval);
  return interval as Interval;
}

/** One calendar month or year later (UTC); the 31st of a month becomes the last day of a shorter one. */
export function addInterval(from: Date, interval: Interval): Date {
  const next = new Date(from.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  if (interval === "month") next.setUTCMonth(next.getUTCMonth() + 1);
  else next.setUTCFullYear(next.getUTCFullYear() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

export const invoiceNumber = (year: number, seq: number) => `RVS-${year}-${String(seq).padStart(6, "0")}`;

/** The next invoice number, from the database sequence: unique however many are issued at once. */
export async function nextInvoiceNumber(tx: Database, now: Date): Promise<string> {
  const seq = await tx.execute<{ n: string | number }>(sql`select nextval('invoice_number_seq') as n`);
  return invoiceNumber(now.getUTCFullYear(), Number((seq as unknown as { rows: { n: string | number }[] }).rows[0]!.n));
}

export function snapshot(p: PromotionRow) {
  return {
    status: p.status,
    tier: p.tier,
    interval: p.interval,
    provider: p.provider,
    baseTier: p.baseTier,
    periodStart: p.periodStart?.toISOString() ?? null,
    periodEnd: p.periodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: p.cancelAtPeriodEnd,
    endReason: p.endReason,
  };
}

/**
 * Sets the listing's tier (and audits the change). Returns whether it changed, so the caller
 * refreshes the search index after the commit.
 */
export async function setListingTier(
  db: Database,
  locationId: string,
  tier: Tier,
  actor: AuditActor,
  requestId?: string | null,
) {
  const listing = await listingForTier(db, locationId);
  if (!listing || listing.tier === tier) return false;
  await db.update(locations).set({ tier }).where(eq(locations.placeId, locationId));
  await recordAudit(db, {
    actor,
    action: "listing.tier",
    subject: { type: "location", id: locationId },
    before: { tier: listing.tier },
    after: { tier },
    requestId,
  });
  return true;
}

export async function voidOpenInvoices(db: Database, promotionId: string, reason: string, now: Date) {
  await db
    .update(invoices)
    .set({ status: "void", voidedAt: now, voidReason: reason })
    .where(and(eq(invoices.promotionId, promotionId), eq(invoices.status, "open")));
}

export async function afterCommit(tierChanged: boolean, db: Database, emailed: boolean) {
  if (emailed) kickEmail();
  if (tierChanged) await notifyLocationsChanged(db);
}

/**
 * Makes a promotion active for a paid period, in the caller's transaction: the one way a payment
 * turns a promotion on, whether an admin marks an invoice paid (markInvoicePaid) or Stripe reports
 * a checkout (./stripe.ts). Sets the period and whatever plan or Stripe ids the payment names,
 * remembers the listing's tier before its first promotion (`listingTier`), audits the activation
 * and gives the listing the promotion's tier. Returns the active row and whether the listing's
 * tier changed (the caller refreshes the search index after the commit).
 */
export async function activatePromotion(
  tx: Database,
  promotion: PromotionRow,
  listingTier: Tier,
  fields: { periodStart: Date | null; periodEnd: Date } & Partial<
    Pick<PromotionRow, "tier" | "interval" | "stripeCustomerId" | "stripeSubscriptionId" | "stripeCheckoutSessionId">
  >,
  actor: AuditActor,
  requestId?: string | null,
): Promise<{ active: PromotionRow; tierChanged: boolean }> {
  const [active] = await tx
    .update(promotions)
    .set({ ...fields, status: "active", baseTier: promotion.baseTier ?? listingTier })
    .where(eq(promotions.id, promotion.id))
    .returning();
  await recordAudit(tx, {
    actor,
    action: "promotion.activate",
    subject: { type: "promotion", id: promotion.id },
    before: snapshot(promotion),
    after: snapshot(active!),
    requestId,
  });
  const tierChanged = await setListingTier(tx, promotion.locationId, active!.tier, actor, requestId);
  return { active: active!, tierChanged };
}
