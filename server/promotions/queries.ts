import { and, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { canNameRow } from "../db/keys";
import {
  invoices,
  LIVE_PROMOTION_STATUSES,
  locations,
  promotions,
  users,
  type InvoiceRow,
  type PromotionRow,
} from "../db/schema";

/** Read side of promotions (docs/product.md section 11); writes live in ./service. */
export async function promotionById(db: Database, id: string, lock = false): Promise<PromotionRow | undefined> {
  if (!canNameRow(id)) return undefined;
  const query = db.select().from(promotions).where(eq(promotions.id, id)).limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

export async function invoiceById(db: Database, id: string, lock = false): Promise<InvoiceRow | undefined> {
  if (!canNameRow(id)) return undefined;
  const query = db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

export async function promotionByKey(db: Database, key: string): Promise<PromotionRow | undefined> {
  const [row] = await db.select().from(promotions).where(eq(promotions.idempotencyKey, key)).limit(1);
  return row;
}

/** The listing's live (pending, active or past-due) promotion, if any: at most one exists. */
export async function livePromotionOf(db: Database, locationId: string): Promise<PromotionRow | undefined> {
  const [row] = await db
    .select()
    .from(promotions)
    .where(and(eq(promotions.locationId, locationId), inArray(promotions.status, [...LIVE_PROMOTION_STATUSES])))
    .limit(1);
  return row;
}

export async function promotionsOfListing(db: Database, locationId: string): Promise<PromotionRow[]> {
  return db.select().from(promotions).where(eq(promotions.locationId, locationId)).orderBy(desc(promotions.createdAt));
}

export async function invoicesOf(db: Database, promotionId: string): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.promotionId, promotionId)).orderBy(invoices.issuedAt);
}

export async function openInvoiceOf(db: Database, promotionId: string): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.promotionId, promotionId), eq(invoices.status, "open")))
    .limit(1);
  return row;
}

/** The listing, locked: tier changes of one listing run one after another. */
export async function listingForTier(db: Database, locationId: string) {
  const [row] = await db
    .select({ placeId: locations.placeId, name: locations.name, tier: locations.tier })
    .from(locations)
    .where(eq(locations.placeId, locationId))
    .for("update");
  return row;
}

export async function personById(db: Database, userId: string | null) {
  if (!userId) return undefined;
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** How many invoices per listing the summary carries (newest first). */
export const SUMMARY_INVOICES_MAX = 12;

export interface PromotionSummaryInvoice {
  id: string;
  number: string;
  status: string;
  amountCents: number;
  currency: string;
  issuedAt: Date;
  dueAt: Date | null;
  paidAt: Date | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  /** The plan the invoice bills; null on invoices issued before invoices recorded it. */
  tier: string | null;
  interval: string | null;
  hostedInvoiceUrl: string | null;
  promotionId: string;
  /** The promotion's plan, for invoices that do not record their own. */
  promotionTier: string;
}

export interface PromotionSummary {
  locationId: string;
  /** The live (pending, active or past-due) promotion, if any. */
  promotion: {
    id: string;
    tier: string;
    interval: string;
    provider: string;
    status: string;
    periodStart: Date | null;
    periodEnd: Date | null;
    cancelAtPeriodEnd: boolean;
    nextTier: string | null;
    nextInterval: string | null;
  } | null;
  /** Invoices of all the listing's promotions, ended ones too (receipts), newest first. */
  invoices: PromotionSummaryInvoice[];
}

/**
 * For the owner's and admin's pages (docs/product.md section 11): per listing its live promotion
 * and its latest invoices, in two queries whatever the number of listings. Every id asked for has
 * an entry. `buyerUserId` (an owner's view) keeps only what that account bought, and a granted
 * promotion (no buyer): billing belongs to its buyer, so a listing's later owner sees nothing of
 * an earlier owner's promotions or invoices (docs/operations.md "Listing transfers and billing").
 */
export async function promotionSummaryOf(
  db: Database,
  locationIds: string[],
  options: { buyerUserId?: string } = {},
): Promise<Map<string, PromotionSummary>> {
  const ids = [...new Set(locationIds)];
  const { buyerUserId } = options;
  const bought = buyerUserId ? eq(promotions.buyerUserId, buyerUserId) : undefined;
  const boughtOrGranted = buyerUserId
    ? or(eq(promotions.buyerUserId, buyerUserId), isNull(promotions.buyerUserId))
    : undefined;
  const result = new Map<string, PromotionSummary>(
    ids.map((id) => [id, { locationId: id, promotion: null, invoices: [] }]),
  );
  if (ids.length === 0) return result;
  const live = await db
    .select({
      locationId: promotions.locationId,
      id: promotions.id,
      tier: promotions.tier,
      interval: promotions.interval,
      provider: promotions.provider,
      status: promotions.status,
      periodStart: promotions.periodStart,
      periodEnd: promotions.periodEnd,
      cancelAtPeriodEnd: promotions.cancelAtPeriodEnd,
      nextTier: promotions.nextTier,
      nextInterval: promotions.nextInterval,
    })
    .from(promotions)
    .where(
      and(
        inArray(promotions.locationId, ids),
        inArray(promotions.status, [...LIVE_PROMOTION_STATUSES]),
        boughtOrGranted,
      ),
    );
  for (const { locationId, ...promotion } of live) result.get(locationId)!.promotion = promotion;

  const ranked = db
    .select({
      locationId: promotions.locationId,
      id: invoices.id,
      number: invoices.number,
      status: invoices.status,
      amountCents: invoices.amountCents,
      currency: invoices.currency,
      issuedAt: invoices.issuedAt,
      dueAt: invoices.dueAt,
      paidAt: invoices.paidAt,
      periodStart: invoices.periodStart,
      periodEnd: invoices.periodEnd,
      tier: invoices.tier,
      interval: invoices.interval,
      hostedInvoiceUrl: invoices.hostedInvoiceUrl,
      promotionId: invoices.promotionId,
      promotionTier: sql<string>`${promotions.tier}`.as("promotion_tier"),
      rank: sql<number>`row_number() over (partition by ${promotions.locationId} order by ${invoices.issuedAt} desc, ${invoices.number} desc)`
        .mapWith(Number)
        .as("rank"),
    })
    .from(invoices)
    .innerJoin(promotions, eq(promotions.id, invoices.promotionId))
    .where(and(inArray(promotions.locationId, ids), bought))
    .as("ranked");
  const rows = await db
    .select()
    .from(ranked)
    .where(lte(ranked.rank, SUMMARY_INVOICES_MAX))
    .orderBy(ranked.locationId, ranked.rank);
  for (const { locationId, rank: _rank, ...invoice } of rows) result.get(locationId)!.invoices.push(invoice);
  return result;
}
