/** Gallery rules (docs/product.md sections 4 and 9). Browser-safe. */

/** The main photo plus up to this many thumbnails; the rest are counted as '+N more photos'. */
export const MAX_THUMBNAILS = 14;

/** The next index, wrapping around at both ends. */
export function wrapIndex(index: number, step: number, count: number): number {
  if (count <= 0) return 0;
  return (((index + step) % count) + count) % count;
}

/** How many photos the thumbnail strip leaves out. */
export function hiddenPhotoCount(count: number): number {
  return Math.max(0, count - 1 - MAX_THUMBNAILS);
}
