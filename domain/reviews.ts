/**
 * Ratings that say where they come from (issue 34): a facility's rating combines the imported
 * rating (its count of imported reviews) with the reviews written on this site, counting a
 * first-party review only while it is published. The service keeps a running tally per listing,
 * changed in the same transaction as each review (`applyReviewChange`), so a page never adds
 * up the reviews table; the property test in reviews.test.ts checks that the running tally always
 * equals a count from scratch.
 */

/** Where a review stands; only `published` counts in a rating. */
export const REVIEW_STATUSES = ["held", "published", "rejected", "removed"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** Whole stars, 1 to 5. */
export const MIN_REVIEW_STARS = 1;
export const MAX_REVIEW_STARS = 5;

/** What counts of a review: its stars and whether it is published. A deleted review is `null`. */
export interface CountedReview {
  status: ReviewStatus;
  stars: number;
}

/** A listing's first-party reviews as a rating counts them. */
export interface ReviewTally {
  count: number;
  starSum: number;
}

export const EMPTY_TALLY: ReviewTally = { count: 0, starSum: 0 };

/** What one review adds to its listing's tally: nothing unless it is published. */
export function tallyOf(review: CountedReview | null): ReviewTally {
  if (!review || review.status !== "published") return EMPTY_TALLY;
  if (!Number.isInteger(review.stars) || review.stars < MIN_REVIEW_STARS || review.stars > MAX_REVIEW_STARS) {
    throw new RangeError(`A review has ${MIN_REVIEW_STARS} to ${MAX_REVIEW_STARS} whole stars, not ${review.stars}`);
  }
  return { count: 1, starSum: review.stars };
}

/**
 * The tally after one review changed from `before` to `after` (`null`: not there: written,
 * deleted). Covers every change: a write, an edit of the stars, a deletion, and every moderation
 * decision (a held review approved, a published one removed).
 */
export function applyReviewChange(
  tally: ReviewTally,
  before: CountedReview | null,
  after: CountedReview | null,
): ReviewTally {
  const out = tallyOf(before);
  const into = tallyOf(after);
  const next = { count: tally.count - out.count + into.count, starSum: tally.starSum - out.starSum + into.starSum };
  if (next.count < 0 || next.starSum < 0)
    throw new RangeError("A review was taken out of a tally that did not hold it");
  return next;
}

export interface CombinedRating {
  /** The weighted mean of both sources, or null with no rating from either. */
  rating: number | null;
  /** Reviews behind `rating`: imported plus published first-party ones. */
  count: number;
  importedCount: number;
  firstPartyCount: number;
}

/**
 * The rating shown on cards and the facility page and used by the rating sort ("4.6 from 212
 * reviews: 31 on this site, 181 imported"): the mean of every review behind it, each counting
 * once. An imported count without an imported rating counts for nothing.
 */
export function combinedRating(
  imported: { rating: number | null; count: number },
  firstParty: ReviewTally,
): CombinedRating {
  const importedCount = imported.rating === null ? 0 : Math.max(0, imported.count);
  const count = importedCount + firstParty.count;
  const sum = (imported.rating ?? 0) * importedCount + firstParty.starSum;
  return {
    rating: count === 0 ? null : sum / count,
    count,
    importedCount,
    firstPartyCount: firstParty.count,
  };
}
