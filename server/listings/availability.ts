/**
 * /owner/locations/{id}/availability (docs/product.md section 17): every size's status and open
 * spaces on one short screen, and "Still correct", which only refreshes their dates. Saves go
 * through the listing edit (server/listings/edit.ts), so they are versioned, audited and reach
 * the search index like any other edit.
 */
import { z } from "zod";
import {
  agoText,
  availabilitySummary,
  AVAILABILITY_STALE_AFTER_DAYS,
  daysSince,
  sizeKey,
} from "../../domain/availability";
import { AVAILABILITIES, AVAILABILITY_LABELS, MAX_OPEN_SPACES, type SizeOffer } from "../../domain/listings";
import { actorOf } from "../auth/actor";
import { requireListingOwner } from "../auth/guards";
import type { SignedInViewer } from "../auth/viewer";
import { serverNow } from "../clock";
import { waitlistCounts } from "../waitlist/service";
import { getDatabase } from "../db";
import { formFailure, parseFormSubmission, redirectWithFlash } from "../http/form-action";
import { readForm } from "../http/form";
import { formRefusal } from "../http/refusal";
import { notFound } from "../errors";
import { updateListing } from "./edit";
import { fieldsOf } from "./fields";
import { eq } from "drizzle-orm";
import { locations, type LocationRow } from "../db/schema";
import type { Database } from "../db/client";

export const availabilityPath = (locationId: string) =>
  `/owner/locations/${encodeURIComponent(locationId)}/availability`;

async function listingRow(db: Database, locationId: string): Promise<LocationRow | undefined> {
  const [row] = await db.select().from(locations).where(eq(locations.placeId, locationId));
  return row && !row.deletedAt ? row : undefined;
}

export async function availabilityPage(request: Request, viewer: SignedInViewer, locationId: string) {
  await requireListingOwner(request, locationId, viewer);
  const row = await listingRow(getDatabase(), locationId);
  if (!row) throw notFound("Location not found");
  const now = serverNow();
  const sizes = fieldsOf(row).sizes;
  // How many wait per size, never who (docs/product.md section 17, "Waitlist").
  const waiting = await waitlistCounts(getDatabase(), row.placeId);
  return {
    placeId: row.placeId,
    name: row.name,
    slug: row.slug,
    version: row.version,
    summary: availabilitySummary(sizes, now)?.text ?? null,
    staleAfterDays: AVAILABILITY_STALE_AFTER_DAYS,
    sizes: sizes.map((s) => {
      const days = daysSince(s.statusAt, now);
      return {
        key: sizeKey(s),
        label: `${s.width}' x ${s.length}'`,
        availability: s.availability,
        openSpaces: s.openSpaces ?? null,
        updated: s.availability ? (days === null ? "date not known" : `updated ${agoText(days)}`) : null,
        stale: s.availability ? days === null || days > AVAILABILITY_STALE_AFTER_DAYS : false,
        waiting: waiting[sizeKey(s)] ?? 0,
      };
    }),
    statuses: AVAILABILITIES.map((value) => ({ value, label: AVAILABILITY_LABELS[value] })),
  };
}

const schema = z.object({
  intent: z.enum(["save", "confirm"], { error: "Reload the page and try again." }),
  version: z.coerce.number({ error: "Reload the page and try again." }).int().nonnegative(),
  sizes: z
    .array(
      z.object({
        key: z.string().max(20),
        availability: z.enum(AVAILABILITIES, { error: "Choose a status for this size." }).optional(),
        openSpaces: z.coerce
          .number({ error: "Enter the open spaces as a whole number." })
          .int("Enter the open spaces as a whole number.")
          .min(0, "Enter the open spaces as a whole number.")
          .max(MAX_OPEN_SPACES, `Enter at most ${MAX_OPEN_SPACES.toLocaleString("en-US")} open spaces.`)
          .optional(),
      }),
    )
    .max(100)
    .optional(),
});

/** Save the statuses and counts (`intent=save`) or confirm them all as they are (`intent=confirm`). */
export async function availabilityAction(
  request: Request,
  viewer: SignedInViewer,
  locationId: string,
  requestId: string | null,
) {
  await requireListingOwner(request, locationId, viewer);
  const form = await readForm(request);
  const result = parseFormSubmission(schema, form);
  if (!result.ok) return formFailure(result);
  const db = getDatabase();
  const row = await listingRow(db, locationId);
  if (!row) throw notFound("Location not found");
  const current = fieldsOf(row).sizes;
  const submitted = new Map((result.data.sizes ?? []).map((s) => [s.key, s]));
  const sizes: SizeOffer[] =
    result.data.intent === "confirm"
      ? current
      : current.map((offer) => {
          const given = submitted.get(sizeKey(offer));
          if (!given) return offer;
          const availability = given.availability ?? null;
          return { ...offer, availability, openSpaces: availability ? (given.openSpaces ?? null) : null };
        });
  if (result.data.intent === "confirm" && !current.some((s) => s.availability))
    return formFailure(result, 400, { formError: "Set a status for at least one size first." });
  try {
    await updateListing(db, {
      actor: actorOf(viewer),
      locationId,
      changes: { sizes },
      expectedVersion: result.data.version,
      confirmPrices: result.data.intent === "confirm",
      requestId,
    });
  } catch (error) {
    return formRefusal(result, error, ["conflict"]);
  }
  return redirectWithFlash(availabilityPath(locationId), {
    kind: "success",
    text:
      result.data.intent === "confirm"
        ? "Confirmed: visitors see your availability as updated today."
        : "Availability saved: visitors see it now.",
  });
}
