import type { ComponentProps } from "react";
import { Link } from "react-router";
import { PageHeader } from "../console/page-header";
import { buttonClasses } from "../ui/button";
import { PhotoManager } from "./photo-manager";
import { RecentlyDeletedPhotos } from "./recently-deleted";

export interface ListingPhotosData {
  name: string;
  slug: string;
  photos: ComponentProps<typeof PhotoManager>["photos"];
  deleted: ComponentProps<typeof RecentlyDeletedPhotos>["photos"];
  uploadUrl: ComponentProps<typeof PhotoManager>["uploadUrl"];
}

/**
 * A listing's photo manager, the same screen for its owner and for an administrator
 * (docs/product.md sections 10 and 12); each route keeps its own loader, action and guard and
 * says where "Back to the listing" goes.
 */
export function ListingPhotosScreen({ data, backTo }: { data: ListingPhotosData; backTo: string }) {
  const { name, slug, photos, deleted, uploadUrl } = data;
  return (
    <>
      <PageHeader
        title={`Photos of ${name}`}
        description="Changes show on the public page and in search at once. The first photo is the main photo."
        actions={
          <>
            <Link to={backTo} className={buttonClasses("secondary")}>
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
