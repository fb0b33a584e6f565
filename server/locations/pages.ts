import { hasVerifiedOwner } from "../auth/ownership";
import { getDatabase } from "../db";
import { badRequest, notFound } from "../errors";
import { logger } from "../logger";
import { getLocationBySlug, type FacilityRow } from "./repository";

/**
 * The listed listing of a page under a facility's slug (its review form, its waitlist), or that
 * page's own 400 or 404: a hidden or deleted listing takes nothing there.
 */
export async function listedLocationBySlug(slug: string): Promise<FacilityRow> {
  if (slug.length > 200) throw badRequest("Invalid location URL");
  const location = await getLocationBySlug(slug);
  if (!location || location.hiddenAt || location.deletedAt) throw notFound("Location not found");
  return location;
}

/**
 * Whether the facility page shows the verified-owner badge. Ownership changes when a claim is
 * approved, so it is read fresh; a failed read hides the badge instead of failing the page.
 */
export async function verifiedOwnerBadge(placeId: string): Promise<boolean> {
  try {
    return await hasVerifiedOwner(getDatabase(), placeId);
  } catch (error) {
    logger.warn({ err: error, placeId }, "could not read the listing's owner");
    return false;
  }
}
