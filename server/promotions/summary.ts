import { and, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client";
import { invoices, LIVE_PROMOTION_STATUSES, locations, promotions, users } from "../db/schema";

/**
 * What the owner's screens show about a listing's plan and bills (docs/product.md section 11):
 * its live promotion, if any, and its latest invoices and receipts, including those of promotions
 * that have ended. Two queries for any number of listings.
 */
export const INVOICES_SHOWN_PER_LISTING = 12;

export interface LivePromotionSummary {
  id: string;
  tier: string;
  interval: string;
  provider: string;
  status: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

export interface InvoiceSummary {
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
  promotionId: string;
  promotionTier: string;
  promotionInterval: string;
  hostedInvoiceUrl: string | null;
}

export interface ListingBilling {
  live: LivePromotionSummary | null;
  invoices: InvoiceSummary[];
}

export async function billingOfListings(db: Database, locationIds: string[]): Promise<Map<string, ListingBilling>> {
  const out = new Map<string, ListingBilling>(locationIds.map((id) => [id, { live: null, invoices: [] }]));
  if (locationIds.length === 0) return out;
  const [live, bills] = await Promise.all([
    db
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
      })
      .from(promotions)
      .where(
        and(inArray(promotions.locationId, locationIds), inArray(promotions.status, [...LIVE_PROMOTION_STATUSES])),
      ),
    db
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
        promotionId: invoices.promotionId,
        promotionTier: promotions.tier,
        promotionInterval: promotions.interval,
        hostedInvoiceUrl: invoices.hostedInvoiceUrl,
      })
      .from(invoices)
      .innerJoin(promotions, eq(promotions.id, invoices.promotionId))
      .where(inArray(promotions.locationId, locationIds))
      .orderBy(desc(invoices.issuedAt), desc(invoices.number)),
  ]);
  for (const { locationId, ...row } of live) out.get(locationId)!.live = row;
  for (const { locationId, ...row } of bills) {
    const list = out.get(locationId)!.invoices;
    if (list.length < INVOICES_SHOWN_PER_LISTING) list.push(row);
  }
  return out;
}

/** One invoice with what its printable page needs: the promotion, the listing and the buyer. */
export async function invoiceForPage(db: Database, invoiceId: string) {
  const [row] = await db
    .select({
      invoice: invoices,
      promotion: promotions,
      listing: { placeId: locations.placeId, name: locations.name, address: locations.address, slug: locations.slug },
      buyer: { email: users.email, name: users.name },
    })
    .from(invoices)
    .innerJoin(promotions, eq(promotions.id, invoices.promotionId))
    .innerJoin(locations, eq(locations.placeId, promotions.locationId))
    .leftJoin(users, eq(users.id, promotions.buyerUserId))
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  return row;
}
