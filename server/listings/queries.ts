import { and, asc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { listingOwners, listingPendingChanges, locationMetricsDaily, locations } from "../db/schema";
import { notFound } from "../errors";
import { LISTING_GONE } from "./edit";
import { fieldsOf } from "./fields";
import { revisionsOf } from "./revisions";

/** Reads for the owner's listing screens (docs/product.md section 10). */

export const SPARKLINE_DAYS = 30;

export interface MyListing {
  placeId: string;
  name: string;
  slug: string;
  city: string | null;
  state: string | null;
  tier: string;
  hasPendingChange: boolean;
  /** An administrator hid it from visitors (docs/product.md section 12). */
  hidden: boolean;
  /** Page views per day, oldest first, SPARKLINE_DAYS long. */
  views: number[];
}

/** The listings a person manages, by name, each with its pending state and 30 days of page views. */
export async function listingsOf(db: Database, userId: string, today = new Date()): Promise<MyListing[]> {
  const rows = await db
    .select({
      placeId: locations.placeId,
      name: locations.name,
      slug: locations.slug,
      city: locations.city,
      state: locations.state,
      tier: locations.tier,
      hidden: sql<boolean>`${locations.hiddenAt} is not null`,
      pending: listingPendingChanges.locationId,
    })
    .from(listingOwners)
    .innerJoin(locations, eq(locations.placeId, listingOwners.locationId))
    .leftJoin(listingPendingChanges, eq(listingPendingChanges.locationId, locations.placeId))
    .where(and(eq(listingOwners.userId, userId), isNull(locations.deletedAt)))
    .orderBy(asc(locations.name));
  if (rows.length === 0) return [];
  const days = Array.from({ length: SPARKLINE_DAYS }, (_, i) => {
    const d = new Date(today);
    d.setUTCDate(d.getUTCDate() - (SPARKLINE_DAYS - 1 - i));
    return d.toISOString().slice(0, 10);
  });
  const metrics = await db
    .select({
      id: locationMetricsDaily.locationId,
      date: locationMetricsDaily.date,
      views: locationMetricsDaily.pageViews,
    })
    .from(locationMetricsDaily)
    .where(
      and(
        inArray(
          locationMetricsDaily.locationId,
          rows.map((r) => r.placeId),
        ),
        gte(locationMetricsDaily.date, days[0]!),
      ),
    );
  const byKey = new Map(metrics.map((m) => [`${m.id}|${m.date}`, Number(m.views)]));
  return rows.map(({ pending, ...row }) => ({
    ...row,
    hasPendingChange: pending !== null,
    views: days.map((d) => byKey.get(`${row.placeId}|${d}`) ?? 0),
  }));
}

/** Everything the edit screen shows: the fields, the version, the waiting change and the history. */
export async function listingForEditing(db: Database, locationId: string) {
  const [row] = await db.select().from(locations).where(eq(locations.placeId, locationId));
  if (!row) throw notFound(LISTING_GONE);
  const [pending] = await db
    .select()
    .from(listingPendingChanges)
    .where(eq(listingPendingChanges.locationId, locationId));
  return {
    placeId: row.placeId,
    slug: row.slug,
    photoCount: row.imageUrls.length,
    version: row.version,
    fields: fieldsOf(row),
    pricesConfirmedAt: row.pricesConfirmedAt,
    pending: pending
      ? { changes: pending.changes, submittedByEmail: pending.submittedByEmail, submittedAt: pending.updatedAt }
      : null,
    revisions: await revisionsOf(db, locationId),
  };
}

/** How many listings wait for a key-field decision (for an admin's overview). */
export async function pendingChangeCount(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(listingPendingChanges);
  return Number(row?.n ?? 0);
}
