/**
 * The waitlist of a full size (docs/product.md section 17): its states, limits and words, shared by
 * the join page, the server and the owner's counts. Browser-safe and pure.
 */
export const WAITLIST_STATUSES = ["pending", "active", "left"] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** A confirmation link works this long; an unconfirmed entry is then just forgotten. */
export const WAITLIST_CONFIRM_DAYS = 7;
/** A leave link works this long after its email (leaving again from a later email always works). */
export const WAITLIST_LEAVE_DAYS = 365;

/** The RV lengths the form takes, in feet. */
export const WAITLIST_RV_LENGTH = { min: 10, max: 100 } as const;

export const WAITLIST_MESSAGES = {
  email: "Enter your email address, like name@example.com.",
  rvLength: `Enter your RV's length in feet, from ${WAITLIST_RV_LENGTH.min} to ${WAITLIST_RV_LENGTH.max}.`,
  size: "Choose a size this facility lists as full or on a waitlist.",
  notFull: "This size has space now: ask the facility about it instead of joining a waitlist.",
  sent: "Check your email: we sent a link to confirm your place on the waitlist.",
  joined: "You are on the waitlist. We will email you when this size has space.",
  left: "You left the waitlist. We will not email you about this size again.",
} as const;

/** A size whose status invites a waitlist. */
export const takesWaitlist = (availability: string | null | undefined): boolean =>
  availability === "full" || availability === "waitlist";
