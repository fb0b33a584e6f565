import { requireListingOwner } from "../../server/auth/guards";
import type { Route } from "./+types/owner-listing-placeholder";

/** Owner screens about one listing: only its owner (or an admin) gets in. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireListingOwner(request, params.locationId);
  return null;
}

export { meta, default } from "./placeholder";
