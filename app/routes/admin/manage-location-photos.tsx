import type { ConsoleHandle } from "../../components/console/handle";
import { ListingPhotosScreen } from "../../components/listing-photos/listing-photos-screen";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { listingPhotosAction, listingPhotosPage } from "../../../server/listings/photo-pages";
import type { Route } from "./+types/manage-location-photos";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Photos of ${args.data.name}` : "Listing photos", args);
}

export const handle: ConsoleHandle = { breadcrumb: "Photos" };

/** The owner's photo manager, for an administrator (docs/product.md section 12): the same component and rules. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return listingPhotosPage(request, context.get(viewerContext), params.locationId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const back = `/admin/manage/${encodeURIComponent(params.locationId)}/photos`;
  return listingPhotosAction(
    request,
    context.get(viewerContext),
    params.locationId,
    context.get(requestIdContext),
    back,
  );
}

export default function AdminListingPhotos({ loaderData }: Route.ComponentProps) {
  return (
    <ListingPhotosScreen data={loaderData} backTo={`/admin/manage/${encodeURIComponent(loaderData.locationId)}`} />
  );
}
