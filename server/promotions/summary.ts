import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { invoices, locations, promotions, users } from "../db/schema";
import { notFound } from "../errors";
import { PROMOTION_MESSAGES, requireInvoiceReader } from "./common";
import type { Actor } from "../auth/actor";

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

/** The invoice for its printable page, if the viewer may read it (its buyer or an admin: 403 otherwise). */
export async function invoiceForViewer(db: Database, actor: Actor, invoiceId: string) {
  const found = await invoiceForPage(db, invoiceId);
  if (!found) throw notFound(PROMOTION_MESSAGES.invoiceGone);
  requireInvoiceReader(actor, found.promotion);
  return found;
}
