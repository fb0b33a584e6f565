import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { invoices, locations, promotions, users } from "../db/schema";

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
