/**
 * What the facility page's reviews section needs of the review rules (docs/product.md section
 * 16): report reasons and sorts. Apart from domain/reviews.ts so the page's shared chunk carries
 * only these, not the review form's lists (shared chunks carry every export their importers use).
 */

/** A report's details, and an administrator's reason. */
export const REVIEW_DETAILS_MAX = 1000;

export const REVIEW_REPORT_KINDS = ["spam", "conflict_of_interest", "offensive", "not_a_real_stay"] as const;
export type ReviewReportKind = (typeof REVIEW_REPORT_KINDS)[number];
export const REVIEW_REPORT_LABELS: Record<ReviewReportKind, string> = {
  spam: "Spam or advertising",
  conflict_of_interest: "Conflict of interest (written by the owner or a competitor)",
  offensive: "Offensive or abusive",
  not_a_real_stay: "Not about a real stay here",
};

export const REVIEW_SORTS = ["newest", "helpful", "lowest"] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];
export const REVIEW_SORT_LABELS: Record<ReviewSort, string> = {
  newest: "Newest",
  helpful: "Most helpful",
  lowest: "Lowest rated",
};
