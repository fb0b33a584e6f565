import RotateCcw from "lucide-react/icons/rotate-ccw";
import { Form } from "react-router";
import { PHOTO_RESTORE_DAYS } from "../../../domain/listing-photos";
import { SubmitButton } from "../ui/submit-button";
import { formatDate } from "../../lib/format";

/**
 * Photos deleted in the last PHOTO_RESTORE_DAYS days, each with Restore (docs/product.md section
 * 10 "Photos"): a plain form post, so it works without JavaScript.
 */
export function RecentlyDeletedPhotos({
  photos,
  listingName,
}: {
  photos: readonly { url: string; thumbnail: string; deletedAt: string }[];
  listingName: string;
}) {
  if (photos.length === 0) return null;
  return (
    <section aria-labelledby="recently-deleted" className="mt-10">
      <h2 id="recently-deleted" className="text-lg font-semibold text-slate-900">
        Recently deleted
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Deleted photos of {listingName} can be restored for {PHOTO_RESTORE_DAYS} days.
      </p>
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {photos.map((photo) => (
          <li key={photo.url} className="overflow-hidden rounded-lg border border-slate-200 bg-white">
            <img src={photo.thumbnail} alt="" loading="lazy" className="aspect-[4/3] w-full object-cover opacity-60" />
            <div className="flex flex-wrap items-center justify-between gap-2 p-2 text-xs text-slate-600">
              <span>Deleted {formatDate(photo.deletedAt)}</span>
              <Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value="restore" />
                <input type="hidden" name="url" value={photo.url} />
                <SubmitButton size="sm" variant="secondary" name="restore" value={photo.url}>
                  <RotateCcw className="size-4" aria-hidden="true" />
                  Restore
                  <span className="sr-only"> the photo deleted {formatDate(photo.deletedAt)}</span>
                </SubmitButton>
              </Form>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
