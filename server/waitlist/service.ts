/**
 * The waitlist of a full size (docs/product.md section 17, "Waitlist"). A visitor leaves an address
 * and their RV's length; the address is confirmed by a link emailed to it (double opt-in). When the
 * owner's edit opens the size (full, waitlist or no status to available or few left), everyone
 * waiting is emailed in the order they joined, once for that opening, in the edit's transaction.
 * Every email carries a link that leaves the waitlist without a sign-in. The owner sees how many
 * wait per size, never who.
 */
import { randomUUID } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import { isOpenStatus, sizeKey } from "../../domain/availability";
import { AVAILABILITY_LABELS, type SizeOffer } from "../../domain/listings";
import { takesWaitlist, WAITLIST_CONFIRM_DAYS, WAITLIST_LEAVE_DAYS } from "../../domain/waitlist";
import { resolveAuthSecret } from "../auth/secret";
import { readLinkToken, signLinkToken } from "../auth/signed-link";
import { serverNow } from "../clock";
import { getConfig, publicUrl } from "../config";
import type { Database } from "../db/client";
import { canNameRow } from "../db/keys";
import {
  availabilityOpenings,
  listedLocation,
  locations,
  waitlistEntries,
  waitlistNotices,
  type WaitlistEntryRow,
} from "../db/schema";
import { enqueueEmail } from "../email";
import { AppError } from "../errors";

const DAY_MS = 24 * 60 * 60_000;
const tx = (t: unknown) => t as Database;
const secret = () => resolveAuthSecret(getConfig());
const CONFIRM = "waitlist-confirm";
const LEAVE = "waitlist-leave";

/** "12x40 ft" as emails and pages name a size. */
export const sizeText = (key: string) => `${key} ft`;

function leaveLink(site: string, entryId: string, now: Date): string {
  const token = signLinkToken(secret(), LEAVE, [entryId], now.getTime() + WAITLIST_LEAVE_DAYS * DAY_MS);
  return `${site}/waitlist/leave?token=${token}`;
}

interface Listing {
  placeId: string;
  name: string;
  slug: string;
  sizeOffers: SizeOffer[];
}

async function listedListing(db: Database, locationId: string): Promise<Listing | undefined> {
  if (!canNameRow(locationId)) return undefined;
  const [row] = await db
    .select({
      placeId: locations.placeId,
      name: locations.name,
      slug: locations.slug,
      sizeOffers: locations.sizeOffers,
    })
    .from(locations)
    .where(and(eq(locations.placeId, locationId), listedLocation));
  return row && { ...row, sizeOffers: (row.sizeOffers ?? []) as SizeOffer[] };
}

/** The sizes of a listing a visitor may join the waitlist of: those marked full or waitlist. */
export const waitlistSizes = (offers: readonly SizeOffer[]): string[] =>
  offers.filter((o) => takesWaitlist(o.availability)).map(sizeKey);

export interface JoinRequest {
  locationId: string;
  sizeKey: string;
  email: string;
  rvLengthFeet: number;
  visitorUserId: string | null;
  now?: Date;
}

/**
 * Asks to join: the answer is the same whatever the address's state, so the form tells nobody who
 * waits. A new (or left) address gets a confirmation link; a pending one gets it again; an active
 * one is told it already waits, with its leave link. Refused (400) for a size that is not full.
 */
export async function joinWaitlist(db: Database, request: JoinRequest): Promise<void> {
  const now = request.now ?? serverNow();
  const site = publicUrl(getConfig());
  const email = request.email.trim().toLowerCase();
  await db.transaction(async (t) => {
    const db = tx(t);
    const listing = await listedListing(db, request.locationId);
    if (!listing) throw new AppError("not_found", 404, "This listing is not on the site right now.");
    if (!waitlistSizes(listing.sizeOffers).includes(request.sizeKey)) {
      const open = listing.sizeOffers.some((o) => sizeKey(o) === request.sizeKey && isOpenStatus(o.availability));
      throw new AppError(
        "bad_request",
        400,
        open
          ? "This size has space now: ask the facility about it instead of joining a waitlist."
          : "Choose a size this facility lists as full or on a waitlist.",
      );
    }
    const [existing] = await db
      .select()
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.locationId, listing.placeId),
          eq(waitlistEntries.sizeKey, request.sizeKey),
          eq(waitlistEntries.email, email),
        ),
      )
      .for("update");
    const size = sizeText(request.sizeKey);
    if (existing?.status === "active") {
      await enqueueEmail(db, {
        kind: "waitlist.already",
        to: email,
        subject: `You are already on the waitlist for ${size} at ${listing.name}`.slice(0, 300),
        text: [
          "Hello,",
          "",
          `Someone (probably you) asked to join the waitlist for ${size} at ${listing.name}. This address is already on it:`,
          "we will email you when that size has space.",
          "",
          `Leave the waitlist: ${leaveLink(site, existing.id, now)}`,
        ].join("\n"),
      });
      return;
    }
    let id = existing?.id;
    if (existing) {
      // A pending entry keeps its time, so the link sent first still works; one that left starts
      // afresh, so a confirmation link from before it left no longer brings it back.
      await db
        .update(waitlistEntries)
        .set({
          status: "pending",
          rvLengthFeet: request.rvLengthFeet,
          visitorUserId: request.visitorUserId ?? existing.visitorUserId,
          ...(existing.status === "left" ? { createdAt: now, joinedAt: null, leftAt: null } : {}),
        })
        .where(eq(waitlistEntries.id, existing.id));
    } else {
      id = randomUUID();
      await db.insert(waitlistEntries).values({
        id,
        locationId: listing.placeId,
        sizeKey: request.sizeKey,
        email,
        rvLengthFeet: request.rvLengthFeet,
        status: "pending",
        visitorUserId: request.visitorUserId,
        createdAt: now,
      });
    }
    const token = signLinkToken(secret(), CONFIRM, [id!], now.getTime() + WAITLIST_CONFIRM_DAYS * DAY_MS);
    await enqueueEmail(db, {
      kind: "waitlist.confirm",
      to: email,
      subject: `Confirm your place on the waitlist at ${listing.name}`.slice(0, 300),
      text: [
        "Hello,",
        "",
        `Please confirm that you want to join the waitlist for ${size} at ${listing.name}.`,
        `Confirm (the link works for ${WAITLIST_CONFIRM_DAYS} days): ${site}/waitlist/confirm?token=${token}`,
        "",
        "Your place in the queue counts from your confirmation. If you did not ask for this, ignore this email:",
        "nothing happens without the confirmation.",
      ].join("\n"),
    });
  });
}

export type LinkState =
  | {
      ok: true;
      entry: WaitlistEntryRow;
      listing: { name: string; slug: string };
      /** When the link stops working (ms): tells when it was sent. */
      expires: number;
    }
  | { ok: false; reason: "invalid" | "expired" };

async function entryFromLink(db: Database, purpose: string, raw: string, now: Date): Promise<LinkState> {
  const read = readLinkToken(secret(), purpose, raw, 1, now.getTime());
  if (!read.ok) return read;
  const [row] = await db
    .select({ entry: waitlistEntries, name: locations.name, slug: locations.slug })
    .from(waitlistEntries)
    .innerJoin(locations, eq(locations.placeId, waitlistEntries.locationId))
    .where(and(eq(waitlistEntries.id, read.fields[0]!), listedLocation));
  if (!row) return { ok: false, reason: "invalid" };
  return { ok: true, entry: row.entry, listing: { name: row.name, slug: row.slug }, expires: read.expires };
}

/** What the confirmation page shows for a link. */
export async function confirmLinkState(db: Database, raw: string, now = serverNow()) {
  return entryFromLink(db, CONFIRM, raw, now);
}

/** What the leave page shows for a link. */
export async function leaveLinkState(db: Database, raw: string, now = serverNow()) {
  return entryFromLink(db, LEAVE, raw, now);
}

/**
 * Confirms a pending entry: it joins the queue now. Confirming again changes nothing; an entry
 * that left since (or joined again with a newer link) is not brought back by an old link.
 */
export async function confirmWaitlist(db: Database, raw: string, now = serverNow()): Promise<LinkState> {
  const state = await confirmLinkState(db, raw, now);
  if (!state.ok) return state;
  const { entry } = state;
  if (entry.status === "active") return state;
  // The link must be newer than the entry's last (re)join, or it is an old one.
  const linkIssuedAt = state.expires - WAITLIST_CONFIRM_DAYS * DAY_MS;
  if (entry.status !== "pending" || linkIssuedAt < entry.createdAt.getTime()) return { ok: false, reason: "invalid" };
  const [updated] = await db
    .update(waitlistEntries)
    .set({ status: "active", joinedAt: now })
    .where(and(eq(waitlistEntries.id, entry.id), eq(waitlistEntries.status, "pending")))
    .returning();
  return { ...state, entry: updated ?? entry };
}

/** Leaves the waitlist; leaving twice is fine. */
export async function leaveWaitlist(db: Database, raw: string, now = serverNow()): Promise<LinkState> {
  const state = await leaveLinkState(db, raw, now);
  if (!state.ok) return state;
  if (state.entry.status === "left") return state;
  const [updated] = await db
    .update(waitlistEntries)
    .set({ status: "left", leftAt: now })
    .where(eq(waitlistEntries.id, state.entry.id))
    .returning();
  return { ...state, entry: updated ?? state.entry };
}

/**
 * In a listing edit's transaction: the sizes that became open, each recorded as an opening and
 * announced to everyone waiting on it, in the order they joined. Returns how many were emailed.
 */
export async function announceOpenings(
  db: Database,
  change: {
    listing: { placeId: string; name: string; slug: string };
    before: readonly SizeOffer[];
    after: readonly SizeOffer[];
    now: Date;
  },
): Promise<number> {
  const wasOpen = new Map(change.before.map((o) => [sizeKey(o), isOpenStatus(o.availability)]));
  const opened = change.after.filter((o) => isOpenStatus(o.availability) && wasOpen.get(sizeKey(o)) !== true);
  if (opened.length === 0) return 0;
  const site = publicUrl(getConfig());
  let emailed = 0;
  for (const offer of opened) {
    const key = sizeKey(offer);
    const waiting = await db
      .select({ id: waitlistEntries.id, email: waitlistEntries.email, rvLengthFeet: waitlistEntries.rvLengthFeet })
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.locationId, change.listing.placeId),
          eq(waitlistEntries.sizeKey, key),
          eq(waitlistEntries.status, "active"),
        ),
      )
      .orderBy(asc(waitlistEntries.joinedAt), asc(waitlistEntries.id));
    const [opening] = await db
      .insert(availabilityOpenings)
      .values({ locationId: change.listing.placeId, sizeKey: key, openedAt: change.now, notified: waiting.length })
      .returning({ id: availabilityOpenings.id });
    const status = AVAILABILITY_LABELS[offer.availability!];
    for (const entry of waiting) {
      const emailId = await enqueueEmail(db, {
        kind: "waitlist.opening",
        to: entry.email,
        subject: `${sizeText(key)} has space at ${change.listing.name}`.slice(0, 300),
        text: [
          "Hello,",
          "",
          `${change.listing.name} now marks ${sizeText(key)} as ${status.toLowerCase()}. You asked to hear about it.`,
          "Spaces go to whoever reaches the facility first: everyone waiting hears at the same time, in the order they joined.",
          "",
          `See the facility and ask for a space: ${site}/location/${change.listing.slug}`,
          "",
          `Leave the waitlist: ${leaveLink(site, entry.id, change.now)}`,
        ].join("\n"),
      });
      await db.insert(waitlistNotices).values({ openingId: opening!.id, entryId: entry.id, emailId });
      emailed++;
    }
  }
  return emailed;
}

/** How many wait (confirmed) per size of a listing, for its owner: counts only. */
export async function waitlistCounts(db: Database, locationId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ sizeKey: waitlistEntries.sizeKey, waiting: count() })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.locationId, locationId), eq(waitlistEntries.status, "active")))
    .groupBy(waitlistEntries.sizeKey);
  return Object.fromEntries(rows.map((r) => [r.sizeKey, Number(r.waiting)]));
}
