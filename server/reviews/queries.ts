/**
 * What the pages read of reviews (docs/product.md section 16): a facility's published reviews,
 * its distribution of stars, an author's own review, an owner's reviews and the administrators'
 * queue. Each list is one indexed query.
 */
import { and, asc, count, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { REVIEWS_PAGE_SIZE, type ReviewSort } from "../../domain/reviews";
import type { Database } from "../db/client";
import { leadMessages, leads, listingOwners, locations, reviewReplies, reviewReports, reviews } from "../db/schema";

/**
 * "Stored here": the owner confirmed it, or the author asked about a space at this facility (a
 * question from their account) and the owner answered it, or the owner accepted the author's
 * reservation request there (docs/product.md sections 16 and 17). A reservation request pending,
 * declined or expired does not count, even with a reply. Never the author's own word.
 */
const storedHere = sql<boolean>`(${reviews.stayConfirmedAt} is not null or exists (
  select 1 from ${leads} l join ${leadMessages} m on m.lead_id = l.id
  where l.location_id = ${reviews.locationId} and l.visitor_user_id = ${reviews.authorId} and l.kind = 'question'
    and m.author_user_id is not null and m.author_user_id <> ${reviews.authorId}) or exists (
  select 1 from ${leads} r
  where r.location_id = ${reviews.locationId} and r.visitor_user_id = ${reviews.authorId}
    and r.reservation_status = 'accepted'))`;

const publicColumns = {
  id: reviews.id,
  authorName: reviews.authorName,
  stars: reviews.stars,
  title: reviews.title,
  body: reviews.body,
  stayMonth: reviews.stayMonth,
  storedKind: reviews.storedKind,
  lengthFeet: reviews.lengthFeet,
  security: reviews.security,
  access: reviews.access,
  value: reviews.value,
  cleanliness: reviews.cleanliness,
  helpfulCount: reviews.helpfulCount,
  publishedAt: reviews.publishedAt,
  createdAt: reviews.createdAt,
  editedAt: reviews.editedAt,
  storedHere,
  replyBody: reviewReplies.body,
  replyAt: reviewReplies.updatedAt,
};

const ORDER: Record<ReviewSort, SQL[]> = {
  newest: [desc(reviews.createdAt), desc(reviews.id)],
  helpful: [desc(reviews.helpfulCount), desc(reviews.createdAt), desc(reviews.id)],
  lowest: [asc(reviews.stars), desc(reviews.createdAt), desc(reviews.id)],
};

/** One page of a facility's published reviews. */
export async function publishedReviews(
  db: Database,
  locationId: string,
  { sort, page, pageSize = REVIEWS_PAGE_SIZE }: { sort: ReviewSort; page: number; pageSize?: number },
) {
  return db
    .select(publicColumns)
    .from(reviews)
    .leftJoin(reviewReplies, eq(reviewReplies.reviewId, reviews.id))
    .where(and(eq(reviews.locationId, locationId), eq(reviews.status, "published")))
    .orderBy(...ORDER[sort])
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

export type PublishedReview = Awaited<ReturnType<typeof publishedReviews>>[number];

/** How many published reviews give each number of stars: `[1★, 2★, 3★, 4★, 5★]`. */
export async function starDistribution(db: Database, locationId: string): Promise<number[]> {
  const rows = await db
    .select({ stars: reviews.stars, n: count() })
    .from(reviews)
    .where(and(eq(reviews.locationId, locationId), eq(reviews.status, "published")))
    .groupBy(reviews.stars);
  const out = [0, 0, 0, 0, 0];
  for (const row of rows) if (row.stars >= 1 && row.stars <= 5) out[row.stars - 1] = row.n;
  return out;
}

/** An author's own review of a listing, whatever its status, for the review form. */
export async function reviewByAuthor(db: Database, locationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(reviews)
    .where(and(eq(reviews.locationId, locationId), eq(reviews.authorId, userId)));
  return row ?? null;
}

/** Every published review of the listings an owner manages, unanswered first, then newest. */
export async function reviewsForOwner(
  db: Database,
  ownerId: string,
  { page, pageSize }: { page: number; pageSize: number },
) {
  const where = and(eq(listingOwners.userId, ownerId), eq(reviews.status, "published"));
  const [total] = await db
    .select({ n: count() })
    .from(reviews)
    .innerJoin(listingOwners, eq(listingOwners.locationId, reviews.locationId))
    .where(where);
  const [unanswered] = await db
    .select({ n: count() })
    .from(reviews)
    .innerJoin(listingOwners, eq(listingOwners.locationId, reviews.locationId))
    .leftJoin(reviewReplies, eq(reviewReplies.reviewId, reviews.id))
    .where(and(where, sql`${reviewReplies.reviewId} is null`));
  const rows = await db
    .select({
      ...publicColumns,
      locationId: locations.placeId,
      listingName: locations.name,
      listingSlug: locations.slug,
      stayConfirmed: sql<boolean>`${reviews.stayConfirmedAt} is not null`,
      openReport: sql<boolean>`exists (select 1 from ${reviewReports} rr where rr.review_id = ${reviews.id} and rr.status = 'open' and rr.by_owner)`,
    })
    .from(reviews)
    .innerJoin(listingOwners, eq(listingOwners.locationId, reviews.locationId))
    .innerJoin(locations, eq(locations.placeId, reviews.locationId))
    .leftJoin(reviewReplies, eq(reviewReplies.reviewId, reviews.id))
    .where(where)
    .orderBy(sql`${reviewReplies.reviewId} is not null`, desc(reviews.createdAt), desc(reviews.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { total: total?.n ?? 0, unanswered: unanswered?.n ?? 0, rows };
}

/** What waits for an administrator: held reviews and published ones with an open report. */
const queued = sql`(${reviews.status} = 'held' or (${reviews.status} = 'published' and exists (
  select 1 from ${reviewReports} rr where rr.review_id = ${reviews.id} and rr.status = 'open')))`;

export async function reviewQueueCount(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(reviews).where(queued);
  return row?.n ?? 0;
}

/** The queue's reviews, oldest first, with their open reports. */
export async function reviewQueue(db: Database, { page, pageSize }: { page: number; pageSize: number }) {
  const rows = await db
    .select({
      id: reviews.id,
      status: reviews.status,
      stars: reviews.stars,
      title: reviews.title,
      body: reviews.body,
      authorName: reviews.authorName,
      authorId: reviews.authorId,
      holdReasons: reviews.holdReasons,
      createdAt: reviews.createdAt,
      locationId: locations.placeId,
      listingName: locations.name,
      listingSlug: locations.slug,
    })
    .from(reviews)
    .innerJoin(locations, eq(locations.placeId, reviews.locationId))
    .where(queued)
    .orderBy(asc(reviews.createdAt), asc(reviews.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const ids = rows.map((r) => r.id);
  const reports = ids.length
    ? await db
        .select({
          reviewId: reviewReports.reviewId,
          kind: reviewReports.kind,
          message: reviewReports.message,
          byOwner: reviewReports.byOwner,
          createdAt: reviewReports.createdAt,
        })
        .from(reviewReports)
        .where(and(inArray(reviewReports.reviewId, ids), eq(reviewReports.status, "open")))
        .orderBy(asc(reviewReports.createdAt))
    : [];
  return rows.map((row) => ({ ...row, reports: reports.filter((r) => r.reviewId === row.id) }));
}

/** An owner's analytics: reviews published in the period on their listings, and their mean stars. */
export async function reviewStatsFor(
  db: Database,
  locationIds: readonly string[],
  { from, to }: { from: Date; to: Date },
): Promise<{ count: number; average: number | null }> {
  if (locationIds.length === 0) return { count: 0, average: null };
  const [row] = await db
    .select({ n: count(), avg: sql<string | null>`avg(${reviews.stars})` })
    .from(reviews)
    .where(
      and(
        inArray(reviews.locationId, [...locationIds]),
        eq(reviews.status, "published"),
        gte(reviews.createdAt, from),
        lt(reviews.createdAt, to),
      ),
    );
  return { count: row?.n ?? 0, average: row?.avg === null || row?.avg === undefined ? null : Number(row.avg) };
}
