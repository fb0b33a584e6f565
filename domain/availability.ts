import type { Availability, SizeOffer } from "./listings";

/**
 * How fresh an owner's availability is (docs/product.md section 17): each size's status carries
 * the time it was set or confirmed. After REMIND_AFTER_DAYS without an update the owner is asked
 * to confirm it; after STALE_AFTER_DAYS the site says it was not confirmed recently and the
 * "Available now" filter no longer counts it. Shared by the pages, the index and the server.
 */
export const AVAILABILITY_REMIND_AFTER_DAYS = 14;
export const AVAILABILITY_STALE_AFTER_DAYS = 30;

const DAY_MS = 24 * 60 * 60_000;

/** A status that says a space can be had now. */
export const isOpenStatus = (availability: Availability | null | undefined): boolean =>
  availability === "available" || availability === "few_left";

/** Whole days from `at` to `now` (0 when `at` is in the future or unreadable). */
export function daysSince(at: string | null | undefined, now: Date): number | null {
  if (!at) return null;
  const time = Date.parse(at);
  if (Number.isNaN(time)) return null;
  return Math.max(0, Math.floor((now.getTime() - time) / DAY_MS));
}

/**
 * The first moment (ms) a status set at `statusAt` no longer counts: STALE_AFTER_DAYS whole days
 * later it is still fresh, one day more and it is not. Null for a missing or unreadable time. The
 * search index stores this per open size, so its filter and this module apply one rule.
 */
export function freshUntil(statusAt: string | null | undefined): number | null {
  return statusAt ? freshUntilTime(Date.parse(statusAt)) : null;
}

/** `freshUntil` of a time already read (ms; NaN for an unreadable one). */
export function freshUntilTime(time: number): number | null {
  return Number.isNaN(time) ? null : time + (AVAILABILITY_STALE_AFTER_DAYS + 1) * DAY_MS;
}

/** Whether a size's status was set or confirmed within STALE_AFTER_DAYS. */
export function isFresh(offer: Pick<SizeOffer, "statusAt">, now: Date): boolean {
  const until = freshUntil(offer.statusAt);
  return until !== null && now.getTime() < until;
}

/** A size a visitor can ask for now: an open status, confirmed recently. */
export const isAvailableNow = (offer: Pick<SizeOffer, "availability" | "statusAt">, now: Date): boolean =>
  isOpenStatus(offer.availability) && isFresh(offer, now);

/** "today", "yesterday", "3 days ago". */
export function agoText(days: number): string {
  return days === 0 ? "today" : days === 1 ? "yesterday" : `${days} days ago`;
}

export interface AvailabilitySummary {
  /** "Spaces available · updated 3 days ago", "Full · waitlist open", "Availability not confirmed recently". */
  text: string;
  tone: "open" | "full" | "stale";
}

/**
 * The one line cards and the facility page show about a listing's availability, or null when the
 * owner stated none. Only sizes confirmed within STALE_AFTER_DAYS count; when every stated size is
 * older, the line says so instead of repeating an old claim.
 */
export function availabilitySummary(
  offers: readonly Pick<SizeOffer, "availability" | "statusAt">[],
  now: Date,
): AvailabilitySummary | null {
  const kinds: Availability[] = [];
  const times: number[] = [];
  for (const offer of offers) {
    if (!offer.availability) continue;
    kinds.push(offer.availability);
    times.push(offer.statusAt ? Date.parse(offer.statusAt) : Number.NaN);
  }
  return summaryOfStatuses(kinds, times, now.getTime());
}

/**
 * `availabilitySummary` of statuses already read: size i's status `kinds[i]` set at `times[i]`
 * (ms, NaN when missing or unreadable), judged at `now` (ms). The search index keeps statuses this
 * way and makes a card's line without turning times back into text.
 */
export function summaryOfStatuses(
  kinds: readonly Availability[],
  times: readonly number[],
  now: number,
): AvailabilitySummary | null {
  if (kinds.length === 0) return null;
  let newest = Infinity;
  let open = false;
  let waitlist = false;
  for (let i = 0; i < kinds.length; i++) {
    const time = times[i]!;
    const until = freshUntilTime(time);
    if (until === null || now >= until) continue;
    newest = Math.min(newest, Math.max(0, Math.floor((now - time) / DAY_MS)));
    if (isOpenStatus(kinds[i])) open = true;
    else if (kinds[i] === "waitlist") waitlist = true;
  }
  if (newest === Infinity) return { text: "Availability not confirmed recently", tone: "stale" };
  const updated = `updated ${agoText(newest)}`;
  if (open) return { text: `Spaces available · ${updated}`, tone: "open" };
  if (waitlist) return { text: `Full · waitlist open · ${updated}`, tone: "full" };
  return { text: `Full · ${updated}`, tone: "full" };
}

/**
 * The first moment after `now` (ms) at which `summaryOfStatuses(kinds, times, ·)` may read
 * otherwise: the next whole day since one of the fresh statuses (its "updated N days ago", or its
 * end of freshness, which falls on such a day). Infinity when no status is fresh: once stale, a
 * status stays so. Between `now` and this moment the line is the same, so the search index keeps
 * a card's line until then instead of working it out for every answer.
 */
export function summaryChangesAt(times: readonly number[], now: number): number {
  let next = Infinity;
  for (const time of times) {
    const until = freshUntilTime(time);
    if (until === null || now >= until) continue;
    const days = Math.max(0, Math.floor((now - time) / DAY_MS));
    next = Math.min(next, time + (days + 1) * DAY_MS);
  }
  return next;
}

/** Sizes whose status is older than REMIND_AFTER_DAYS: the owner is asked to confirm them. */
export function needsReminder(offers: readonly SizeOffer[], now: Date): boolean {
  return offers.some((o) => {
    if (!o.availability) return false;
    const days = daysSince(o.statusAt, now);
    return days === null || days >= AVAILABILITY_REMIND_AFTER_DAYS;
  });
}

/** A size's key, "12x40", as forms and the owner's screen name it. */
export const sizeKey = (o: { width: number; length: number }) => `${o.width}x${o.length}`;

/**
 * The sizes to store after an edit: a status that changed (or `confirm`, "still correct") gets
 * `statusAt` now; one that did not keeps its time; `openSpaces` left out by a form (the long
 * listing editor does not ask it) keeps its stored value.
 */
export function withStatusTimes(
  current: readonly SizeOffer[],
  submitted: readonly SizeOffer[],
  now: Date,
  confirm: boolean,
): SizeOffer[] {
  const before = new Map(current.map((o) => [sizeKey(o), o]));
  return submitted.map((offer) => {
    const old = before.get(sizeKey(offer));
    const openSpaces = offer.openSpaces !== undefined ? offer.openSpaces : (old?.openSpaces ?? null);
    const changed = !old || old.availability !== offer.availability || (old.openSpaces ?? null) !== openSpaces;
    const statusAt = !offer.availability
      ? null
      : changed || confirm
        ? now.toISOString()
        : (old?.statusAt ?? offer.statusAt ?? null);
    const next: SizeOffer = {
      width: offer.width,
      length: offer.length,
      monthlyPrice: offer.monthlyPrice,
      availability: offer.availability,
    };
    if (offer.availability && openSpaces !== null) next.openSpaces = openSpaces;
    if (statusAt) next.statusAt = statusAt;
    return next;
  });
}
