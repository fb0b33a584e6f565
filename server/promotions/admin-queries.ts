import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { invoices, LIVE_PROMOTION_STATUSES, locations, promotions, users } from "../db/schema";

/**
 * The admin's lists of promotions and invoices (docs/product.md section 11), filtered, sorted and
 * paged in the database.
 */
export const ADMIN_PROMOTION_SORTS = ["listing", "tier", "status", "ends", "created"] as const;
export const ADMIN_INVOICE_SORTS = ["number", "listing", "amount", "status", "issued", "due"] as const;
export type AdminPromotionSort = (typeof ADMIN_PROMOTION_SORTS)[number];
export type AdminInvoiceSort = (typeof ADMIN_INVOICE_SORTS)[number];

interface Paging {
  page: number;
  pageSize: number;
  dir: "asc" | "desc";
}

const likeOf = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface AdminPromotionQuery extends Paging {
  /** "live" (pending, active, past due), one status, or "all". */
  status: string;
  provider: string;
  tier: string;
  q: string;
  sort: AdminPromotionSort;
}

export async function adminPromotionList(db: Database, query: AdminPromotionQuery) {
  const where: SQL[] = [];
  if (query.status === "live") where.push(inArray(promotions.status, [...LIVE_PROMOTION_STATUSES]));
  else if (query.status !== "all") where.push(eq(promotions.status, query.status));
  if (query.provider !== "all") where.push(eq(promotions.provider, query.provider));
  if (query.tier !== "all") where.push(sql`${promotions.tier} = ${query.tier}`);
  if (query.q) {
    const like = likeOf(query.q);
    where.push(
      or(
        ilike(locations.name, like),
        eq(locations.placeId, query.q),
        eq(promotions.id, query.q),
        ilike(users.email, like),
      )!,
    );
  }
  const condition = where.length > 0 ? and(...where) : undefined;
  const direction = query.dir === "asc" ? asc : desc;
  const order = {
    listing: [direction(locations.name)],
    tier: [direction(promotions.tier), desc(promotions.createdAt)],
    status: [direction(promotions.status), desc(promotions.createdAt)],
    ends: [sql`${promotions.periodEnd} ${sql.raw(query.dir)} nulls last`],
    created: [direction(promotions.createdAt)],
  }[query.sort];
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({
        id: promotions.id,
        locationId: promotions.locationId,
        listingName: locations.name,
        listingTier: locations.tier,
        tier: promotions.tier,
        interval: promotions.interval,
        provider: promotions.provider,
        status: promotions.status,
        periodStart: promotions.periodStart,
        periodEnd: promotions.periodEnd,
        cancelAtPeriodEnd: promotions.cancelAtPeriodEnd,
        endReason: promotions.endReason,
        createdAt: promotions.createdAt,
        buyerEmail: users.email,
      })
      .from(promotions)
      .innerJoin(locations, eq(locations.placeId, promotions.locationId))
      .leftJoin(users, eq(users.id, promotions.buyerUserId))
      .where(condition)
      .orderBy(...order, asc(promotions.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(promotions)
      .innerJoin(locations, eq(locations.placeId, promotions.locationId))
      .leftJoin(users, eq(users.id, promotions.buyerUserId))
      .where(condition),
  ]);
  return { rows, total };
}

export interface AdminInvoiceQuery extends Paging {
  status: string;
  q: string;
  sort: AdminInvoiceSort;
}

export async function adminInvoiceList(db: Database, query: AdminInvoiceQuery) {
  const where: SQL[] = [];
  if (query.status !== "all") where.push(eq(invoices.status, query.status));
  if (query.q) {
    const like = likeOf(query.q);
    where.push(
      or(
        ilike(invoices.number, like),
        ilike(locations.name, like),
        eq(locations.placeId, query.q),
        ilike(users.email, like),
      )!,
    );
  }
  const condition = where.length > 0 ? and(...where) : undefined;
  const direction = query.dir === "asc" ? asc : desc;
  const order = {
    number: [direction(invoices.number)],
    listing: [direction(locations.name), desc(invoices.issuedAt)],
    amount: [direction(invoices.amountCents), desc(invoices.issuedAt)],
    status: [direction(invoices.status), desc(invoices.issuedAt)],
    issued: [direction(invoices.issuedAt)],
    due: [sql`${invoices.dueAt} ${sql.raw(query.dir)} nulls last`],
  }[query.sort];
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({
        id: invoices.id,
        number: invoices.number,
        status: invoices.status,
        amountCents: invoices.amountCents,
        currency: invoices.currency,
        issuedAt: invoices.issuedAt,
        dueAt: invoices.dueAt,
        paidAt: invoices.paidAt,
        voidReason: invoices.voidReason,
        promotionId: promotions.id,
        promotionStatus: promotions.status,
        tier: promotions.tier,
        interval: promotions.interval,
        provider: promotions.provider,
        locationId: locations.placeId,
        listingName: locations.name,
        buyerEmail: users.email,
      })
      .from(invoices)
      .innerJoin(promotions, eq(promotions.id, invoices.promotionId))
      .innerJoin(locations, eq(locations.placeId, promotions.locationId))
      .leftJoin(users, eq(users.id, promotions.buyerUserId))
      .where(condition)
      .orderBy(...order, asc(invoices.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(invoices)
      .innerJoin(promotions, eq(promotions.id, invoices.promotionId))
      .innerJoin(locations, eq(locations.placeId, promotions.locationId))
      .leftJoin(users, eq(users.id, promotions.buyerUserId))
      .where(condition),
  ]);
  return { rows, total };
}

/** For the admin overview and the tabs: open invoices and live promotions. */
export async function promotionCounts(db: Database) {
  const [[open], [live]] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(eq(invoices.status, "open")),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(promotions)
      .where(inArray(promotions.status, [...LIVE_PROMOTION_STATUSES])),
  ]);
  return { openInvoices: open?.n ?? 0, livePromotions: live?.n ?? 0 };
}
