import { asc, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "../db/client";
import { listingOwners, listingPendingChanges, locations, users } from "../db/schema";
import { notFound } from "../errors";
import { LISTING_GONE } from "./edit";
import { fieldsOf, type ListingFields } from "./fields";
import { revisionsOf, type RevisionSummary } from "./revisions";

/**
 * Reads for the administrators' moderation screens (docs/product.md section 10): the queue of
 * owners' waiting key-field changes, and one listing with its waiting change and its history.
 */

export const PENDING_CHANGE_SORTS = ["submitted", "listing"] as const;
export type PendingChangeSort = (typeof PENDING_CHANGE_SORTS)[number];

export interface PendingChangeQuery {
  sort?: PendingChangeSort;
  dir?: "asc" | "desc";
  page?: number;
  pageSize?: number;
}

export interface PendingChangeRow {
  locationId: string;
  name: string;
  slug: string;
  city: string | null;
  state: string | null;
  /** The published key values, to compare with `changes`. */
  current: Pick<ListingFields, "name" | "address" | "latitude" | "longitude">;
  changes: Record<string, unknown>;
  submittedAt: Date;
  submittedByEmail: string | null;
  submittedByName: string | null;
  ownerName: string | null;
  ownerEmail: string | null;
}

const submitter = alias(users, "submitter");
const owner = alias(users, "owner");

/** The waiting changes, oldest first unless sorted otherwise, with a total for paging. */
export async function pendingChangeQueue(
  db: Database,
  query: PendingChangeQuery = {},
): Promise<{ rows: PendingChangeRow[]; total: number }> {
  const pageSize = Math.min(Math.max(query.pageSize ?? 25, 1), 100);
  const page = Math.max(query.page ?? 1, 1);
  const direction = query.dir === "desc" ? desc : asc;
  // Ties keep a stable order, so paging never shows a row twice or skips one.
  const order =
    query.sort === "listing"
      ? [direction(locations.name), asc(listingPendingChanges.locationId)]
      : [direction(listingPendingChanges.updatedAt), asc(listingPendingChanges.locationId)];
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        locationId: listingPendingChanges.locationId,
        name: locations.name,
        slug: locations.slug,
        city: locations.city,
        state: locations.state,
        address: locations.address,
        latitude: locations.latitude,
        longitude: locations.longitude,
        changes: listingPendingChanges.changes,
        submittedAt: listingPendingChanges.updatedAt,
        submittedByEmail: listingPendingChanges.submittedByEmail,
        submittedByName: submitter.name,
        ownerName: owner.name,
        ownerEmail: owner.email,
      })
      .from(listingPendingChanges)
      .innerJoin(locations, eq(locations.placeId, listingPendingChanges.locationId))
      .leftJoin(submitter, eq(submitter.id, listingPendingChanges.submittedBy))
      .leftJoin(listingOwners, eq(listingOwners.locationId, listingPendingChanges.locationId))
      .leftJoin(owner, eq(owner.id, listingOwners.userId))
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(listingPendingChanges)
      .innerJoin(locations, eq(locations.placeId, listingPendingChanges.locationId)),
  ]);
  return {
    total: Number(counted?.total ?? 0),
    rows: rows.map(({ address, latitude, longitude, ...row }) => ({
      ...row,
      current: { name: row.name, address, latitude, longitude },
    })),
  };
}

/** A revision with its values: the owner's and the admin's history show the same (revisions.ts). */
export type RevisionWithValues = RevisionSummary;

/** The listing an admin moderates: its summary, owner, waiting change and history with values. */
export async function listingForModeration(db: Database, locationId: string, historyLimit = 50) {
  const [row] = await db.select().from(locations).where(eq(locations.placeId, locationId));
  if (!row) throw notFound(LISTING_GONE);
  const [owners, [pending], revisions] = await Promise.all([
    db
      .select({ userId: users.id, name: users.name, email: users.email })
      .from(listingOwners)
      .innerJoin(users, eq(users.id, listingOwners.userId))
      .where(eq(listingOwners.locationId, locationId)),
    db
      .select({
        changes: listingPendingChanges.changes,
        submittedAt: listingPendingChanges.updatedAt,
        submittedByEmail: listingPendingChanges.submittedByEmail,
        submittedByName: submitter.name,
      })
      .from(listingPendingChanges)
      .leftJoin(submitter, eq(submitter.id, listingPendingChanges.submittedBy))
      .where(eq(listingPendingChanges.locationId, locationId)),
    revisionsOf(db, locationId, historyLimit),
  ]);
  return {
    placeId: row.placeId,
    slug: row.slug,
    city: row.city,
    state: row.state,
    tier: row.tier,
    hiddenAt: row.hiddenAt,
    deletedAt: row.deletedAt,
    photoCount: row.imageUrls.length,
    imageUrls: row.imageUrls,
    version: row.version,
    fields: fieldsOf(row),
    owners,
    pending: pending ?? null,
    revisions,
  };
}
