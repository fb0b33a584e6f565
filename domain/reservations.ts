/**
 * Reservation requests (docs/product.md section 17, "Reservation requests"): a lead of kind
 * "reservation" that the owner accepts or declines within RESERVATION_ANSWER_HOURS. The rules the
 * facility page, the owner console and the server share; no server imports.
 */
import { RESERVATION_ANSWER_HOURS, type ReservationStatus } from "./leads";

const HOUR_MS = 60 * 60_000;

/** How far ahead a move-in date may be for a reservation request. */
export const RESERVATION_MOVE_IN_MAX_DAYS = 365;
/** The owner's optional note when declining. */
export const RESERVATION_NOTE_MAX = 500;

export const RESERVATION_MESSAGES = {
  sent: `Your reservation request is on its way. The facility has ${RESERVATION_ANSWER_HOURS} hours to accept or decline it, and we email you their answer. We sent you a copy by email.`,
  unowned:
    "This facility has not claimed its listing here yet, so it cannot take reservation requests. Ask a question instead.",
  moveInMissing: "Choose the move-in date you want to reserve from.",
  moveInTooFar: `Choose a move-in date within a year (${RESERVATION_MOVE_IN_MAX_DAYS} days from today).`,
  kind: "Choose whether to ask a question or to request a reservation.",
  notReservation: "This lead is a question, not a reservation request: answer it with a reply.",
  withdrawn: "The visitor withdrew this request: it cannot be answered.",
  expired: "This request expired without an answer, so it can no longer be accepted or declined.",
  alreadyAnswered: (status: ReservationStatus) =>
    status === "expired"
      ? "This request expired without an answer, so it can no longer be accepted or declined."
      : `This request was already ${status}: it cannot be answered again.`,
  noteTooLong: `Keep the note under ${RESERVATION_NOTE_MAX} characters.`,
  noteNotText: "Write the note as plain text, without special characters.",
  accepted: "Reservation accepted. We emailed the visitor, and you a copy.",
  declined: "Reservation declined. We emailed the visitor, and you a copy.",
} as const;

/** When a request sent at `createdAt` expires unanswered. */
export function reservationExpiry(createdAt: Date): Date {
  return new Date(createdAt.getTime() + RESERVATION_ANSWER_HOURS * HOUR_MS);
}

/**
 * The status to show: a pending request past its expiry reads "expired" even before the daily job
 * stored it so (nobody can answer it any more).
 */
export function shownReservationStatus(
  status: ReservationStatus,
  expiresAt: Date | string | null,
  now: Date,
): ReservationStatus {
  if (status !== "pending" || !expiresAt) return status;
  return new Date(expiresAt).getTime() <= now.getTime() ? "expired" : "pending";
}

/** Whole hours left to answer (rounded up, at least 1 while any time is left); 0 once expired. */
export function hoursLeft(expiresAt: Date | string, now: Date): number {
  const ms = new Date(expiresAt).getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.max(1, Math.ceil(ms / HOUR_MS));
}

/** "Answer within 41 hours" (or "within 1 hour"). */
export function answerWithin(expiresAt: Date | string, now: Date): string {
  const hours = hoursLeft(expiresAt, now);
  return `Answer within ${hours} ${hours === 1 ? "hour" : "hours"}`;
}

/** The last move-in day a reservation may ask for, from `today` (YYYY-MM-DD, UTC). */
export function lastMoveInDay(today: string): string {
  const d = new Date(`${today}T00:00:00Z`);
  return new Date(d.getTime() + RESERVATION_MOVE_IN_MAX_DAYS * 24 * HOUR_MS).toISOString().slice(0, 10);
}
