import { formatCount } from "./numbers";

/**
 * The words of a listing edit (docs/product.md section 10), shared by the owner screens, the
 * facility page and the server. Browser-safe and small: the form's zod schema lives on the server
 * (server/listings/form.ts), so zod and the phone metadata stay out of the page bundles.
 */

/** Key fields change what a visitor is sent to: they wait for an administrator (ADR 014). */
export const KEY_FIELDS = ["name", "address", "latitude", "longitude"] as const;
export type KeyField = (typeof KEY_FIELDS)[number];

export const AVAILABILITIES = ["available", "few_left", "waitlist", "full"] as const;
export type Availability = (typeof AVAILABILITIES)[number];

export const AVAILABILITY_LABELS: Record<Availability, string> = {
  available: "Available",
  few_left: "Few left",
  waitlist: "Waitlist",
  full: "Full",
};

/** The most open spaces an owner may state for one size. */
export const MAX_OPEN_SPACES = 10_000;

/** One size a facility offers, with what an RV owner asks first: the price and whether it is free. */
export interface SizeOffer {
  width: number;
  length: number;
  /** Whole US dollars a month, or null when the owner did not say. */
  monthlyPrice: number | null;
  availability: Availability | null;
  /** How many spaces of this size are open, when the owner says (docs/product.md section 17). */
  openSpaces?: number | null;
  /** When the owner last set or confirmed this size's availability (ISO time). */
  statusAt?: string | null;
}

export const LISTING_LIMITS = {
  description: 5000,
  name: 200,
  address: 300,
  city: 100,
  optionText: 500,
  website: 2000,
  phone: 40,
  customSizes: 10,
  maxSizeFeet: 200,
  maxMonthlyPrice: 100_000,
  minClearanceFeet: 6,
  maxClearanceFeet: 40,
} as const;

/** Days in the editor's order; opening-hours lines are saved in this order. */
export const WEEK_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** `keep` leaves a line the editor could not read as it is (imported text it does not understand). */
export const DAY_MODES = ["closed", "open24", "hours", "keep"] as const;
export type DayMode = (typeof DAY_MODES)[number];

/**
 * Gate access hours (docs/product.md section 10): `same` when the owner does not list them apart
 * (nothing is stored, the facility page shows the office hours only), `own` for a week of their own.
 */
export const GATE_MODES = ["same", "own"] as const;
export type GateMode = (typeof GATE_MODES)[number];

/** The human names of the fields, for revision lists and messages. */
export const LISTING_FIELD_LABELS = {
  name: "Name",
  address: "Address",
  latitude: "Latitude",
  longitude: "Longitude",
  description: "Description",
  phone: "Phone",
  website: "Website",
  openingHours: "Opening hours",
  gateHours: "Gate access hours",
  amenities: "Amenities",
  parkingOptions: "Parking",
  paymentOptions: "Payment",
  accessibilityOptions: "Accessibility",
  sizes: "Sizes and prices",
  coveredClearanceFeet: "Covered height clearance",
  pricesConfirmedAt: "Prices confirmed",
  photos: "Photos",
  city: "City",
  state: "State",
  businessStatus: "Business status",
} as const;

/**
 * What the catalogue says of a facility's trading (docs/product.md section 3): only administrators
 * set it, in their listing editor (docs/product.md section 12).
 */
export const BUSINESS_STATUSES = ["OPERATIONAL", "CLOSED_TEMPORARILY", "CLOSED_PERMANENTLY"] as const;
export const BUSINESS_STATUS_LABELS: Record<(typeof BUSINESS_STATUSES)[number], string> = {
  OPERATIONAL: "Operational",
  CLOSED_TEMPORARILY: "Closed temporarily",
  CLOSED_PERMANENTLY: "Closed permanently",
};
export type ListingField = keyof typeof LISTING_FIELD_LABELS;

export const REVISION_KINDS = ["published", "pending", "withdrawn", "approved", "rejected", "restored"] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

/** One field of a change in words (server/listings/describe.ts), before and after. */
export interface ChangeLine {
  /** "Name", "Address", or "Map position" for the two coordinates together. */
  label: string;
  before: string;
  after: string;
}

/** How the history names each kind of revision, for the owner and the admin alike. */
export const REVISION_KIND_LABELS: Record<RevisionKind, string> = {
  published: "Published",
  pending: "Sent for review",
  withdrawn: "Review request withdrawn",
  approved: "Approved",
  rejected: "Not approved",
  restored: "Restored",
};

export const LISTING_SAVED_TEXT = "Saved.";
export const LISTING_SAVED_PENDING_TEXT =
  "Saved. Changes to the name, address or map position wait for an administrator.";
export const LISTING_CONFLICT_TEXT =
  "Someone saved this listing after you opened this form (perhaps in another tab). Nothing was changed: reload the page to see the current version, then make your changes again.";

/** An admin decided a change that is no longer waiting (docs/product.md section 10). */
export const PENDING_CHANGE_GONE_TEXT =
  "This change is no longer waiting: another administrator decided it, or the owner withdrew it. Nothing was changed.";
export const PENDING_CHANGE_REPLACED_TEXT =
  "The owner sent new values after you opened this page. Nothing was decided: look at the change again.";
export const RESTORE_CONFLICT_TEXT =
  "The listing was saved after you opened this page, so the values to restore may differ from what you confirmed. Nothing was restored: look at the history again.";

/** "8:00 AM" for minutes after midnight (1440, the end of the day, is "12:00 AM"). */
export function clockLabel(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  const hours = Math.floor(m / 60);
  const period = hours < 12 ? "AM" : "PM";
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  return `${twelve}:${String(m % 60).padStart(2, "0")} ${period}`;
}

/** "$145/mo", or null. */
export function priceLabel(price: number | null): string | null {
  return price === null ? null : `$${formatCount(price)}/mo`;
}
