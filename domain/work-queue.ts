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

export const QUEUE_ITEM_STATUSES = ["open", "resolved", "dismissed"] as const;
export type QueueItemStatus = (typeof QUEUE_ITEM_STATUSES)[number];
