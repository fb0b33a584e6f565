import { and, eq, gt, gte, isNotNull, lte } from "drizzle-orm";
import { getConfig } from "../config";
import type { Database } from "../db/client";
import { invoices, promotions } from "../db/schema";
import { type PromotionSettings } from "./common";
import { issueInvoice } from "./service";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The job never issues more than this many invoices in one run; the rest go out the next day. */
const BATCH = 1000;

/**
 * The daily job "send renewal invoices" (docs/product.md section 11): an active invoice-mode
 * promotion that is not cancelled gets the invoice for its next period `INVOICE_DUE_DAYS` before
 * its period ends, once. A renewal invoice already issued for that period (open, paid or voided by
 * an admin) is never sent again; issueInvoice locks the promotion and returns an open invoice, so
 * instances running the job together send one. Returns how many were issued.
 */
export async function issueRenewalInvoices(
  db: Database,
  now: Date = new Date(),
  settings: PromotionSettings = getConfig(),
): Promise<{ issued: number }> {
  const horizon = new Date(now.getTime() + settings.INVOICE_DUE_DAYS * DAY_MS);
  const due = await db
    .select({ id: promotions.id, periodEnd: promotions.periodEnd })
    .from(promotions)
    .where(
      and(
        eq(promotions.status, "active"),
        eq(promotions.provider, "invoice"),
        eq(promotions.cancelAtPeriodEnd, false),
        isNotNull(promotions.buyerUserId),
        gt(promotions.periodEnd, now),
        lte(promotions.periodEnd, horizon),
      ),
    )
    .limit(BATCH);
  let issued = 0;
  for (const { id, periodEnd } of due) {
    const [already] = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.promotionId, id), gte(invoices.periodStart, periodEnd!)))
      .limit(1);
    if (already) continue;
    const { created } = await issueInvoice(db, {
      actor: { userId: "", email: "", isAdmin: false },
      system: true,
      promotionId: id,
      now,
      settings,
    });
    if (created) issued += 1;
  }
  return { issued };
}
