import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { canNameRow } from "../db/keys";
import { listingOwners, locations } from "../db/schema";

/**
 * Whether the location exists and is not deleted (a guard answers 404 for an unknown id, not 403;
 * a deleted listing is gone from the owner's console too, docs/product.md section 12).
 */
export async function locationExists(db: Database, locationId: string): Promise<boolean> {
  if (!canNameRow(locationId)) return false;
  const rows = await db
    .select({ id: locations.placeId })
    .from(locations)
    .where(and(eq(locations.placeId, locationId), isNull(locations.deletedAt)))
    .limit(1);
  return rows.length > 0;
}

/** Whether anyone manages the listing: its claim was approved (the facility page's 'Verified owner'). */
export async function hasVerifiedOwner(db: Database, locationId: string): Promise<boolean> {
  if (!canNameRow(locationId)) return false;
  const rows = await db
    .select({ id: listingOwners.locationId })
    .from(listingOwners)
    .where(eq(listingOwners.locationId, locationId))
    .limit(1);
  return rows.length > 0;
}

export async function ownsListing(db: Database, userId: string, locationId: string): Promise<boolean> {
  if (!canNameRow(locationId)) return false;
  const rows = await db
    .select({ id: listingOwners.locationId })
    .from(listingOwners)
    .where(and(eq(listingOwners.locationId, locationId), eq(listingOwners.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

/** Makes `userId` the owner of a listing (replacing any previous owner). */
export async function grantListing(db: Database, userId: string, locationId: string): Promise<void> {
  await db
    .insert(listingOwners)
    .values({ locationId, userId })
    .onConflictDoUpdate({ target: listingOwners.locationId, set: { userId, createdAt: new Date() } });
}

export async function listingsOwnedBy(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: listingOwners.locationId })
    .from(listingOwners)
    .where(eq(listingOwners.userId, userId));
  return rows.map((r) => r.id);
}

export interface OwnedListing {
  placeId: string;
  name: string;
  slug: string;
  city: string | null;
  state: string | null;
}

/** The listings a user manages, by name, for the owner dashboard. */
export async function ownedListings(db: Database, userId: string): Promise<OwnedListing[]> {
  return db
    .select({
      placeId: locations.placeId,
      name: locations.name,
      slug: locations.slug,
      city: locations.city,
      state: locations.state,
    })
    .from(listingOwners)
    .innerJoin(locations, eq(locations.placeId, listingOwners.locationId))
    .where(eq(listingOwners.userId, userId))
    .orderBy(locations.name);
}
