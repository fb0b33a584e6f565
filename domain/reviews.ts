/**
 * Ratings that say where they come from (issue 34): a facility's rating combines the imported
 * rating (its count of imported reviews) with the reviews written on this site, counting a
 * first-party review only while it is published. The service keeps a running tally per listing,
 * changed in the same transaction as each review (`applyReviewChange`), so a page never adds
 * up the reviews table; the property test in reviews.test.ts checks that the running tally always
 * equals a count from scratch.
 */

import { REVIEW_DETAILS_MAX, type ReviewSort } from "./review-labels";

export * from "./review-labels";

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

/*
 * The rules of writing, reporting and holding a review (docs/product.md section 16), shared by the
 * forms, the pages and the server.
 */

/** What was stored, as the review form asks it. */
export const STORED_KINDS = ["class_a", "class_b", "class_c", "fifth_wheel", "trailer", "boat"] as const;
export type StoredKind = (typeof STORED_KINDS)[number];
export const STORED_KIND_LABELS: Record<StoredKind, string> = {
  class_a: "Class A motorhome",
  class_b: "Class B camper van",
  class_c: "Class C motorhome",
  fifth_wheel: "Fifth wheel",
  trailer: "Trailer",
  boat: "Boat",
};

/** The optional sub-ratings, each 1 to 5 stars. */
export const SUB_RATINGS = ["security", "access", "value", "cleanliness"] as const;
export type SubRating = (typeof SUB_RATINGS)[number];
export const SUB_RATING_LABELS: Record<SubRating, string> = {
  security: "Security",
  access: "Access",
  value: "Value",
  cleanliness: "Cleanliness",
};

export const REVIEW_LIMITS = {
  titleMax: 120,
  textMin: 20,
  textMax: 2000,
  lengthMinFeet: 8,
  lengthMaxFeet: 65,
  replyMax: 2000,
  reasonMax: REVIEW_DETAILS_MAX,
  /** Reviews one account may write (new ones, not edits) in a day. */
  perAccountPerDay: 3,
  /** Reviews one address may write in a day, across accounts. */
  perAddressPerDay: 6,
  /** Reports one address may send in an hour. */
  reportsPerAddressPerHour: 10,
  /** The oldest stay month a review may name, in years back. */
  stayYearsBack: 10,
} as const;

export const REVIEWS_PAGE_SIZE = 5;

/** Why the checks held a review for an administrator before publishing it. */
export const HOLD_REASONS = [
  "link",
  "contact",
  "profanity",
  "address_burst",
  "new_accounts",
  "owner",
  "rating_burst",
  "resubmitted",
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];
export const HOLD_REASON_LABELS: Record<HoldReason, string> = {
  link: "Has a link",
  contact: "Has a phone number or email address",
  profanity: "Has a word from the profanity list",
  address_burst: "Many reviews from one address today",
  new_accounts: "Many reviews of this listing from new accounts today",
  owner: "The author owns or claimed this listing",
  rating_burst: "A burst of reviews with the same extreme rating on this listing",
  resubmitted: "Rejected before, and edited since",
};

export const HOLD_THRESHOLDS = {
  /** Reviews from one address in a day (this one included) from which each is held. */
  addressReviewsPerDay: 3,
  /** An account younger than this is new. */
  newAccountDays: 7,
  /** Reviews of one listing by new accounts in a day (this one included) from which each is held. */
  newAccountReviewsPerDay: 3,
  /** 5-star or 1-star reviews of one listing in a day (this one included) from which each is held. */
  extremeReviewsPerDay: 5,
} as const;

/**
 * Words that hold a review for a person to read. Short on purpose: a word here only holds a review
 * (an administrator decides), it never rejects one.
 */
const PROFANITY = new Set([
  "asshole",
  "bastard",
  "bitch",
  "bullshit",
  "cunt",
  "dick",
  "fuck",
  "fucked",
  "fucking",
  "motherfucker",
  "shit",
  "shitty",
  "slut",
  "whore",
]);

const TOP_LEVEL = /\.(?:com|net|org|info|biz|io|co|us|ly|me|site|online|xyz)(?:\/|$)/i;

/** Words of a text, lower case, split on anything but letters, digits and . @ / : - (linear). */
function tokensOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9.@/:_-]+/)
    .filter(Boolean);
}

/** Whether a text carries a web address. */
export function hasLink(text: string): boolean {
  return tokensOf(text).some((token) => {
    let end = token.length;
    while (end > 0 && (token[end - 1] === "." || token[end - 1] === ":")) end--;
    const word = token.slice(0, end);
    return /^(?:https?:\/\/|www\.)/.test(word) || TOP_LEVEL.test(word);
  });
}

/** Whether a text carries an email address or a US phone number. */
export function hasContactDetails(text: string): boolean {
  const email = tokensOf(text).some((token) => {
    const at = token.indexOf("@");
    return at > 0 && token.indexOf(".", at + 2) > at + 1;
  });
  return email || hasPhoneNumber(text);
}

const PHONE_SEPARATORS = new Set([" ", "\t", "\n", "(", ")", ".", "-"]);

/**
 * Ten digits in a row with at most two separators (space, brackets, dot, dash) between each, as a
 * US phone number is written: one pass over the text.
 */
function hasPhoneNumber(text: string): boolean {
  let digits = 0;
  let gap = 0;
  for (const char of text) {
    if (char >= "0" && char <= "9") {
      digits += 1;
      gap = 0;
      if (digits >= 10) return true;
    } else if (digits > 0 && PHONE_SEPARATORS.has(char) && gap < 2) {
      gap += 1;
    } else {
      digits = 0;
      gap = 0;
    }
  }
  return false;
}

export function hasProfanity(text: string): boolean {
  return text
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((word) => PROFANITY.has(word));
}

/** What the server knows around a review when it is written or edited. */
export interface ReviewContext {
  /** Reviews written from the author's address in the last day, this one included. */
  reviewsFromAddressToday: number;
  authorIsNewAccount: boolean;
  /** Reviews of the listing by new accounts in the last day, this one included when its author is new. */
  newAccountReviewsOfListingToday: number;
  /** The author owns the listing or has a claim on it. */
  authorOwnsOrClaimed: boolean;
  /** Reviews of the listing with the same stars in the last day, this one included. */
  sameStarsOfListingToday: number;
}

/** The reasons to hold a review before publishing it; none: it is published at once. */
export function holdReasons(
  review: { stars: number; title: string; text: string },
  context: ReviewContext,
): HoldReason[] {
  const words = `${review.title}\n${review.text}`;
  const reasons: HoldReason[] = [];
  if (hasLink(words)) reasons.push("link");
  if (hasContactDetails(words)) reasons.push("contact");
  if (hasProfanity(words)) reasons.push("profanity");
  if (context.reviewsFromAddressToday >= HOLD_THRESHOLDS.addressReviewsPerDay) reasons.push("address_burst");
  if (context.authorIsNewAccount && context.newAccountReviewsOfListingToday >= HOLD_THRESHOLDS.newAccountReviewsPerDay)
    reasons.push("new_accounts");
  if (context.authorOwnsOrClaimed) reasons.push("owner");
  if (
    (review.stars === MIN_REVIEW_STARS || review.stars === MAX_REVIEW_STARS) &&
    context.sameStarsOfListingToday >= HOLD_THRESHOLDS.extremeReviewsPerDay
  )
    reasons.push("rating_burst");
  return reasons;
}

/** The months a stay may name: from `stayYearsBack` years ago to this month, newest first ("2026-11"). */
export function stayMonths(now: Date): string[] {
  const months: string[] = [];
  let year = now.getUTCFullYear();
  let month = now.getUTCMonth() + 1;
  for (let i = 0; i < REVIEW_LIMITS.stayYearsBack * 12; i++) {
    months.push(`${year}-${String(month).padStart(2, "0")}`);
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
  return months;
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2026-03" -> "March 2026". */
export function stayMonthLabel(month: string): string {
  const [year, m] = month.split("-");
  const name = MONTH_NAMES[Number(m) - 1];
  return name && year ? `${name} ${year}` : month;
}

/** How the public sees an author: "Dana R." from "Dana Rivera"; a bare email's local part is never shown. */
export function publicAuthorName(name: string | null | undefined): string {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (!first || first.includes("@")) return "RV owner";
  const last = words.length > 1 ? words[words.length - 1]! : "";
  return `${first.slice(0, 40)}${last ? ` ${last[0]!.toUpperCase()}.` : ""}`;
}

/** A listing row's combined rating: its imported figures and its first-party tally. */
export function listingRating(row: {
  rating: number | null;
  userRatingsTotal: number;
  reviewCount: number;
  reviewStarSum: number;
}): CombinedRating {
  return combinedRating(
    { rating: row.rating, count: row.userRatingsTotal },
    { count: row.reviewCount, starSum: row.reviewStarSum },
  );
}

/** A published review as the facility page and the owner's console show it. */
export interface ShownReview {
  id: number;
  authorName: string;
  stars: number;
  title: string;
  body: string;
  /** "Class A motorhome, 38 ft · stayed June 2026". */
  stay: string;
  /** The sub-ratings given, as one line ("Security 5/5 · Value 4/5"); empty without any. */
  subRatings: string;
  helpfulCount: number;
  /** ISO time it was published. */
  date: string;
  /** The same, as pages show it ("Nov 28, 2026", UTC). */
  dateText: string;
  edited: boolean;
  storedHere: boolean;
  reply: { body: string; dateText: string } | null;
}

/** The facility page's reviews section. */
export interface FacilityReviewsData {
  combined: CombinedRating;
  /** Published first-party reviews per star, `[1★ … 5★]`. */
  distribution: number[];
  /** "from 212 reviews: 31 on this site, 181 imported", or null without a rating. */
  summary: string | null;
  /** The distribution's bars, 5 stars first; empty without first-party reviews. */
  bars: { label: string; count: string; width: string }[];
  /** The sort links, in order, the current one marked. */
  sorts: { label: string; href: string; current: boolean }[];
  page: number;
  pages: number;
  /** The newer and the next page of reviews, when there is one. */
  newerHref: string | null;
  nextHref: string | null;
  items: ShownReview[];
  /** The first imported reviews. */
  imported: { author: string; rating: number; relativeTime: string; text: string }[];
  /** What the author just did, from the redirect after the review form. */
  notice: string | null;
}

/** The facility page's answer to "Helpful" and "Report". */
export type ReviewActionResult =
  | { review: "helpful" | "reported"; reviewId: number; message: string }
  | { review: "error"; reviewId: number | null; message: string };

/** The facility page's link to its reviews sorted by `sort`, on page `page`. */
export function reviewsHref(slug: string, sort: ReviewSort, page: number): string {
  const params = new URLSearchParams();
  if (sort !== "newest") params.set("reviews", sort);
  if (page > 1) params.set("rpage", String(page));
  const search = params.toString();
  return `/location/${slug}${search ? `?${search}` : ""}#reviews`;
}

/** What the facility page says after the review form sent its author back (`?review=`). */
export const REVIEW_NOTICES: Record<string, string> = {
  published: "Thank you: your review is published.",
  held: "Thank you: your review waits for a check by our team before it is published. We email you when it is.",
  deleted: "Your review is deleted.",
};
