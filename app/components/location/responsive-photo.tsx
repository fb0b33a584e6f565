import { useEffect, useRef, useState, type CSSProperties } from "react";
import { preload } from "react-dom";
import { placeImageUrl, srcSet, thumbnailUrl } from "../../../domain/images";

export interface ResponsivePhotoProps {
  placeId: string;
  /** 1-based photo number. */
  index: number;
  alt: string;
  /** The box's intrinsic size: sets the aspect ratio, so nothing moves when the image arrives. */
  width: number;
  height: number;
  /** The `sizes` attribute, e.g. "(min-width: 1024px) 33vw, 100vw". */
  sizes: string;
  /** Above the fold (first cards, gallery lead): load eagerly, high priority, preloaded. */
  priority?: boolean;
  /**
   * With `priority`: also a `<link rel="preload">` in the head (the default). Off for a photo
   * whose `<img>` comes early in the body anyway: React puts high-priority image preloads first in
   * the head, where they compete with the stylesheet and delay the first paint.
   */
  preload?: boolean;
  /** Classes for the image and, on error, the placeholder (e.g. "h-full rounded-card"). */
  className?: string;
  /**
   * cover (the default): the photo fills a box of `width` by `height`, cropped to it. contain:
   * the photo fills its parent's box whole, never cropped, on the box's background (the gallery's
   * 4:3 frame and full screen); `width` and `height` are then only hints.
   */
  fit?: "cover" | "contain";
}

/**
 * One place photo as `<picture>`: AVIF, then WebP, then JPEG at 320-1280 px (docs/product.md 9). The
 * box keeps its aspect ratio whether the photo loads, is still loading or fails; a failed photo
 * becomes a neutral 'No photos available' box (docs/product.md 8) instead of a broken-image icon.
 */
export function ResponsivePhoto({
  placeId,
  index,
  alt,
  width,
  height,
  sizes,
  priority = false,
  preload: preloadInHead = true,
  className = "",
  fit = "cover",
}: ResponsivePhotoProps) {
  const { ref, failed, onError } = useImageFailure(`${placeId}/${index}`);
  const style: CSSProperties = fit === "cover" ? { aspectRatio: `${width} / ${height}` } : {};

  if (priority && preloadInHead) {
    // React hoists this into <head> during SSR: the browser starts the AVIF before it has laid
    // out the page. Browsers without AVIF skip a preload whose type they do not support.
    preload(placeImageUrl(placeId, index, 640, "avif"), {
      as: "image",
      type: "image/avif",
      imageSrcSet: srcSet(placeId, index, "avif"),
      imageSizes: sizes,
      fetchPriority: "high",
    });
  }

  if (failed)
    return <PhotoPlaceholder className={classes(fit === "contain" ? "h-full" : "", className)} style={style} />;
  return (
    // display: contents lets the caller's classes size the <img> as if it were the direct child.
    <picture className="contents">
      <source type="image/avif" srcSet={srcSet(placeId, index, "avif")} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet(placeId, index, "webp")} sizes={sizes} />
      <img
        ref={ref}
        src={placeImageUrl(placeId, index, 640, "jpg")}
        srcSet={srcSet(placeId, index, "jpg")}
        sizes={sizes}
        alt={alt}
        width={width}
        height={height}
        loading={priority ? "eager" : "lazy"}
        decoding="async"
        fetchPriority={priority ? "high" : undefined}
        onError={onError}
        // In the gallery a mouse drag is a swipe, not a picture being dragged away.
        draggable={fit === "contain" ? false : undefined}
        className={classes(
          fit === "cover" ? "block w-full bg-slate-100 object-cover" : "block h-full w-full object-contain",
          className,
        )}
        style={style}
      />
    </picture>
  );
}

export interface ThumbnailProps {
  placeId: string;
  index: number;
  alt: string;
  /** Defaults to the 320 x 240 (4:3) box of the gallery strip. */
  width?: number;
  height?: number;
  className?: string;
}

/** A gallery thumbnail: the w320 AVIF file only (docs/product.md 5), lazily loaded. */
export function Thumbnail({ placeId, index, alt, width = 320, height = 240, className = "" }: ThumbnailProps) {
  const { ref, failed, onError } = useImageFailure(`${placeId}/${index}`);
  const style: CSSProperties = { aspectRatio: `${width} / ${height}` };
  if (failed) return <PhotoPlaceholder className={className} style={style} compact />;
  return (
    <img
      ref={ref}
      src={thumbnailUrl(placeId, index)}
      alt={alt}
      width={width}
      height={height}
      loading="lazy"
      decoding="async"
      onError={onError}
      className={classes("block w-full bg-slate-100 object-cover", className)}
      style={style}
    />
  );
}

function PhotoPlaceholder({
  className,
  style,
  compact = false,
}: {
  className: string;
  style: CSSProperties;
  compact?: boolean;
}) {
  return (
    <div
      className={classes(
        "flex w-full items-center justify-center bg-slate-100 p-2 text-center text-slate-600",
        compact ? "text-xs" : "text-sm",
        className,
      )}
      style={style}
    >
      No photos available
    </div>
  );
}

/**
 * Tracks whether the image failed. onError alone misses a failure that happened before
 * hydration (the server-rendered <img> errored while the script was loading), so the effect
 * also checks the element: complete with no pixels means broken.
 */
function useImageFailure(identity: string) {
  const ref = useRef<HTMLImageElement>(null);
  const [failedFor, setFailedFor] = useState<string | null>(null);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && img.currentSrc !== "") setFailedFor(identity);
  }, [identity]);
  // Keyed by the photo, so that a new photo in the same component gets a fresh chance.
  return { ref, failed: failedFor === identity, onError: () => setFailedFor(identity) };
}

const classes = (...names: string[]) => names.filter(Boolean).join(" ");
