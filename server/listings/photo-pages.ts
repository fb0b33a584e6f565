import path from "node:path";
import { eq } from "drizzle-orm";
import { imageRefFromUrl, placeImageUrl } from "../../domain/images";
import { PHOTO_BATCH_FILES, PHOTO_MAX_BYTES, PHOTO_TEXT } from "../../domain/listing-photos";
import { requireListingOwner } from "../auth/guards";
import type { SignedInViewer } from "../auth/viewer";
import { getConfig } from "../config";
import { getDatabase } from "../db";
import { locations } from "../db/schema";
import { AppError, notFound } from "../errors";
import { redirectWithFlash } from "../http/form-action";
import { FLASH_MAX_TEXT } from "../http/flash";
import { readForm } from "../http/form";
import { flashRefusal, refusalOf } from "../http/refusal";
import { withUploadedFiles } from "../http/upload";
import { getImageStorage } from "../images";
import { LISTING_GONE } from "./edit";
import {
  addListingPhotos,
  deleteListingPhoto,
  recentlyDeletedPhotos,
  reorderListingPhotos,
  restoreListingPhoto,
} from "./photos";
import { actorOf } from "../auth/actor";

/**
 * The loader and actions of the owner's photo manager (docs/product.md section 10 "Photos",
 * docs/api.md): the page, its reorder/delete form posts, and the upload endpoint that answers
 * JSON to the manager's script and a redirect with a message to a plain form post.
 */

export const photosPath = (locationId: string) => `/owner/locations/${encodeURIComponent(locationId)}/photos`;
export const photoUploadPath = (locationId: string) => `${photosPath(locationId)}/upload`;

/** One photo as the manager shows it: its list entry and a small image to show for it. */
export function photoView(url: string) {
  const ref = imageRefFromUrl(url);
  return { url, thumbnail: ref ? placeImageUrl(ref.placeId, ref.index, 320, "webp") : url };
}

/** /owner/locations/{id}/photos */
export async function listingPhotosPage(request: Request, viewer: SignedInViewer, locationId: string) {
  await requireListingOwner(request, locationId, viewer);
  const db = getDatabase();
  const [row] = await db
    .select({ name: locations.name, slug: locations.slug, imageUrls: locations.imageUrls })
    .from(locations)
    .where(eq(locations.placeId, locationId));
  if (!row) throw notFound(LISTING_GONE);
  const deleted = await recentlyDeletedPhotos(db, locationId);
  return {
    locationId,
    name: row.name,
    slug: row.slug,
    photos: row.imageUrls.map(photoView),
    deleted: deleted.map((d) => ({ ...photoView(d.url), deletedAt: d.deletedAt.toISOString() })),
    uploadUrl: photoUploadPath(locationId),
  };
}

/**
 * The order a move button asks for (a post without JavaScript): `move` is `{url}|first`, `|up` or
 * `|down`, applied to the order the page showed; without `move`, `order` is the new order itself.
 */
export function movedOrder(order: string[], move: FormDataEntryValue | null): string[] {
  if (typeof move !== "string") return order;
  const cut = move.lastIndexOf("|");
  const url = move.slice(0, cut);
  const from = order.indexOf(url);
  if (cut < 0 || from < 0) return order;
  const direction = move.slice(cut + 1);
  const to = direction === "first" ? 0 : direction === "up" ? from - 1 : direction === "down" ? from + 1 : from;
  if (to < 0 || to >= order.length) return order;
  const next = [...order];
  next.splice(from, 1);
  next.splice(to, 0, url);
  return next;
}

/**
 * The page's form posts: `intent=reorder` with every `order` URL, `intent=delete` with `url`, or
 * `intent=restore` with the `url` of a recently deleted photo.
 */
export async function listingPhotosAction(
  request: Request,
  viewer: SignedInViewer,
  locationId: string,
  requestId: string | null,
  /** The page to return to: the owner's photos page, or the administrator's (docs/product.md section 12). */
  back = photosPath(locationId),
) {
  await requireListingOwner(request, locationId, viewer);
  const form = await readForm(request);
  const intent = form.get("intent");
  const db = getDatabase();
  try {
    if (intent === "reorder") {
      const order = movedOrder(
        form.getAll("order").filter((v): v is string => typeof v === "string"),
        form.get("move"),
      );
      await reorderListingPhotos(db, { actor: actorOf(viewer), locationId, order, requestId });
      return redirectWithFlash(back, { kind: "success", text: PHOTO_TEXT.reordered });
    }
    if (intent === "delete") {
      const url = form.get("url");
      if (typeof url !== "string") throw new AppError("bad_request", 400, "Say which photo to delete.");
      await deleteListingPhoto(db, { actor: actorOf(viewer), locationId, url, requestId });
      return redirectWithFlash(back, { kind: "success", text: PHOTO_TEXT.deleted });
    }
    if (intent === "restore") {
      const url = form.get("url");
      if (typeof url !== "string") throw new AppError("bad_request", 400, "Say which photo to restore.");
      await restoreListingPhoto(db, { actor: actorOf(viewer), locationId, url, requestId });
      return redirectWithFlash(back, { kind: "success", text: PHOTO_TEXT.restored });
    }
  } catch (error) {
    // A stale page: show the photos as they are now, with the reason.
    return flashRefusal(back, error, ["conflict"]);
  }
  throw new AppError("bad_request", 400, "Unknown photo action: use intent=reorder, intent=delete or intent=restore.");
}

/**
 * What one upload request may carry: a file stops at the photo limit (the parser refuses the
 * first byte over it), the request at ten such photos and the form's fields.
 */
export const PHOTO_UPLOAD_LIMITS = {
  maxFiles: PHOTO_BATCH_FILES,
  maxFileBytes: PHOTO_MAX_BYTES,
  maxTotalBytes: PHOTO_BATCH_FILES * PHOTO_MAX_BYTES + 64 * 1024,
} as const;

export const PHOTO_REQUEST_TOO_LARGE = `These photos come to more than ${(PHOTO_BATCH_FILES * PHOTO_MAX_BYTES) / 1024 / 1024} MB, the most one upload may carry. Nothing was uploaded; send fewer at a time.`;

/** Where uploads wait while they are checked: DATA_DIR/tmp/uploads, one folder per request. */
export const uploadFolder = () => path.join(getConfig().dataDir, "tmp", "uploads");

const clip = (text: string) => (text.length > FLASH_MAX_TEXT ? `${text.slice(0, FLASH_MAX_TEXT - 1)}…` : text);
const wantsJson = (request: Request) => (request.headers.get("Accept") ?? "").includes("application/json");

/** POST /owner/locations/{id}/photos/upload: `photos` files (multipart), at most 10 per request. */
export async function uploadListingPhotosAction(
  request: Request,
  viewer: SignedInViewer,
  locationId: string,
  requestId: string | null,
) {
  await requireListingOwner(request, locationId, viewer);
  const json = wantsJson(request);
  const back = photosPath(locationId);
  const refuse = (status: number, message: string) =>
    json
      ? Response.json({ error: message, added: [], rejected: [] }, { status })
      : redirectWithFlash(back, { kind: "error", text: message });
  try {
    // Each file goes to a temporary file as it arrives and is read back one at a time, so a
    // request of ten 15 MB photos never sits in memory whole (docs/operations.md, "Photos").
    return await withUploadedFiles(request, PHOTO_UPLOAD_LIMITS, uploadFolder(), async (_form, uploads) => {
      const files = uploads.filter((f) => f.field === "photos");
      if (files.length === 0) return refuse(400, PHOTO_TEXT.noFiles);
      const result = await addListingPhotos(getDatabase(), getImageStorage(), {
        actor: actorOf(viewer),
        locationId,
        files,
        requestId,
      });
      if (json) {
        const status = result.added.length === 0 ? 422 : 200;
        return Response.json(
          { added: result.added.map(photoView), rejected: result.rejected, count: result.imageUrls.length },
          { status },
        );
      }
      const parts = [
        ...(result.added.length > 0 ? [PHOTO_TEXT.added(result.added.length)] : []),
        ...result.rejected.map((r) => r.message),
      ];
      return redirectWithFlash(back, {
        kind: result.rejected.length > 0 ? "error" : "success",
        text: clip(parts.join(" ")),
      });
    });
  } catch (error) {
    const refusal = refusalOf(error, ["too_large", "too_many_files"]);
    if (refusal.code === "too_many_files") return refuse(400, PHOTO_TEXT.tooManyFiles);
    return refuse(413, refusal.details?.limit === "request" ? PHOTO_REQUEST_TOO_LARGE : PHOTO_TEXT.requestTooLarge);
  }
}
