/**
 * Leads: a visitor asks a facility about a space (docs/product.md section 14). The form's rules,
 * limits and labels, shared by the facility page, the owner console and the server; no server
 * imports.
 */
import { parseMyRv } from "./rv-fit";

export const RV_TYPES = [
  "class_a",
  "class_b",
  "class_c",
  "fifth_wheel",
  "travel_trailer",
  "toy_hauler",
  "other",
] as const;
export type RvType = (typeof RV_TYPES)[number];
export const RV_TYPE_LABELS: Record<RvType, string> = {
  class_a: "Class A motorhome",
  class_b: "Class B camper van",
  class_c: "Class C motorhome",
  fifth_wheel: "Fifth wheel",
  travel_trailer: "Travel trailer",
  toy_hauler: "Toy hauler",
  other: "Other",
};

export const COVER_WANTS = ["any", "uncovered", "covered", "enclosed"] as const;
export type CoverWant = (typeof COVER_WANTS)[number];
export const COVER_WANT_LABELS: Record<CoverWant, string> = {
  any: "Any",
  uncovered: "Uncovered (open)",
  covered: "Covered",
  enclosed: "Enclosed",
};

export const LEAD_STATUSES = ["new", "replied", "won", "lost", "withdrawn", "handled"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: "New",
  replied: "Replied",
  won: "Won",
  lost: "Lost",
  withdrawn: "Withdrawn by the visitor",
  handled: "Handled by our team",
};
/**
 * What a visitor sends (docs/product.md sections 14 and 17): a question, or a reservation request
 * (no payment) that the owner accepts or declines within RESERVATION_ANSWER_HOURS.
 */
export const LEAD_KINDS = ["question", "reservation"] as const;
export type LeadKind = (typeof LEAD_KINDS)[number];
export const RESERVATION_STATUSES = ["pending", "accepted", "declined", "expired"] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];
export const RESERVATION_STATUS_LABELS: Record<ReservationStatus, string> = {
  pending: "Waiting for your answer",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired without an answer",
};
/** A reservation request not answered within this many hours expires. */
export const RESERVATION_ANSWER_HOURS = 72;

/** The statuses an owner sets by hand (replying sets "replied"). */
export const OWNER_SET_STATUSES = ["new", "replied", "won", "lost"] as const;

export const LEAD_LIMITS = {
  nameMax: 100,
  emailMax: 254,
  phoneMax: 30,
  messageMax: 2_000,
  replyMax: 5_000,
  /** Links a message may carry: more reads as spam. */
  linksMax: 2,
  lengthMinFeet: 10,
  lengthMaxFeet: 65,
  /** A form sent faster than this after the page was served is a bot's. */
  minFillSeconds: 3,
  /** A form older than this is stale (the page was left open); the visitor is asked to send it again. */
  maxFillHours: 24,
} as const;

/** How long a lead's contact details are kept (docs/product.md section 14, "Privacy"). */
export const LEAD_RETENTION_DAYS = 180;

export const LEAD_MESSAGES = {
  sent: "Your question is on its way. We sent you a copy by email; the facility answers you directly.",
  sentUnowned: (phone: string | null) =>
    `Thank you: this facility has not claimed its listing yet, so our team will pass your question on.${phone ? ` For a faster answer, call them at ${phone}.` : ""} We sent you a copy by email.`,
  tooMany: "You have sent several questions already. Please try again in a little while.",
  tooManyLinks: `Please include at most ${LEAD_LIMITS.linksMax} links in your message.`,
  stale: "This form was open for a long time. Please check your answers and send it again.",
} as const;

/**
 * The RV length to fill in the form from a results page: My RV's length (`?rvLength=40`, whole
 * feet rounded up), else the size filter's (`?size=12x30&size=20x40` or `?size=12x30,20x40`): the
 * longest length chosen; either only when it is within the form's range.
 */
export function lengthFromSearch(search: string): number | null {
  const params = new URLSearchParams(search.slice(0, 2_000));
  const myRv = parseMyRv(params);
  if (myRv.ok && myRv.rv) {
    const feet = Math.ceil(myRv.rv.lengthFeet);
    if (feet >= LEAD_LIMITS.lengthMinFeet && feet <= LEAD_LIMITS.lengthMaxFeet) return feet;
  }
  let longest: number | null = null;
  for (const value of params.getAll("size")) {
    for (const option of value.split(",").slice(0, 20)) {
      const [, length] = option.toLowerCase().split("x");
      const feet = length && /^\d{1,3}$/.test(length) ? Number(length) : NaN;
      if (
        feet >= LEAD_LIMITS.lengthMinFeet &&
        feet <= LEAD_LIMITS.lengthMaxFeet &&
        (longest === null || feet > longest)
      )
        longest = feet;
    }
  }
  return longest;
}

/**
 * The kind of space to fill in the form from a results page's amenity filter: enclosed units,
 * else covered parking, else uncovered; none when covered and uncovered are both chosen (either
 * will do) or the filter says nothing about the space.
 */
export function coverFromSearch(search: string): CoverWant | null {
  const params = new URLSearchParams(search.slice(0, 2_000));
  const chosen = new Set(
    params
      .getAll("amenity")
      .flatMap((v) => v.split(","))
      .slice(0, 40),
  );
  if (chosen.has("has_enclosed_units")) return "enclosed";
  const covered = chosen.has("has_covered_parking");
  const uncovered = chosen.has("has_uncovered_parking");
  if (covered && uncovered) return null;
  if (covered) return "covered";
  if (uncovered) return "uncovered";
  return null;
}

/** `?length=N&cover=K` for a link to a facility's question form from results filtered by them. */
export function askQueryFromSearch(search: string): string {
  const params = new URLSearchParams();
  const length = lengthFromSearch(search);
  const cover = coverFromSearch(search);
  if (length !== null) params.set("length", String(length));
  if (cover !== null) params.set("cover", cover);
  const query = params.toString();
  return query ? `?${query}` : "";
}

export function isCoverWant(value: unknown): value is CoverWant {
  return typeof value === "string" && (COVER_WANTS as readonly string[]).includes(value);
}
