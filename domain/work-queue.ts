/**
 * The work queue's kinds of items (docs/product.md section 12): visitors' reports and the data
 * problems the nightly check finds. Shared by the facility page's "Suggest an edit", the console
 * and the server; no server imports.
 */

export const LISTING_REPORT_KINDS = ["wrong_hours", "wrong_phone", "closed", "wrong_location", "other"] as const;
export type ListingReportKind = (typeof LISTING_REPORT_KINDS)[number];

export const LISTING_REPORT_LABELS: Record<ListingReportKind, string> = {
  wrong_hours: "The opening hours are wrong",
  wrong_phone: "The phone number is wrong",
  closed: "The business has closed",
  wrong_location: "The location on the map is wrong",
  other: "Something else",
};

/** A report's optional message. */
export const REPORT_MESSAGE_MAX = 1000;

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

export const QUEUE_ITEM_STATUSES = ["open", "resolved", "dismissed"] as const;
export type QueueItemStatus = (typeof QUEUE_ITEM_STATUSES)[number];

/** A listing not updated for this many days is stale. */
export const STALE_AFTER_DAYS = 365;
/** Two listings this close with similar names are likely one facility. */
export const DUPLICATE_MAX_MILES = 0.5;
/** Names at least this similar (1 = the same after normalizing) count as similar. */
export const DUPLICATE_NAME_SIMILARITY = 0.8;
