import { preload } from "react-dom";
import { blogImageUrl } from "../../../domain/articles";

const WIDTHS = [320, 640, 960, 1280] as const;
const srcSetOf = (imageId: string, format: "avif" | "webp" | "jpg") =>
  WIDTHS.map((w) => `${blogImageUrl(imageId, w, format)} ${w}w`).join(", ");

/**
 * An article's cover from the photo pipeline (docs/product.md section 13): AVIF, then WebP, then
 * JPEG at 320-1280 px, in a box of the image's own aspect ratio so nothing moves as it loads.
 */
export function ArticleCover({
  imageId,
  alt,
  width,
  height,
  sizes,
  priority = false,
  className = "",
}: {
  imageId: string;
  alt: string;
  width: number;
  height: number;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  if (priority)
    preload(blogImageUrl(imageId, 640, "avif"), {
      as: "image",
      type: "image/avif",
      imageSrcSet: srcSetOf(imageId, "avif"),
      imageSizes: sizes,
      fetchPriority: "high",
    });
  return (
    <picture className="contents">
      <source type="image/avif" srcSet={srcSetOf(imageId, "avif")} sizes={sizes} />
      <source type="image/webp" srcSet={srcSetOf(imageId, "webp")} sizes={sizes} />
      <img
        src={blogImageUrl(imageId, 640, "jpg")}
        srcSet={srcSetOf(imageId, "jpg")}
        sizes={sizes}
        alt={alt}
        width={width}
        height={height}
        loading={priority ? "eager" : "lazy"}
        decoding="async"
        fetchPriority={priority ? "high" : undefined}
        className={`block h-auto w-full bg-slate-100 object-cover ${className}`}
      />
    </picture>
  );
}
