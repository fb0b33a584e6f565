/**
 * The rules and messages of a listing's photos (docs/product.md section 10, "Photos"), shared by
 * the server (server/listings/photos.ts) and the photo manager, which checks the same rules before
 * it sends a file. Browser-safe: no server imports.
 */

/** The largest photo an owner may upload. */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
/** The most photos one listing may have. */
export const PHOTO_MAX_COUNT = 30;
/** Deleted photos can be restored for this many days; then a daily job removes their files. */
export const PHOTO_RESTORE_DAYS = 7;
/** The most files one upload request may carry (the manager sends one file per request). */
export const PHOTO_BATCH_FILES = 10;
/**
 * The formats accepted, judged by the file's content. HEIC is not among them: this server's
 * image library reads HEIF only with AV1 inside, and iPhone photos use HEVC (ADR 015).
 */
export const PHOTO_MIME_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
/** For the file input's `accept`: a hint to the browser's picker only; the server checks content. */
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp";

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const PHOTO_TEXT = {
  tooLarge: (name: string, size: number) =>
    `${name} is ${mb(size)}; a photo may be at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB.`,
  requestTooLarge: `A file is larger than ${PHOTO_MAX_BYTES / 1024 / 1024} MB, the most a photo may be. Nothing was uploaded.`,
  notImage: (name: string, what: string) => `${name} is not a photo (${what}). Upload JPEG, PNG or WebP images.`,
  wrongFormat: (name: string, what: string) =>
    `${name} is ${what}, which is not accepted. Upload JPEG, PNG or WebP images.`,
  heic: (name: string) =>
    `${name} is a HEIC photo, which this site cannot read yet. Export it as JPEG and upload that.`,
  unreadable: (name: string, why: string) => `${name} could not be read as a photo: ${why}.`,
  limit: (name: string) =>
    `${name} was not added: a listing may have at most ${PHOTO_MAX_COUNT} photos. Delete one to make room.`,
  busy: (name: string) => `The server is busy processing photos; ${name} was not added. Try it again in a minute.`,
  noFiles: "Choose one or more photos to upload.",
  tooManyFiles: `Upload at most ${PHOTO_BATCH_FILES} photos at a time.`,
  changed: "The photos were changed in another window. The page now shows them as they are; try again.",
  gone: "That photo was already deleted.",
  notRestorable: `That photo can no longer be restored: deleted photos are kept for ${PHOTO_RESTORE_DAYS} days.`,
  restoreLimit: `A listing may have at most ${PHOTO_MAX_COUNT} photos. Delete one to make room, then restore this one.`,
  restored: "Photo restored at the end of the list.",
  added: (n: number) => (n === 1 ? "Photo added." : `${n} photos added.`),
  reordered: "Photo order saved.",
  deleted: `Photo deleted. You can restore it for ${PHOTO_RESTORE_DAYS} days under Recently deleted.`,
} as const;
