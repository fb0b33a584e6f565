/**
 * Reviews against the database (docs/product.md section 16): who may write, the checks that hold a
 * review, the listing's tally kept in step with every write, edit, delete, decision, ban and
 * account deletion, votes, reports, the owner's reply across a change of owner, and "Stored here".
 */
import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/db";
import { listingRating } from "../../domain/reviews";
import { grantListing } from "../auth/ownership";
import { insertListing, insertPerson } from "../claims/test-support";
import type { Database, DatabaseHandle } from "../db/client";
import {
  auditLog,
  emailOutbox,
  leadMessages,
  leads,
  locations,
  reviewReports,
  reviewRevisions,
  reviews,
} from "../db/schema";
import { banUser, unbanUser } from "../users/service";
import { removeAccountInTransaction } from "../users/remove";
import { publishedReviews, reviewQueueCount, reviewsForOwner, reviewStatsFor, starDistribution } from "./queries";
import {
  confirmStay,
  decideReview,
  deleteReview,
  editReview,
  replyToReview,
  reportReview,
  voteHelpful,
  writeReview,
  type ReviewInput,
} from "./service";

let handle: DatabaseHandle;
const db = () => handle.db;

const input = (over: Partial<ReviewInput> = {}): ReviewInput => ({
  stars: 4,
  title: "Safe and easy to reach",
  body: "Gate code worked every time and the lot is well lit at night.",
  stayMonth: "2026-06",
  storedKind: "class_a",
  lengthFeet: 38,
  subRatings: { security: 5 },
  ...over,
});

async function tally(locationId: string) {
  const [row] = await db()
    .select({ count: locations.reviewCount, sum: locations.reviewStarSum })
    .from(locations)
    .where(eq(locations.placeId, locationId));
  return row!;
}

/** The tally counted from scratch: published reviews only. */
async function recount(locationId: string) {
  const [row] = await db()
    .select({ count: sql<number>`count(*)::int`, sum: sql<number>`coalesce(sum(stars), 0)::int` })
    .from(reviews)
    .where(and(eq(reviews.locationId, locationId), eq(reviews.status, "published")));
  return row!;
}

const admin = { userId: null, email: "admin@example.com" };
const person = (over: Parameters<typeof insertPerson>[1] = {}) =>
  insertPerson(db(), { createdAt: new Date("2025-01-01T00:00:00Z"), ...over });

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

describe("writing a review", () => {
  it("publishes a clean review at once and counts it in the listing's rating", async () => {
    const listing = await insertListing(db(), { rating: 4, userRatingsTotal: 10 });
    const author = await person();
    const written = await writeReview(db(), {
      author,
      locationId: listing.placeId,
      review: input({ stars: 5 }),
      ipHash: "ip-a",
    });
    expect(written.status).toBe("published");
    expect(await tally(listing.placeId)).toEqual({ count: 1, sum: 5 });
    const [row] = await db().select().from(locations).where(eq(locations.placeId, listing.placeId));
    const combined = listingRating(row!);
    expect(combined).toMatchObject({ count: 11, importedCount: 10, firstPartyCount: 1 });
    expect(combined.rating).toBeCloseTo((4 * 10 + 5) / 11, 10);
    expect(await starDistribution(db(), listing.placeId)).toEqual([0, 0, 0, 0, 1]);
  });

  it("refuses a second review of the same listing, an unconfirmed email and an unknown listing", async () => {
    const listing = await insertListing(db());
    const author = await person();
    await writeReview(db(), { author, locationId: listing.placeId, review: input(), ipHash: null });
    await expect(
      writeReview(db(), { author, locationId: listing.placeId, review: input(), ipHash: null }),
    ).rejects.toMatchObject({ status: 409 });
    const unconfirmed = await person({ emailVerified: false });
    await expect(
      writeReview(db(), { author: unconfirmed, locationId: listing.placeId, review: input(), ipHash: null }),
    ).rejects.toMatchObject({ status: 403, message: expect.stringContaining("Confirm your email") });
    await expect(
      writeReview(db(), { author: unconfirmed, locationId: "nope", review: input(), ipHash: null }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await tally(listing.placeId)).toEqual({ count: 1, sum: 4 });
  });

  it("holds a review with a link, contact details or from the listing's owner, without counting it", async () => {
    const listing = await insertListing(db());
    const owner = await person({ role: "business_owner" });
    await grantListing(db(), owner.userId, listing.placeId);
    const cases = [
      [await person(), input({ body: "Great place, see www.cheap-storage.example.com for more." }), "link"],
      [await person(), input({ body: "Call me at (512) 555-0123 for a discount on storage." }), "contact"],
      [owner, input(), "owner"],
    ] as const;
    for (const [author, review, reason] of cases) {
      const written = await writeReview(db(), { author, locationId: listing.placeId, review, ipHash: null });
      expect(written.status).toBe("held");
      const [row] = await db().select().from(reviews).where(eq(reviews.id, written.id));
      expect(row!.holdReasons).toContain(reason);
    }
    expect(await tally(listing.placeId)).toEqual({ count: 0, sum: 0 });
    expect(await publishedReviews(db(), listing.placeId, { sort: "newest", page: 1 })).toEqual([]);
  });

  it("holds the third review from one address in a day and a burst of 5-star reviews on one listing", async () => {
    const listing = await insertListing(db());
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) {
      const author = await person();
      statuses.push(
        (
          await writeReview(db(), {
            author,
            locationId: listing.placeId,
            review: input({ stars: 3 }),
            ipHash: "same-ip",
          })
        ).status,
      );
    }
    expect(statuses).toEqual(["published", "published", "held"]);
    const burst = await insertListing(db());
    const fives: string[] = [];
    for (let i = 0; i < 5; i++) {
      const author = await person();
      fives.push(
        (await writeReview(db(), { author, locationId: burst.placeId, review: input({ stars: 5 }), ipHash: `ip-${i}` }))
          .status,
      );
    }
    expect(fives).toEqual(["published", "published", "published", "published", "held"]);
  });
});

describe("editing and deleting", () => {
  it("keeps the version before, marks it edited, moves the tally, and holds an edit that adds a link", async () => {
    const listing = await insertListing(db());
    const author = await person();
    const { id } = await writeReview(db(), { author, locationId: listing.placeId, review: input(), ipHash: null });
    await editReview(db(), { author, reviewId: id, review: input({ stars: 2, title: "Gate broke" }), ipHash: null });
    expect(await tally(listing.placeId)).toEqual({ count: 1, sum: 2 });
    const history = await db().select().from(reviewRevisions).where(eq(reviewRevisions.reviewId, id));
    expect(history.map((h) => [h.stars, h.title])).toEqual([[4, "Safe and easy to reach"]]);
    const [shown] = await publishedReviews(db(), listing.placeId, { sort: "newest", page: 1 });
    expect(shown!.editedAt).not.toBeNull();
    const held = await editReview(db(), {
      author,
      reviewId: id,
      review: input({ stars: 2, body: "Moved to https://elsewhere.example.com instead." }),
      ipHash: null,
    });
    expect(held.status).toBe("held");
    expect(await tally(listing.placeId)).toEqual({ count: 0, sum: 0 });
  });

  it("lets only the author edit or delete, and deleting takes the review out of the tally", async () => {
    const listing = await insertListing(db());
    const author = await person();
    const other = await person();
    const { id } = await writeReview(db(), { author, locationId: listing.placeId, review: input(), ipHash: null });
    await expect(
      editReview(db(), { author: other, reviewId: id, review: input(), ipHash: null }),
    ).rejects.toMatchObject({
      status: 403,
    });
    await expect(deleteReview(db(), { author: other, reviewId: id })).rejects.toMatchObject({ status: 403 });
    await deleteReview(db(), { author, reviewId: id });
    expect(await tally(listing.placeId)).toEqual({ count: 0, sum: 0 });
    expect(await db().select().from(reviews).where(eq(reviews.id, id))).toEqual([]);
  });
});

describe("votes, reports and the moderation queue", () => {
  it("counts one helpful vote per account and never the author's own", async () => {
    const listing = await insertListing(db());
    const author = await person();
    const voter = await person();
    const { id } = await writeReview(db(), { author, locationId: listing.placeId, review: input(), ipHash: null });
    expect(await voteHelpful(db(), { userId: voter.userId, reviewId: id })).toBe(true);
    expect(await voteHelpful(db(), { userId: voter.userId, reviewId: id })).toBe(false);
    await expect(voteHelpful(db(), { userId: author.userId, reviewId: id })).rejects.toMatchObject({ status: 403 });
    const [row] = await db().select({ n: reviews.helpfulCount }).from(reviews).where(eq(reviews.id, id));
    expect(row!.n).toBe(1);
  });

  it("answers a vote or report sent from another listing's page as an unknown review", async () => {
    const listing = await insertListing(db());
    const other = await insertListing(db());
    const { id } = await writeReview(db(), {
      author: await person(),
      locationId: listing.placeId,
      review: input(),
      ipHash: null,
    });
    const voter = await person();
    await expect(
      voteHelpful(db(), { userId: voter.userId, reviewId: id, locationId: other.placeId }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      reportReview(db(), { reviewId: id, kind: "spam", message: null, reporterId: null, locationId: other.placeId }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await voteHelpful(db(), { userId: voter.userId, reviewId: id, locationId: listing.placeId })).toBe(true);
  });

  it("removes a reported review: out of the rating, reports resolved, audited, the author emailed", async () => {
    const listing = await insertListing(db());
    const author = await person({ email: "author-removed@example.com" });
    const { id } = await writeReview(db(), { author, locationId: listing.placeId, review: input(), ipHash: null });
    const before = await reviewQueueCount(db());
    await reportReview(db(), { reviewId: id, kind: "spam", message: "An advert", reporterId: null });
    expect(await reviewQueueCount(db())).toBe(before + 1);
    await expect(
      decideReview(db(), { actor: admin, reviewId: id, decision: "remove", reason: null, expectedStatus: "published" }),
    ).rejects.toMatchObject({ status: 400 });
    await decideReview(db(), {
      actor: admin,
      reviewId: id,
      decision: "remove",
      reason: "Advertising",
      expectedStatus: "published",
    });
    expect(await tally(listing.placeId)).toEqual({ count: 0, sum: 0 });
    expect(await reviewQueueCount(db())).toBe(before);
    const reports = await db().select().from(reviewReports).where(eq(reviewReports.reviewId, id));
    expect(reports.map((r) => r.status)).toEqual(["resolved"]);
    const audit = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(id)));
    expect(audit.map((a) => a.action)).toContain("review.remove");
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, "author-removed@example.com"));
    expect(mails.map((m) => m.subject)).toContain(`Your review of ${listing.name} was removed`);
    // A second decision on what is no longer waiting is a conflict.
    await expect(
      decideReview(db(), {
        actor: admin,
        reviewId: id,
        decision: "approve",
        reason: null,
        expectedStatus: "published",
      }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("approves a held review into the rating and rejects another with a reason", async () => {
    const listing = await insertListing(db());
    const a = await person();
    const b = await person();
    const held = await writeReview(db(), {
      author: a,
      locationId: listing.placeId,
      review: input({ stars: 5, body: "Ask for Bob at bob@storage.example.com, great service overall." }),
      ipHash: null,
    });
    const other = await writeReview(db(), {
      author: b,
      locationId: listing.placeId,
      review: input({ stars: 1, body: "Visit www.rival-storage.example.com instead of this place." }),
      ipHash: null,
    });
    await decideReview(db(), {
      actor: admin,
      reviewId: held.id,
      decision: "approve",
      reason: null,
      expectedStatus: "held",
    });
    await decideReview(db(), {
      actor: admin,
      reviewId: other.id,
      decision: "reject",
      reason: "Links to a competitor",
      expectedStatus: "held",
    });
    expect(await tally(listing.placeId)).toEqual({ count: 1, sum: 5 });
    const [rejected] = await db().select().from(reviews).where(eq(reviews.id, other.id));
    expect(rejected).toMatchObject({ status: "rejected", decisionReason: "Links to a competitor" });
  });
});

describe("second chances and votes of deleted accounts", () => {
  it("sends an edited rejected review back to an administrator, whatever the checks say now", async () => {
    const listing = await insertListing(db());
    const author = await person();
    const held = await writeReview(db(), {
      author,
      locationId: listing.placeId,
      review: input({ body: "See www.elsewhere-storage.example.com before you book here." }),
      ipHash: null,
    });
    await decideReview(db(), {
      actor: admin,
      reviewId: held.id,
      decision: "reject",
      reason: "A link",
      expectedStatus: "held",
    });
    const again = await editReview(db(), { author, reviewId: held.id, review: input(), ipHash: null });
    expect(again.status).toBe("held");
    const [row] = await db().select().from(reviews).where(eq(reviews.id, held.id));
    expect(row!.holdReasons).toEqual(["resubmitted"]);
    expect(await tally(listing.placeId)).toEqual({ count: 0, sum: 0 });
  });

  it("takes a deleted account's helpful votes out of other reviews' counts", async () => {
    const listing = await insertListing(db());
    const author = await person();
    const voter = await person();
    const { id } = await writeReview(db(), { author, locationId: listing.placeId, review: input(), ipHash: null });
    await voteHelpful(db(), { userId: voter.userId, reviewId: id });
    await db().transaction(async (t) => {
      await removeAccountInTransaction(t as unknown as Database, {
        actor: admin,
        account: { id: voter.userId, email: voter.email, name: "Voter", role: "user", createdAt: new Date() },
        action: "user.delete",
        reason: "test",
      });
    });
    const [row] = await db().select({ n: reviews.helpfulCount }).from(reviews).where(eq(reviews.id, id));
    expect(row!.n).toBe(0);
  });
});

describe("owners", () => {
  it("reply once (editable), the next owner may edit it, and others cannot; a confirmed stay shows", async () => {
    const listing = await insertListing(db());
    const first = await person({ role: "business_owner" });
    const next = await person({ role: "business_owner" });
    const stranger = await person({ role: "business_owner" });
    await grantListing(db(), first.userId, listing.placeId);
    const author = await person();
    const { id } = await writeReview(db(), { author, locationId: listing.placeId, review: input(), ipHash: null });
    expect(await replyToReview(db(), { actor: first, reviewId: id, body: "Thanks for staying!" })).toBe("written");
    expect(await replyToReview(db(), { actor: first, reviewId: id, body: "Thanks again!" })).toBe("edited");
    await expect(replyToReview(db(), { actor: stranger, reviewId: id, body: "Hi" })).rejects.toMatchObject({
      status: 404,
    });
    await grantListing(db(), next.userId, listing.placeId);
    await expect(replyToReview(db(), { actor: first, reviewId: id, body: "Old owner" })).rejects.toMatchObject({
      status: 404,
    });
    expect(await replyToReview(db(), { actor: next, reviewId: id, body: "Under new management." })).toBe("edited");
    await confirmStay(db(), { actor: next, reviewId: id });
    const page = await reviewsForOwner(db(), next.userId, { page: 1, pageSize: 10 });
    expect(page.rows[0]).toMatchObject({ replyBody: "Under new management.", storedHere: true });
    expect(await reviewStatsFor(db(), [listing.placeId], { from: new Date(0), to: new Date("2100-01-01") })).toEqual({
      count: 1,
      average: 4,
    });
  });

  it("marks 'stored here' when the owner answered the author's own question about a space", async () => {
    const listing = await insertListing(db());
    const owner = await person({ role: "business_owner" });
    await grantListing(db(), owner.userId, listing.placeId);
    const author = await person();
    await db()
      .insert(leads)
      .values({
        id: `lead-${author.userId}`,
        locationId: listing.placeId,
        routedTo: "owner",
        recipientUserId: owner.userId,
        rvType: "class_a",
        rvLengthFeet: 38,
        cover: "covered",
        message: "A covered space?",
        withdrawTokenHash: `hash-${author.userId}`,
        visitorUserId: author.userId,
      });
    await writeReview(db(), { author, locationId: listing.placeId, review: input(), ipHash: null });
    let [shown] = await publishedReviews(db(), listing.placeId, { sort: "newest", page: 1 });
    expect(shown!.storedHere).toBe(false);
    await db()
      .insert(leadMessages)
      .values({
        leadId: `lead-${author.userId}`,
        authorUserId: owner.userId,
        authorName: "Owner",
        body: "Yes, we do.",
      });
    [shown] = await publishedReviews(db(), listing.placeId, { sort: "newest", page: 1 });
    expect(shown!.storedHere).toBe(true);
  });
});

describe("accounts", () => {
  it("banning hides the account's reviews, lifting the ban brings them back, deleting it removes them", async () => {
    const listing = await insertListing(db());
    const author = await person();
    const root = await person({ role: "admin" });
    await writeReview(db(), { author, locationId: listing.placeId, review: input({ stars: 2 }), ipHash: null });
    await banUser(db(), { actor: root, userId: author.userId, reason: "Spam ring" });
    expect(await tally(listing.placeId)).toEqual({ count: 0, sum: 0 });
    await unbanUser(db(), { actor: root, userId: author.userId });
    expect(await tally(listing.placeId)).toEqual({ count: 1, sum: 2 });
    await db().transaction(async (t) => {
      const [account] = await t
        .execute(sql`select id, email, name, role, created_at from users where id = ${author.userId}`)
        .then(
          (r) =>
            (r as unknown as { rows: { id: string; email: string; name: string; role: string; created_at: Date }[] })
              .rows,
        );
      await removeAccountInTransaction(t as unknown as Database, {
        actor: admin,
        account: { ...account!, createdAt: account!.created_at },
        action: "user.delete",
        reason: "test",
      });
    });
    expect(await tally(listing.placeId)).toEqual({ count: 0, sum: 0 });
  });
});

describe("the tally under random sequences of changes", () => {
  it("always equals a count from scratch of the published reviews", async () => {
    const listing = await insertListing(db());
    const authors = await Promise.all([0, 1, 2, 3].map(() => person()));
    const op = fc.record({
      who: fc.integer({ min: 0, max: 3 }),
      what: fc.constantFrom("write", "edit", "edit-link", "delete", "report-remove", "approve"),
      stars: fc.integer({ min: 1, max: 5 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        await db().delete(reviews).where(eq(reviews.locationId, listing.placeId));
        await db()
          .update(locations)
          .set({ reviewCount: 0, reviewStarSum: 0 })
          .where(eq(locations.placeId, listing.placeId));
        for (const { who, what, stars } of ops) {
          const author = authors[who]!;
          const [own] = await db()
            .select()
            .from(reviews)
            .where(and(eq(reviews.locationId, listing.placeId), eq(reviews.authorId, author.userId)));
          const attempt = async () => {
            if (what === "write" && !own)
              await writeReview(db(), { author, locationId: listing.placeId, review: input({ stars }), ipHash: null });
            else if (what === "edit" && own)
              await editReview(db(), { author, reviewId: own.id, review: input({ stars }), ipHash: null });
            else if (what === "edit-link" && own)
              await editReview(db(), {
                author,
                reviewId: own.id,
                review: input({ stars, body: "Now see www.example-link.com for details." }),
                ipHash: null,
              });
            else if (what === "delete" && own) await deleteReview(db(), { author, reviewId: own.id });
            else if (what === "report-remove" && own?.status === "published") {
              await reportReview(db(), { reviewId: own.id, kind: "spam", message: null, reporterId: null });
              await decideReview(db(), {
                actor: admin,
                reviewId: own.id,
                decision: "remove",
                reason: "x",
                expectedStatus: "published",
              });
            } else if (what === "approve" && own?.status === "held")
              await decideReview(db(), {
                actor: admin,
                reviewId: own.id,
                decision: "approve",
                reason: null,
                expectedStatus: "held",
              });
          };
          // Refusals (a removed review cannot be edited) change nothing; the tally must still hold.
          await attempt().catch((error: { status?: number }) => {
            if (!error.status || error.status >= 500) throw error;
          });
          expect(await tally(listing.placeId)).toEqual(await recount(listing.placeId));
        }
      }),
      { numRuns: 12 },
    );
  });
});
