import { hasVerifiedOwner } from "../auth/ownership";
import { getDatabase } from "../db";
import { logger } from "../logger";

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
