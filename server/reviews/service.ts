/**
 * Reviews written on this site (docs/product.md section 16): writing, editing and deleting one,
 * "helpful" votes, reports, the owner's reply and the administrators' decisions. Every change to a
 * review that can change what counts in its listing's rating moves `locations.review_count` and
 * `review_star_sum` by the difference (domain/reviews.ts `applyReviewChange`) in the same
 * transaction, so the rating never counts a review that is not published and never needs a count
 * over the reviews table.
 */
import { createHmac } from "node:crypto";
import { and, count, eq, gte, inArray, sql } from "drizzle-orm";
import {
  HOLD_REASON_LABELS,
  HOLD_THRESHOLDS,
  holdReasons,
  publicAuthorName,
  REVIEW_REPORT_LABELS,
  tallyOf,
  type CountedReview,
  type ReviewReportKind,
  type ReviewStatus,
  type StoredKind,
  type SubRating,
} from "../../domain/reviews";
import { wantsEmail } from "../account/notifications";
import { recordAudit, type AuditActor } from "../audit/record";
import { serverNow } from "../clock";
import { getConfig, publicUrl } from "../config";
import type { Database } from "../db/client";
import {
  claims,
  listedLocation,
  listingOwners,
  locations,
  reviewReplies,
  reviewReports,
  reviewRevisions,
  reviews,
  reviewVotes,
  users,
  type ReviewRow,
} from "../db/schema";
import { enqueueEmail, kickEmail } from "../email";
import { AppError, conflict, forbidden, notFound } from "../errors";
import { notifyLocationsChanged } from "../search/notify";

export const REVIEW_MESSAGES = {
  listingGone: "This facility is no longer listed.",
  notFound: "This review no longer exists.",
  signIn: "Sign in to review a facility.",
  anonymous: "Create an account or sign in to review a facility.",
  unverified: "Confirm your email address first: open the link we emailed you, then write your review.",
  banned: "This account cannot write reviews.",
  duplicate: "You have reviewed this facility already. Edit your review instead.",
  notYours: "Only its author can change this review.",
  removed: "An administrator removed this review, so it cannot be edited.",
  ownVote: "You cannot mark your own review helpful.",
  notPublished: "This review is not published.",
  notOwner: "Only the listing's owner can do this.",
  decided: "Someone already dealt with this review. The queue shows what is left.",
  reasonNeeded: "Give a reason: the author is told.",
} as const;

const tx = (t: unknown) => t as Database;

/** The author's address as a keyed hash: it tells bursts apart without keeping the address. */
export function addressHash(ip: string, secret: string): string {
  return createHmac("sha256", secret).update(`review-ip:${ip}`).digest("base64url").slice(0, 32);
}

export interface ReviewInput {
  stars: number;
  title: string;
  body: string;
  stayMonth: string;
  storedKind: StoredKind;
  lengthFeet: number;
  subRatings: Partial<Record<SubRating, number | null>>;
}

export interface ReviewAuthor {
  userId: string;
}

const counted = (row: Pick<ReviewRow, "status" | "stars"> | null | undefined): CountedReview | null =>
  row ? { status: row.status, stars: row.stars } : null;

/**
 * Moves the listing's tally by what changed between `before` and `after`, in the caller's
 * transaction; returns whether anything moved (then the search index must learn of it).
 */
async function moveTally(
  db: Database,
  locationId: string,
  before: CountedReview | null,
  after: CountedReview | null,
): Promise<boolean> {
  const out = tallyOf(before);
  const into = tallyOf(after);
  const dCount = into.count - out.count;
  const dSum = into.starSum - out.starSum;
  if (dCount === 0 && dSum === 0) return false;
  await db
    .update(locations)
    .set({
      reviewCount: sql`${locations.reviewCount} + ${dCount}`,
      reviewStarSum: sql`${locations.reviewStarSum} + ${dSum}`,
    })
    .where(eq(locations.placeId, locationId));
  return true;
}

/** After a commit that moved a tally: cards, the rating sort and every instance's index learn of it. */
async function announce(db: Database, moved: boolean): Promise<void> {
  if (moved) await notifyLocationsChanged(db);
}

async function listedListing(db: Database, locationId: string) {
  const [listing] = await db
    .select({ placeId: locations.placeId, name: locations.name, slug: locations.slug })
    .from(locations)
    .where(and(eq(locations.placeId, locationId), listedLocation));
  if (!listing) throw notFound(REVIEW_MESSAGES.listingGone);
  return listing;
}

/** Who may write: a signed-in, confirmed, not banned account. Returns its name and age. */
async function authorAccount(db: Database, userId: string) {
  const [account] = await db
    .select({
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      isAnonymous: users.isAnonymous,
      banned: users.banned,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!account) throw new AppError("unauthorized", 401, REVIEW_MESSAGES.signIn);
  if (account.isAnonymous) throw forbidden(REVIEW_MESSAGES.anonymous);
  if (account.banned) throw forbidden(REVIEW_MESSAGES.banned);
  if (!account.emailVerified) throw forbidden(REVIEW_MESSAGES.unverified);
  return account;
}

/** What the checks need to know around a review (domain/reviews.ts `holdReasons`). */
async function reviewContext(
  db: Database,
  input: {
    locationId: string;
    userId: string;
    ipHash: string | null;
    stars: number;
    accountCreatedAt: Date;
    now: Date;
    reviewId?: number;
  },
) {
  const dayAgo = new Date(input.now.getTime() - 24 * 60 * 60_000);
  const notThis = input.reviewId === undefined ? undefined : sql`${reviews.id} <> ${input.reviewId}`;
  const authorIsNewAccount =
    input.now.getTime() - input.accountCreatedAt.getTime() < HOLD_THRESHOLDS.newAccountDays * 24 * 60 * 60_000;
  const newSince = new Date(input.now.getTime() - HOLD_THRESHOLDS.newAccountDays * 24 * 60 * 60_000);
  const [fromAddress, newAccounts, sameStars, ownsOrClaimed] = await Promise.all([
    input.ipHash
      ? db
          .select({ n: count() })
          .from(reviews)
          .where(and(eq(reviews.ipHash, input.ipHash), gte(reviews.createdAt, dayAgo), notThis))
      : Promise.resolve([{ n: 0 }]),
    db
      .select({ n: count() })
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.authorId))
      .where(
        and(
          eq(reviews.locationId, input.locationId),
          gte(reviews.createdAt, dayAgo),
          gte(users.createdAt, newSince),
          notThis,
        ),
      ),
    db
      .select({ n: count() })
      .from(reviews)
      .where(
        and(
          eq(reviews.locationId, input.locationId),
          eq(reviews.stars, input.stars),
          gte(reviews.createdAt, dayAgo),
          notThis,
        ),
      ),
    db.execute(sql`
      select exists (select 1 from ${listingOwners} where location_id = ${input.locationId} and user_id = ${input.userId})
          or exists (select 1 from ${claims} where location_id = ${input.locationId} and user_id = ${input.userId})
        as hit`),
  ]);
  const hit = (ownsOrClaimed as unknown as { rows: { hit: boolean }[] }).rows[0]?.hit === true;
  return {
    reviewsFromAddressToday: (fromAddress[0]?.n ?? 0) + (input.ipHash ? 1 : 0),
    authorIsNewAccount,
    newAccountReviewsOfListingToday: (newAccounts[0]?.n ?? 0) + (authorIsNewAccount ? 1 : 0),
    authorOwnsOrClaimed: hit,
    sameStarsOfListingToday: (sameStars[0]?.n ?? 0) + 1,
  };
}

/** The columns the author's form sets, for a write and an edit alike. */
const reviewColumns = (input: ReviewInput) => ({
  stars: input.stars,
  title: input.title,
  body: input.body,
  stayMonth: input.stayMonth,
  storedKind: input.storedKind,
  lengthFeet: input.lengthFeet,
  security: input.subRatings.security ?? null,
  access: input.subRatings.access ?? null,
  value: input.subRatings.value ?? null,
  cleanliness: input.subRatings.cleanliness ?? null,
});

export interface WrittenReview {
  id: number;
  status: ReviewStatus;
}

/**
 * Writes an account's review of a listing: published at once, or held for an administrator when a
 * check says so. One per account and listing (the unique index says it again under a race).
 */
export async function writeReview(
  db: Database,
  input: { author: ReviewAuthor; locationId: string; review: ReviewInput; ipHash: string | null; now?: Date },
): Promise<WrittenReview> {
  const now = input.now ?? serverNow();
  const result = await db.transaction(async (t) => {
    const db = tx(t);
    const listing = await listedListing(db, input.locationId);
    const account = await authorAccount(db, input.author.userId);
    const [existing] = await db
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.locationId, listing.placeId), eq(reviews.authorId, input.author.userId)));
    if (existing) throw conflict(REVIEW_MESSAGES.duplicate);
    const reasons = holdReasons(
      { stars: input.review.stars, title: input.review.title, text: input.review.body },
      await reviewContext(db, {
        locationId: listing.placeId,
        userId: input.author.userId,
        ipHash: input.ipHash,
        stars: input.review.stars,
        accountCreatedAt: account.createdAt,
        now,
      }),
    );
    const status: ReviewStatus = reasons.length ? "held" : "published";
    const inserted = await db
      .insert(reviews)
      .values({
        locationId: listing.placeId,
        authorId: input.author.userId,
        authorName: publicAuthorName(account.name),
        ...reviewColumns(input.review),
        status,
        holdReasons: reasons,
        ipHash: input.ipHash,
        publishedAt: status === "published" ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: reviews.id });
    const row = inserted[0];
    if (!row) throw conflict(REVIEW_MESSAGES.duplicate);
    const moved = await moveTally(db, listing.placeId, null, { status, stars: input.review.stars });
    if (status === "published") await tellOwnerOfNewReview(db, listing, input.review.stars, input.review.title);
    return { id: row.id, status, moved };
  });
  kickEmail();
  await announce(db, result.moved);
  return { id: result.id, status: result.status };
}

/** The listing's owner hears of a new published review, unless they turned these emails off. */
async function tellOwnerOfNewReview(
  db: Database,
  listing: { placeId: string; name: string },
  stars: number,
  title: string,
): Promise<void> {
  const [owner] = await db
    .select({ userId: users.id, email: users.email, name: users.name })
    .from(listingOwners)
    .innerJoin(users, eq(users.id, listingOwners.userId))
    .where(eq(listingOwners.locationId, listing.placeId));
  if (!owner || !(await wantsEmail(db, owner.userId, "new-reviews"))) return;
  const site = publicUrl(getConfig());
  await enqueueEmail(db, {
    kind: "review.new",
    to: owner.email,
    subject: `New ${stars}-star review of ${listing.name}`.slice(0, 300),
    text: [
      `Hello${owner.name ? ` ${owner.name}` : ""},`,
      "",
      `${listing.name} has a new ${stars}-star review: “${title}”.`,
      "",
      "Read it and answer it publicly in your console:",
      `${site}/owner/reviews`,
      "",
      `You get this email because you manage the listing; turn review emails off in your settings: ${site}/owner/settings`,
    ].join("\n"),
  });
}

/** A held review published for the first time (by an edit or an approval) is news to the owner too. */
async function tellOwnerOfFirstPublication(db: Database, locationId: string, stars: number, title: string) {
  const [listing] = await db
    .select({ placeId: locations.placeId, name: locations.name })
    .from(locations)
    .where(eq(locations.placeId, locationId));
  if (listing) await tellOwnerOfNewReview(db, listing, stars, title);
}

async function reviewForUpdate(db: Database, reviewId: number): Promise<ReviewRow> {
  const [row] = await db.select().from(reviews).where(eq(reviews.id, reviewId)).for("update");
  if (!row) throw notFound(REVIEW_MESSAGES.notFound);
  return row;
}

/**
 * The author edits their review: the version before is kept (the page says "edited"), and the
 * checks run again on the new words, so an edit can hold a published review (or publish a held or
 * rejected one that now passes). A removed review stays removed.
 */
export async function editReview(
  db: Database,
  input: { author: ReviewAuthor; reviewId: number; review: ReviewInput; ipHash: string | null; now?: Date },
): Promise<WrittenReview> {
  const now = input.now ?? serverNow();
  const result = await db.transaction(async (t) => {
    const db = tx(t);
    const before = await reviewForUpdate(db, input.reviewId);
    if (before.authorId !== input.author.userId) throw forbidden(REVIEW_MESSAGES.notYours);
    if (before.status === "removed") throw forbidden(REVIEW_MESSAGES.removed);
    const account = await authorAccount(db, input.author.userId);
    const reasons = holdReasons(
      { stars: input.review.stars, title: input.review.title, text: input.review.body },
      await reviewContext(db, {
        locationId: before.locationId,
        userId: input.author.userId,
        ipHash: null,
        stars: input.review.stars,
        accountCreatedAt: account.createdAt,
        now,
        reviewId: before.id,
      }),
    );
    // A rejected review comes back only through an administrator, whatever the checks say now.
    if (before.status === "rejected") reasons.push("resubmitted");
    const status: ReviewStatus = reasons.length ? "held" : "published";
    const wordsChanged =
      before.stars !== input.review.stars || before.title !== input.review.title || before.body !== input.review.body;
    if (wordsChanged)
      await db.insert(reviewRevisions).values({
        reviewId: before.id,
        stars: before.stars,
        title: before.title,
        body: before.body,
        writtenAt: before.editedAt ?? before.createdAt,
        replacedAt: now,
      });
    await db
      .update(reviews)
      .set({
        ...reviewColumns(input.review),
        status,
        holdReasons: reasons,
        decisionReason: status === before.status ? before.decisionReason : null,
        publishedAt: status === "published" ? (before.publishedAt ?? now) : before.publishedAt,
        editedAt: wordsChanged ? now : before.editedAt,
        updatedAt: now,
      })
      .where(eq(reviews.id, before.id));
    const moved = await moveTally(db, before.locationId, counted(before), { status, stars: input.review.stars });
    if (status === "published" && before.publishedAt === null)
      await tellOwnerOfFirstPublication(db, before.locationId, input.review.stars, input.review.title);
    return { id: before.id, status, moved };
  });
  await announce(db, result.moved);
  return { id: result.id, status: result.status };
}

/** The author deletes their review, with its history, votes, reply and reports. */
export async function deleteReview(db: Database, input: { author: ReviewAuthor; reviewId: number }): Promise<void> {
  const moved = await db.transaction(async (t) => {
    const db = tx(t);
    const before = await reviewForUpdate(db, input.reviewId);
    if (before.authorId !== input.author.userId) throw forbidden(REVIEW_MESSAGES.notYours);
    await db.delete(reviews).where(eq(reviews.id, before.id));
    return moveTally(db, before.locationId, counted(before), null);
  });
  await announce(db, moved);
}

/**
 * Deletes every review an account wrote, in the caller's transaction (the account is being
 * deleted): each leaves its listing's tally. Returns the listings whose rating changed.
 */
export async function deleteReviewsOfAccount(db: Database, userId: string): Promise<string[]> {
  // Its "helpful" votes on other people's reviews go too, and leave their counts.
  await db.execute(sql`
    update ${reviews} set helpful_count = greatest(helpful_count - 1, 0)
    where id in (select review_id from ${reviewVotes} where user_id = ${userId})`);
  await db.delete(reviewVotes).where(eq(reviewVotes.userId, userId));
  const gone = await db
    .delete(reviews)
    .where(eq(reviews.authorId, userId))
    .returning({ locationId: reviews.locationId, status: reviews.status, stars: reviews.stars });
  const changed: string[] = [];
  for (const row of gone) if (await moveTally(db, row.locationId, counted(row), null)) changed.push(row.locationId);
  return changed;
}

/**
 * Banning an account hides its reviews (docs/product.md section 16): each published one is removed
 * with the cause `ban`, in the caller's transaction. `restoreReviewsAfterBan` brings back exactly
 * those when the ban is lifted.
 */
export async function hideReviewsOfBannedAccount(db: Database, userId: string, now = serverNow()): Promise<number> {
  const hidden = await db
    .update(reviews)
    .set({ status: "removed", removalCause: "ban", decidedAt: now, updatedAt: now })
    .where(and(eq(reviews.authorId, userId), eq(reviews.status, "published")))
    .returning({ locationId: reviews.locationId, stars: reviews.stars });
  for (const row of hidden)
    await moveTally(
      db,
      row.locationId,
      { status: "published", stars: row.stars },
      { status: "removed", stars: row.stars },
    );
  return hidden.length;
}

export async function restoreReviewsAfterBan(db: Database, userId: string, now = serverNow()): Promise<number> {
  const shown = await db
    .update(reviews)
    .set({ status: "published", removalCause: null, decidedAt: now, updatedAt: now })
    .where(and(eq(reviews.authorId, userId), eq(reviews.status, "removed"), eq(reviews.removalCause, "ban")))
    .returning({ locationId: reviews.locationId, stars: reviews.stars });
  for (const row of shown)
    await moveTally(
      db,
      row.locationId,
      { status: "removed", stars: row.stars },
      { status: "published", stars: row.stars },
    );
  return shown.length;
}

/**
 * One "helpful" per account; a second click changes nothing. Returns whether this one counted.
 * With `locationId` (the facility page it was clicked on), a review of another listing is unknown.
 */
export async function voteHelpful(
  db: Database,
  input: { userId: string; reviewId: number; locationId?: string },
): Promise<boolean> {
  return db.transaction(async (t) => {
    const db = tx(t);
    const [review] = await db
      .select({ authorId: reviews.authorId, status: reviews.status, locationId: reviews.locationId })
      .from(reviews)
      .where(eq(reviews.id, input.reviewId));
    if (!review || review.status !== "published") throw notFound(REVIEW_MESSAGES.notPublished);
    if (input.locationId !== undefined && review.locationId !== input.locationId)
      throw notFound(REVIEW_MESSAGES.notPublished);
    if (review.authorId === input.userId) throw forbidden(REVIEW_MESSAGES.ownVote);
    const added = await db
      .insert(reviewVotes)
      .values({ reviewId: input.reviewId, userId: input.userId })
      .onConflictDoNothing()
      .returning({ reviewId: reviewVotes.reviewId });
    if (added.length === 0) return false;
    await db
      .update(reviews)
      .set({ helpfulCount: sql`${reviews.helpfulCount} + 1` })
      .where(eq(reviews.id, input.reviewId));
    return true;
  });
}

/**
 * A report of a published review, by a visitor (signed in or not) or the listing's owner. With
 * `locationId` (the facility page it was sent from), a review of another listing is unknown.
 */
export async function reportReview(
  db: Database,
  input: {
    reviewId: number;
    kind: ReviewReportKind;
    message: string | null;
    reporterId: string | null;
    locationId?: string;
  },
): Promise<number> {
  return db.transaction(async (t) => {
    const db = tx(t);
    const [review] = await db
      .select({ status: reviews.status, locationId: reviews.locationId })
      .from(reviews)
      .where(eq(reviews.id, input.reviewId));
    if (!review || review.status !== "published") throw notFound(REVIEW_MESSAGES.notPublished);
    if (input.locationId !== undefined && review.locationId !== input.locationId)
      throw notFound(REVIEW_MESSAGES.notPublished);
    const byOwner = input.reporterId
      ? (
          await db
            .select({ id: listingOwners.userId })
            .from(listingOwners)
            .where(and(eq(listingOwners.locationId, review.locationId), eq(listingOwners.userId, input.reporterId)))
        ).length > 0
      : false;
    const [row] = await db
      .insert(reviewReports)
      .values({
        reviewId: input.reviewId,
        kind: input.kind,
        message: input.message,
        reporterId: input.reporterId,
        byOwner,
      })
      .returning({ id: reviewReports.id });
    return row!.id;
  });
}

/** Whether an account may write reviews now: confirmed email, not anonymous, not banned. */
export async function mayWriteReviews(db: Database, userId: string): Promise<boolean> {
  const [account] = await db
    .select({ ok: sql<boolean>`${users.emailVerified} and not ${users.isAnonymous} and not ${users.banned}` })
    .from(users)
    .where(eq(users.id, userId));
  return account?.ok === true;
}

/** Throws 404 unless `ownerId` owns the listing of the review (now). */
export async function assertOwnsReview(db: Database, ownerId: string, reviewId: number): Promise<void> {
  await ownedReview(db, ownerId, reviewId);
}

/** The listing's owner checked: the owner now, of the review's listing now. */
async function ownedReview(db: Database, ownerId: string, reviewId: number) {
  const [row] = await db
    .select({ id: reviews.id, locationId: reviews.locationId, status: reviews.status })
    .from(reviews)
    .innerJoin(listingOwners, eq(listingOwners.locationId, reviews.locationId))
    .where(and(eq(reviews.id, reviewId), eq(listingOwners.userId, ownerId)));
  if (!row) throw notFound(REVIEW_MESSAGES.notFound);
  return row;
}

/**
 * The owner's one public reply, written or edited. It answers for the listing: whoever owns the
 * listing now may edit it, and it records them as its author.
 */
export async function replyToReview(
  db: Database,
  input: { actor: AuditActor & { userId: string }; reviewId: number; body: string; requestId?: string | null },
): Promise<"written" | "edited"> {
  return db.transaction(async (t) => {
    const db = tx(t);
    const review = await ownedReview(db, input.actor.userId, input.reviewId);
    if (review.status !== "published") throw forbidden(REVIEW_MESSAGES.notPublished);
    const [before] = await db.select().from(reviewReplies).where(eq(reviewReplies.reviewId, review.id));
    const now = serverNow();
    await db
      .insert(reviewReplies)
      .values({ reviewId: review.id, authorId: input.actor.userId, body: input.body, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: reviewReplies.reviewId,
        set: { body: input.body, authorId: input.actor.userId, updatedAt: now },
      });
    await recordAudit(db, {
      actor: input.actor,
      action: before ? "review.reply.edit" : "review.reply",
      subject: { type: "review", id: String(review.id) },
      before: before ? { body: before.body } : null,
      after: { body: input.body, locationId: review.locationId },
      requestId: input.requestId,
    });
    return before ? "edited" : "written";
  });
}

/** The owner confirms the author stored here: the review shows "Stored here". */
export async function confirmStay(
  db: Database,
  input: { actor: AuditActor & { userId: string }; reviewId: number; requestId?: string | null },
): Promise<void> {
  await db.transaction(async (t) => {
    const db = tx(t);
    const review = await ownedReview(db, input.actor.userId, input.reviewId);
    await db
      .update(reviews)
      .set({ stayConfirmedAt: serverNow() })
      .where(and(eq(reviews.id, review.id), sql`${reviews.stayConfirmedAt} is null`));
    await recordAudit(db, {
      actor: input.actor,
      action: "review.confirm_stay",
      subject: { type: "review", id: String(review.id) },
      after: { locationId: review.locationId },
      requestId: input.requestId,
    });
  });
}

export const REVIEW_DECISIONS = ["approve", "reject", "remove"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/**
 * An administrator's decision on a held or reported review (docs/product.md section 16):
 * - approve: a held review is published; a reported one stays published, its reports dismissed.
 * - reject (held only): not published; the author is told the reason and may edit it.
 * - remove: taken down for good; the author is told the reason.
 * Every open report of the review is closed with it, and the decision goes to the audit trail.
 * `expectedStatus` is the status the administrator saw: another decision meanwhile answers 409.
 */
export async function decideReview(
  db: Database,
  input: {
    actor: AuditActor;
    reviewId: number;
    decision: ReviewDecision;
    reason: string | null;
    expectedStatus: ReviewStatus;
    requestId?: string | null;
  },
): Promise<{ locationId: string; status: ReviewStatus }> {
  const now = serverNow();
  const result = await db.transaction(async (t) => {
    const db = tx(t);
    const before = await reviewForUpdate(db, input.reviewId);
    if (before.status !== input.expectedStatus) throw conflict(REVIEW_MESSAGES.decided);
    const openReports = await db
      .select({ id: reviewReports.id })
      .from(reviewReports)
      .where(and(eq(reviewReports.reviewId, before.id), eq(reviewReports.status, "open")));
    if (before.status !== "held" && !(before.status === "published" && openReports.length > 0))
      throw conflict(REVIEW_MESSAGES.decided);
    if (input.decision === "reject" && before.status !== "held")
      throw new AppError("bad_request", 400, "Only a held review can be rejected; remove a published one.");
    if (input.decision !== "approve" && !input.reason)
      throw new AppError("bad_request", 400, REVIEW_MESSAGES.reasonNeeded);
    const status: ReviewStatus =
      input.decision === "approve" ? "published" : input.decision === "reject" ? "rejected" : "removed";
    await db
      .update(reviews)
      .set({
        status,
        decisionReason: input.decision === "approve" ? null : input.reason,
        decidedBy: input.actor.userId,
        decidedAt: now,
        removalCause: status === "removed" ? "moderation" : null,
        publishedAt: status === "published" ? (before.publishedAt ?? now) : before.publishedAt,
        updatedAt: now,
      })
      .where(eq(reviews.id, before.id));
    if (openReports.length)
      await db
        .update(reviewReports)
        .set({
          status: input.decision === "approve" ? "dismissed" : "resolved",
          resolvedBy: input.actor.userId,
          resolvedAt: now,
        })
        .where(
          and(
            inArray(
              reviewReports.id,
              openReports.map((r) => r.id),
            ),
            eq(reviewReports.status, "open"),
          ),
        );
    const moved = await moveTally(db, before.locationId, counted(before), { status, stars: before.stars });
    await recordAudit(db, {
      actor: input.actor,
      action: `review.${input.decision}`,
      subject: { type: "review", id: String(before.id) },
      before: {
        status: before.status,
        locationId: before.locationId,
        reports: openReports.length,
        holdReasons: before.holdReasons,
      },
      after: { status, reason: input.reason },
      requestId: input.requestId,
    });
    if (status !== before.status) await tellAuthorOfDecision(db, before, status, input.reason);
    if (status === "published" && before.publishedAt === null)
      await tellOwnerOfFirstPublication(db, before.locationId, before.stars, before.title);
    return { locationId: before.locationId, status, moved };
  });
  kickEmail();
  await announce(db, result.moved);
  return { locationId: result.locationId, status: result.status };
}

/** The author hears what became of their review (a decision on their own words always reaches them). */
async function tellAuthorOfDecision(db: Database, review: ReviewRow, status: ReviewStatus, reason: string | null) {
  const [account] = await db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, review.authorId));
  const [listing] = await db
    .select({ name: locations.name, slug: locations.slug })
    .from(locations)
    .where(eq(locations.placeId, review.locationId));
  if (!account || !listing) return;
  const site = publicUrl(getConfig());
  const page = `${site}/location/${listing.slug}`;
  const what =
    status === "published"
      ? [`Your review of ${listing.name} is published:`, page]
      : status === "rejected"
        ? [
            `Your review of ${listing.name} was not published.`,
            "",
            "The reason:",
            "",
            `  ${reason ?? ""}`,
            "",
            "You can change it and send it again:",
            `${page}/review`,
          ]
        : [`An administrator removed your review of ${listing.name}.`, "", "The reason:", "", `  ${reason ?? ""}`];
  await enqueueEmail(db, {
    kind: `review.${status}`,
    to: account.email,
    subject: (status === "published"
      ? `Your review of ${listing.name} is published`
      : status === "rejected"
        ? `Your review of ${listing.name} was not published`
        : `Your review of ${listing.name} was removed`
    ).slice(0, 300),
    text: [`Hello${account.name ? ` ${account.name}` : ""},`, "", ...what].join("\n"),
  });
}

/** For the queue: what each hold reason reads as. */
export const holdReasonLabels = (reasons: readonly string[]) =>
  reasons.map((r) => HOLD_REASON_LABELS[r as keyof typeof HOLD_REASON_LABELS] ?? r);

export const reportKindLabel = (kind: ReviewReportKind) => REVIEW_REPORT_LABELS[kind];
