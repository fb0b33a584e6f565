import {
  IMAGE_FORMATS,
  IMAGE_WIDTHS,
  MAX_PHOTO_INDEX,
  PLACE_IMAGES_FOLDER,
  imageFileName,
  isValidPlaceId,
  parseImageFileName,
  type ImageFormat,
  type ImageWidth,
} from "../../domain/images";
import type { ImageVariant } from "./pipeline";
import type { ImageStorage } from "./storage";

/** The stored photos of one place: `place-images/{placeId}/w{width}n{index}.{format}` (docs/product.md 7). */

export interface StoredPhotoFile {
  key: string;
  width: ImageWidth;
  format: ImageFormat;
  outputWidth: number;
  outputHeight: number;
  size: number;
}

export interface StoredPhoto {
  placeId: string;
  index: number;
  files: StoredPhotoFile[];
}

function assertPhoto(placeId: string, index: number): void {
  if (!isValidPlaceId(placeId)) throw new Error(`Invalid place id ${JSON.stringify(placeId)}`);
  if (!Number.isInteger(index) || index < 1 || index > MAX_PHOTO_INDEX)
    throw new Error(`Photo number ${index} is outside 1..${MAX_PHOTO_INDEX}`);
}

export function placeFolderKey(placeId: string): string {
  if (!isValidPlaceId(placeId)) throw new Error(`Invalid place id ${JSON.stringify(placeId)}`);
  return `${PLACE_IMAGES_FOLDER}/${placeId}`;
}

export function placeImageKey(placeId: string, index: number, width: ImageWidth, format: ImageFormat): string {
  assertPhoto(placeId, index);
  return `${PLACE_IMAGES_FOLDER}/${placeId}/${imageFileName(width, index, format)}`;
}

/** The twelve keys of one photo. */
export function photoKeys(placeId: string, index: number): string[] {
  return IMAGE_WIDTHS.flatMap((width) => IMAGE_FORMATS.map((format) => placeImageKey(placeId, index, width, format)));
}

/**
 * Writes one photo's files, all or nothing: if any write fails, every key of that photo is
 * removed (including older files it was replacing, which would otherwise mix two photos across
 * widths) and the error is rethrown. Render first (processImage), so that a bad original never
 * gets this far.
 */
export async function storePhoto(
  storage: ImageStorage,
  placeId: string,
  index: number,
  variants: readonly ImageVariant[],
): Promise<StoredPhoto> {
  assertPhoto(placeId, index);
  const files = variants.map((variant) => ({
    key: placeImageKey(placeId, index, variant.width, variant.format),
    variant,
  }));
  const results = await Promise.allSettled(files.map(({ key, variant }) => storage.put(key, variant.bytes)));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) {
    await Promise.allSettled(photoKeys(placeId, index).map((key) => storage.remove(key)));
    throw failed.reason;
  }
  return {
    placeId,
    index,
    files: files.map(({ key, variant }) => ({
      key,
      width: variant.width,
      format: variant.format,
      outputWidth: variant.outputWidth,
      outputHeight: variant.outputHeight,
      size: variant.bytes.length,
    })),
  };
}

/**
 * Removes the stored photos of a place numbered above `count` (after a place got fewer photos
 * than before); returns how many photos that was. Files of other names are left alone.
 */
export async function removePhotosAbove(storage: ImageStorage, placeId: string, count: number): Promise<number> {
  const folder = placeFolderKey(placeId);
  const removed = new Set<number>();
  for (const key of await storage.list(folder)) {
    const parsed = parseImageFileName(key.slice(folder.length + 1));
    if (parsed && parsed.index > count) {
      await storage.remove(key);
      removed.add(parsed.index);
    }
  }
  return removed.size;
}
