import { Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { PhotoManager } from "../../components/listing-photos/photo-manager";
import { RecentlyDeletedPhotos } from "../../components/listing-photos/recently-deleted";
import { buttonClasses } from "../../components/ui/button";
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
  const { locationId, name, slug, photos, deleted, uploadUrl } = loaderData;
  return (
    <>
      <PageHeader
        title={`Photos of ${name}`}
        description="Changes show on the public page and in search at once. The first photo is the main photo."
        actions={
          <>
            <Link to={`/admin/manage/${encodeURIComponent(locationId)}`} className={buttonClasses("secondary")}>
              Back to the listing
            </Link>
            <Link to={`/location/${slug}`} className={buttonClasses("secondary")}>
              View the public page
            </Link>
          </>
        }
      />
      <div className="mt-6">
        <PhotoManager photos={photos} uploadUrl={uploadUrl} listingName={name} />
      </div>
      <RecentlyDeletedPhotos photos={deleted} listingName={name} />
    </>
  );
}
