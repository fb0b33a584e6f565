import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { uploadListingPhotosAction } from "../../../server/listings/photo-pages";
import type { Route } from "./+types/location-photos-upload";

/**
 * Photo uploads for one listing (docs/api.md): its owner or an admin. JSON for the photo
 * manager's script (Accept: application/json), a redirect back to the manager for a plain form.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  return uploadListingPhotosAction(
    request,
    context.get(viewerContext),
    params.locationId,
    context.get(requestIdContext),
  );
}
