import { and, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client";
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
  const query = db.select().from(promotions).where(eq(promotions.id, id)).limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

export async function invoiceById(db: Database, id: string, lock = false): Promise<InvoiceRow | undefined> {
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
