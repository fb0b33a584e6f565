/**
 * Keeping availability fresh (docs/product.md section 17): after AVAILABILITY_REMIND_AFTER_DAYS
 * without an update, the listing's owner is emailed a signed link that confirms the availability
 * as it is in one click, without signing in (a GET shows a button; the POST confirms, so a mail
 * scanner following the link changes nothing). At most one email per listing per reminder period;
 * a daily job sends them, and on several instances at once each listing is claimed by one.
 */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { AVAILABILITY_REMIND_AFTER_DAYS, needsReminder } from "../../domain/availability";
import type { SizeOffer } from "../../domain/listings";
import { wantsEmail } from "../account/notifications";
import { ownsListing } from "../auth/ownership";
import { resolveAuthSecret } from "../auth/secret";
import { readLinkToken, signLinkToken } from "../auth/signed-link";
import { serverNow } from "../clock";
import { getConfig, publicUrl } from "../config";
import type { Database } from "../db/client";
import { listedLocation, listingOwners, locations, users } from "../db/schema";
import { enqueueEmail, kickEmail } from "../email";
import { logger } from "../logger";
import { updateListing } from "./edit";

const DAY_MS = 24 * 60 * 60_000;
/** A link works this long after it is sent. */
export const CONFIRM_LINK_DAYS = 14;

export interface ConfirmToken {
  locationId: string;
  ownerId: string;
  /** Epoch milliseconds after which the link no longer works. */
  expires: number;
}

const PURPOSE = "availability-confirm";

export function signConfirmToken(secret: string, token: ConfirmToken): string {
  return signLinkToken(secret, PURPOSE, [token.locationId, token.ownerId], token.expires);
}

/** The token's contents when it is ours and not expired; otherwise why not. */
export function readConfirmToken(
  secret: string,
  raw: string,
  now = serverNow().getTime(),
): { ok: true; token: ConfirmToken } | { ok: false; reason: "invalid" | "expired" } {
  const read = readLinkToken(secret, PURPOSE, raw, 2, now);
  if (!read.ok) return read;
  const [locationId, ownerId] = read.fields as [string, string];
  return { ok: true, token: { locationId, ownerId, expires: read.expires } };
}

const secret = () => resolveAuthSecret(getConfig());

/**
 * Emails each owner whose listing's availability is due (a stated status older than
 * AVAILABILITY_REMIND_AFTER_DAYS) and who was not reminded within that period. Returns how many
 * emails were queued.
 */
export async function sendAvailabilityReminders(
  db: Database,
  now = serverNow(),
  /** The key that signs the links; the site's own by default (a script preparing a site passes that site's). */
  signingSecret: string = secret(),
): Promise<number> {
  const since = new Date(now.getTime() - AVAILABILITY_REMIND_AFTER_DAYS * DAY_MS);
  const due = await db
    .select({
      placeId: locations.placeId,
      name: locations.name,
      sizeOffers: locations.sizeOffers,
      ownerId: users.id,
      email: users.email,
      ownerName: users.name,
    })
    .from(locations)
    .innerJoin(listingOwners, eq(listingOwners.locationId, locations.placeId))
    .innerJoin(users, eq(users.id, listingOwners.userId))
    .where(
      and(
        listedLocation,
        sql`jsonb_array_length(${locations.sizeOffers}) > 0`,
        or(isNull(locations.availabilityRemindedAt), lt(locations.availabilityRemindedAt, since)),
      ),
    );
  let sent = 0;
  const site = publicUrl(getConfig());
  for (const listing of due) {
    if (!needsReminder(listing.sizeOffers as SizeOffer[], now)) continue;
    const queued = await db.transaction(async (t) => {
      const tx = t as unknown as Database;
      // Claimed by this update: another instance running the job at once finds it taken.
      const [claimed] = await tx
        .update(locations)
        .set({ availabilityRemindedAt: now })
        .where(
          and(
            eq(locations.placeId, listing.placeId),
            or(isNull(locations.availabilityRemindedAt), lt(locations.availabilityRemindedAt, since)),
          ),
        )
        .returning({ placeId: locations.placeId });
      if (!claimed || !(await wantsEmail(tx, listing.ownerId, "moderation-results"))) return false;
      const token = signConfirmToken(signingSecret, {
        locationId: listing.placeId,
        ownerId: listing.ownerId,
        expires: now.getTime() + CONFIRM_LINK_DAYS * DAY_MS,
      });
      await enqueueEmail(tx, {
        kind: "availability.reminder",
        to: listing.email,
        subject: `Is the availability of ${listing.name} still correct?`.slice(0, 300),
        text: [
          `Hello${listing.ownerName ? ` ${listing.ownerName}` : ""},`,
          "",
          `RV owners see when you last updated the availability of ${listing.name}. It was over ${AVAILABILITY_REMIND_AFTER_DAYS} days ago;`,
          "after 30 days the page says it was not confirmed recently.",
          "",
          "Still correct? Confirm it in one click (no sign-in needed; the link works for 14 days):",
          `${site}/availability/confirm?token=${token}`,
          "",
          "Something changed? Update it in your console:",
          `${site}/owner/locations/${encodeURIComponent(listing.placeId)}/availability`,
          "",
          `You get this email because you manage the listing; turn listing emails off in your settings: ${site}/owner/settings`,
        ].join("\n"),
      });
      return true;
    });
    if (queued) sent++;
  }
  if (sent > 0) {
    kickEmail();
    logger.info({ sent }, "availability reminders queued");
  }
  return sent;
}

/** What the confirmation page shows for a link: the listing, or why the link does not work. */
export async function confirmLinkState(db: Database, raw: string) {
  const read = readConfirmToken(secret(), raw);
  if (!read.ok) return { ok: false as const, reason: read.reason };
  const [listing] = await db
    .select({ name: locations.name, slug: locations.slug })
    .from(locations)
    .where(and(eq(locations.placeId, read.token.locationId), listedLocation));
  if (!listing || !(await ownsListing(db, read.token.ownerId, read.token.locationId)))
    return { ok: false as const, reason: "invalid" as const };
  return { ok: true as const, token: read.token, listing };
}

/**
 * Confirms the listing's availability as it is for the owner the link was sent to, if they still
 * own it: every stated status dated now, through the listing edit (versioned and audited as theirs).
 */
export async function confirmByLink(db: Database, raw: string, requestId: string | null) {
  const state = await confirmLinkState(db, raw);
  if (!state.ok) return state;
  const [owner] = await db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, state.token.ownerId));
  const [row] = await db
    .select({ version: locations.version })
    .from(locations)
    .where(eq(locations.placeId, state.token.locationId));
  if (!owner || !row) return { ok: false as const, reason: "invalid" as const };
  await updateListing(db, {
    actor: { userId: state.token.ownerId, email: owner.email, name: owner.name, isAdmin: false },
    locationId: state.token.locationId,
    changes: {},
    expectedVersion: row.version,
    confirmPrices: true,
    requestId,
  });
  return { ok: true as const, listing: state.listing };
}
