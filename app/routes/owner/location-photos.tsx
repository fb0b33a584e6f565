import type { ConsoleHandle } from "../../components/console/handle";
import { ListingPhotosScreen } from "../../components/listing-photos/listing-photos-screen";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { listingPhotosAction, listingPhotosPage } from "../../../server/listings/photo-pages";
import type { Route } from "./+types/location-photos";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Photos of ${args.data.name}` : "Listing photos", args);
}

export const handle: ConsoleHandle = {
  breadcrumb: (match) => {
    const name = (match.data as { name?: string } | undefined)?.name;
    return name ? `Photos of ${name}` : "Listing photos";
  },
};

/** The listing's owner or an admin (requireListingOwner, in the page glue); docs/product.md section 10 "Photos". */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return listingPhotosPage(request, context.get(viewerContext), params.locationId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return listingPhotosAction(request, context.get(viewerContext), params.locationId, context.get(requestIdContext));
}

export default function ListingPhotos({ loaderData }: Route.ComponentProps) {
  return (
    <ListingPhotosScreen
      data={loaderData}
      backTo={`/owner/locations/${encodeURIComponent(loaderData.locationId)}/update`}
    />
  );
}
