import { Link } from "react-router";
import { PageHeader } from "../../components/console/page-header";
import type { ConsoleHandle } from "../../components/console/handle";
import { ListingEditor } from "../../components/listing-editor/listing-editor";
import { buttonClasses } from "../../components/ui/button";
import { privatePageMeta } from "../../lib/meta";
import { viewerContext } from "../../../server/auth/console";
import { requestIdContext } from "../../../server/http/request-context";
import { listingEditPage, updateListingAction } from "../../../server/listings/pages";
import type { Route } from "./+types/location-update";

export function meta(args: Route.MetaArgs) {
  return privatePageMeta(args.data ? `Update ${args.data.name}` : "Update a listing", args);
}

export const handle: ConsoleHandle = {
  breadcrumb: (match) => {
    const name = (match.data as { name?: string } | undefined)?.name;
    return name ? `Update ${name}` : "Update a listing";
  },
};

/** The update route keeps the listing rule: its owner or an admin (requireListingOwner, in the page glue). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return listingEditPage(request, context.get(viewerContext), params.locationId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return updateListingAction(request, context.get(viewerContext), params.locationId, context.get(requestIdContext));
}

export default function UpdateListing({ loaderData }: Route.ComponentProps) {
  return (
    <ListingEditor
      data={loaderData}
      locationNote="Checked by an administrator before they appear."
      header={
        <PageHeader
          title={`Update ${loaderData.name}`}
          description="Changes publish as soon as you save, except the name, address and map position, which an administrator checks first."
          actions={
            <>
              <Link
                to={`/owner/locations/${encodeURIComponent(loaderData.placeId)}/photos`}
                className={buttonClasses("secondary")}
              >
                Photos ({loaderData.photoCount})
              </Link>
              <Link to={`/location/${loaderData.slug}`} className={buttonClasses("secondary")}>
                View the public page
              </Link>
            </>
          }
        />
      }
    />
  );
}
