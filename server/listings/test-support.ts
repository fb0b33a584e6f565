import { insertListing, insertPerson } from "../claims/test-support";
import type { Database } from "../db/client";
import { listingOwners } from "../db/schema";
import type { Actor } from "../auth/actor";

/** A listing with a business owner who manages it, for the listing tests (docs/product.md section 10). */
export async function insertOwnedListing(
  db: Database,
  overrides: Parameters<typeof insertListing>[1] = {},
  ownerName?: string,
) {
  const listing = await insertListing(db, overrides);
  const person = await insertPerson(db, { role: "business_owner", ...(ownerName ? { name: ownerName } : {}) });
  await db.insert(listingOwners).values({ locationId: listing.placeId, userId: person.userId });
  const owner: Actor = { userId: person.userId, email: person.email, isAdmin: false };
  return { listing, owner };
}
