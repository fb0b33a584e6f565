/**
 * The data problems the nightly check finds (docs/product.md section 12), apart from the visitors'
 * report kinds in work-queue.ts: the facility page's "Suggest an edit" loads those, and none of
 * these (shared chunks carry every export their importers use).
 */

export const LISTING_PROBLEM_KINDS = [
  "no_coordinates",
  "outside_state",
  "no_contact",
  "likely_duplicate",
  "closed",
  "stale",
] as const;
export type ListingProblemKind = (typeof LISTING_PROBLEM_KINDS)[number];

export const LISTING_PROBLEM_LABELS: Record<ListingProblemKind, string> = {
  no_coordinates: "No usable coordinates",
  outside_state: "Coordinates outside its state",
  no_contact: "No phone and no website",
  likely_duplicate: "Likely duplicate",
  closed: "Marked closed",
  stale: "Not updated for a year",
};

/** A listing not updated for this many days is stale. */
export const STALE_AFTER_DAYS = 365;
/** Two listings this close with similar names are likely one facility. */
export const DUPLICATE_MAX_MILES = 0.5;
/** Names at least this similar (1 = the same after normalizing) count as similar. */
export const DUPLICATE_NAME_SIMILARITY = 0.8;
