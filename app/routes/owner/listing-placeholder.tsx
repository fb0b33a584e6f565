import { requireListingOwner } from "../../../server/auth/guards";
import { viewerContext } from "../../../server/auth/console";
import type { Route } from "./+types/listing-placeholder";

/**
 * Owner screens about one listing: the owner layout has checked the session; this loader adds the
 * listing rule (its owner or an admin; 404 for an unknown listing), with the layout's viewer.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireListingOwner(request, params.locationId, context.get(viewerContext));
  return null;
}

export { meta, handle, default } from "../console-placeholder";
