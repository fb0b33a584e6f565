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

/** A horizontal move at least this long (CSS pixels) between finger down and up is a swipe. */
export const SWIPE_MIN_PX = 40;

/**
 * The step a pointer move from down to up means: a swipe left shows the next photo (+1), a swipe
 * right the previous (-1); a short or mostly vertical move (a tap, a scroll) is 0.
 */
export function swipeStep(dx: number, dy: number): -1 | 0 | 1 {
  if (!Number.isFinite(dx) || !Number.isFinite(dy)) return 0;
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < 1.5 * Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}
