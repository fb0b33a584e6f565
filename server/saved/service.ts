import { listingRating } from "../../domain/reviews";
import { and, desc, eq, sql } from "drizzle-orm";
import { SAVED_LIMIT, SAVED_MESSAGES } from "../../domain/saved";
import { onAnonymousLinked, type AnonymousLink } from "../auth/auth";
import type { Database } from "../db/client";
import { listedLocation, locations, savedLocations, users } from "../db/schema";
import { conflict, notFound, unauthorized } from "../errors";
import { logger } from "../logger";

/**
 * Saved facilities (docs/product.md section 15, ADR 023). Every function takes the person's id
 * from the caller, who read it from the session: nobody can save for, or read, anyone else.
 */

const tx = (t: unknown) => t as Database;

/** A facility as people name it in a save: its place id, or the slug of its page (cards know only that). */
export type FacilityRef = { placeId: string } | { slug: string };

export interface SaveResult {
  saved: boolean;
  /** How many facilities the person has saved now (listed ones). */
  count: number;
  slug: string;
}

/** Saved listings that visitors may see: a hidden or deleted one waits, unseen, until it is back. */
async function listedCount(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(savedLocations)
    .innerJoin(locations, eq(locations.placeId, savedLocations.locationId))
    .where(and(eq(savedLocations.userId, userId), listedLocation));
  return row?.n ?? 0;
}

/**
 * Saves (`saved` true) or forgets a facility for the person. Idempotent: saving twice keeps one
 * row. The person's row is locked while counting, so two tabs cannot pass the cap together.
 */
export async function setSaved(db: Database, userId: string, ref: FacilityRef, saved: boolean): Promise<SaveResult> {
  return db.transaction(async (t) => {
    const db = tx(t);
    const [person] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    if (!person) throw unauthorized(SAVED_MESSAGES.noSession);
    const [location] = await db
      .select({ placeId: locations.placeId, slug: locations.slug })
      .from(locations)
      .where(and("placeId" in ref ? eq(locations.placeId, ref.placeId) : eq(locations.slug, ref.slug), listedLocation))
      .limit(1);
    if (!location) throw notFound(SAVED_MESSAGES.unknown);
    const mine = and(eq(savedLocations.userId, userId), eq(savedLocations.locationId, location.placeId));
    if (saved) {
      const [existing] = await db
        .select({ one: sql`1` })
        .from(savedLocations)
        .where(mine)
        .limit(1);
      if (!existing) {
        // Every row counts toward the cap, hidden listings too: they come back when shown again.
        const [all] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(savedLocations)
          .where(eq(savedLocations.userId, userId));
        if ((all?.n ?? 0) >= SAVED_LIMIT) throw conflict(SAVED_MESSAGES.full, { limit: SAVED_LIMIT });
        await db.insert(savedLocations).values({ userId, locationId: location.placeId }).onConflictDoNothing();
      }
    } else {
      await db.delete(savedLocations).where(mine);
    }
    return { saved, count: await listedCount(db, userId), slug: location.slug };
  });
}

/** The slugs of the person's saved listings, newest first: the save buttons and the header's count. */
export async function savedSlugs(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .select({ slug: locations.slug })
    .from(savedLocations)
    .innerJoin(locations, eq(locations.placeId, savedLocations.locationId))
    .where(and(eq(savedLocations.userId, userId), listedLocation))
    .orderBy(desc(savedLocations.savedAt), locations.slug);
  return rows.map((r) => r.slug);
}

export interface SavedFacility {
  placeId: string;
  slug: string;
  name: string;
  address: string | null;
  rating: number | null;
  userRatingsTotal: number;
  isDemo: boolean;
  photo: string | null;
}

/** The /saved page: the person's listed saves, newest first. */
export async function listSaved(db: Database, userId: string): Promise<SavedFacility[]> {
  const rows = await db
    .select({
      placeId: locations.placeId,
      slug: locations.slug,
      name: locations.name,
      address: locations.address,
      rating: locations.rating,
      userRatingsTotal: locations.userRatingsTotal,
      reviewCount: locations.reviewCount,
      reviewStarSum: locations.reviewStarSum,
      isDemo: locations.isDemo,
      imageUrls: locations.imageUrls,
    })
    .from(savedLocations)
    .innerJoin(locations, eq(locations.placeId, savedLocations.locationId))
    .where(and(eq(savedLocations.userId, userId), listedLocation))
    .orderBy(desc(savedLocations.savedAt), locations.slug);
  // The combined rating of imported and first-party reviews (docs/product.md section 16).
  return rows.map(({ imageUrls, reviewCount, reviewStarSum, ...row }) => {
    const shown = listingRating({ ...row, reviewCount, reviewStarSum });
    return { ...row, rating: shown.rating, userRatingsTotal: shown.count, photo: imageUrls[0] ?? null };
  });
}

/**
 * An anonymous visitor signed up or signed in (server/auth/auth.ts onAnonymousLinked): their saves
 * move to the account before the anonymous user is deleted (which would take its rows along).
 * Facilities the account already saved keep their own date; past the cap, the newest move.
 * Returns how many moved.
 */
export async function moveSavedToAccount(db: Database, { anonymousUserId, userId }: AnonymousLink): Promise<number> {
  if (anonymousUserId === userId) return 0;
  return db.transaction(async (t) => {
    const db = tx(t);
    await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    const [all] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(savedLocations)
      .where(eq(savedLocations.userId, userId));
    const room = Math.max(0, SAVED_LIMIT - (all?.n ?? 0));
    if (room === 0) return 0;
    const result = await db.execute(sql`
      insert into saved_locations (user_id, location_id, saved_at)
      select ${userId}, a.location_id, a.saved_at from saved_locations a
      where a.user_id = ${anonymousUserId}
        and not exists (
          select 1 from saved_locations b where b.user_id = ${userId} and b.location_id = a.location_id
        )
      order by a.saved_at desc
      limit ${room}
      on conflict do nothing
      returning location_id`);
    return (result as unknown as { rows: unknown[] }).rows.length;
  });
}

let carrying = false;

/**
 * From now on, signing up or in from an anonymous session moves its saves to the account (boot
 * calls this once). A failure is logged and does not stop the sign-in: the saves are lost, the
 * account is not.
 */
export function carrySavesOnSignIn(): void {
  if (carrying) return;
  carrying = true;
  onAnonymousLinked(async (link, db) => {
    try {
      const moved = await moveSavedToAccount(db, link);
      if (moved > 0) logger.info({ ...link, moved }, "moved an anonymous visitor's saved facilities to the account");
    } catch (error) {
      logger.error({ err: error, ...link }, "could not move the saved facilities to the account");
    }
  });
}
