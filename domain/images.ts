/**
 * Names and URLs of processed place photos (docs/product.md sections 5, 7 and 9). Pure and browser-safe:
 * the server's pipeline, the /place-images route and the page components all build and parse
 * file names here, so they can never disagree about the layout.
 *
 * Every photo of a place is stored as `place-images/{placeId}/w{width}n{index}.{format}` for each
 * width and format, and served at the same path under the site root.
 */

export const IMAGE_WIDTHS = [320, 640, 960, 1280] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** Preferred first: the order of the `<source>` elements. */
export const IMAGE_FORMATS = ["avif", "webp", "jpg"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const IMAGE_CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
};

/** The widest file; originals are never served (docs/product.md section 9: image cap 1280 px). */
export const MAX_IMAGE_WIDTH = 1280;
/** Photo numbers have at most three digits in a file name (`n1` to `n999`). */
export const MAX_PHOTO_INDEX = 999;
/** The folder under the storage root (and the URL path) that holds the processed photos. */
export const PLACE_IMAGES_FOLDER = "place-images";

export interface ImageRef {
  placeId: string;
  /** 1-based photo number. */
  index: number;
}

export interface ImageFileName {
  width: ImageWidth;
  index: number;
  format: ImageFormat;
}

const PLACE_ID = /^[A-Za-z0-9_-]{1,128}$/;
const FILE_NAME = /^w(320|640|960|1280)n([1-9]\d{0,2})\.(avif|webp|jpg)$/;
const LEGACY_DEMO_FILE = /^([1-9]\d?)\.svg$/;

export function isValidPlaceId(placeId: string): boolean {
  return PLACE_ID.test(placeId);
}

export function imageFileName(width: ImageWidth, index: number, format: ImageFormat): string {
  return `w${width}n${index}.${format}`;
}

/** `w640n2.webp` -> its parts; anything else (other widths, n0, n1000, .jpeg) -> undefined. */
export function parseImageFileName(name: string): ImageFileName | undefined {
  const match = FILE_NAME.exec(name);
  if (!match) return undefined;
  return {
    width: Number(match[1]) as ImageWidth,
    index: Number(match[2]),
    format: match[3] as ImageFormat,
  };
}

export function placeImageUrl(placeId: string, index: number, width: ImageWidth, format: ImageFormat): string {
  // Valid place ids are URL-safe already; encoding keeps a bad one from escaping the path.
  return `/${PLACE_IMAGES_FOLDER}/${encodeURIComponent(placeId)}/${imageFileName(width, index, format)}`;
}

/** `url 320w, url 640w, ...` for one photo in one format. */
export function srcSet(placeId: string, index: number, format: ImageFormat): string {
  return IMAGE_WIDTHS.map((width) => `${placeImageUrl(placeId, index, width, format)} ${width}w`).join(", ");
}

/** Thumbnails use the smallest AVIF only (docs/product.md section 5). */
export function thumbnailUrl(placeId: string, index: number): string {
  return placeImageUrl(placeId, index, 320, "avif");
}

/** docs/product.md section 5: "only image files whose names contain avif and w320" are thumbnails. */
export function isThumbnailFile(name: string): boolean {
  return name.includes("avif") && name.includes("w320");
}

/**
 * Which photo a stored `image_urls` entry points at: `/place-images/{placeId}/w{width}n{index}.{ext}`
 * (path or absolute URL, query ignored) or the legacy `/demo-images/{placeId}/{n}.svg`.
 * Anything else (an external URL of another layout, garbage) -> undefined.
 */
export function imageRefFromUrl(url: string): ImageRef | undefined {
  let path = url.trim();
  const cut = path.search(/[?#]/);
  if (cut >= 0) path = path.slice(0, cut);
  try {
    // Object-storage URLs often carry the key percent-encoded (place-images%2F...).
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  // The last three path segments; anything before them (an origin, a bucket path) is allowed so
  // that absolute URLs to another host of the same layout parse too. Splitting instead of an
  // unanchored pattern keeps this linear in the URL's length (docs/operations.md "Limits on input").
  const [folder, placeId = "", name = ""] = path.split("/").slice(-3);
  if (!isValidPlaceId(placeId)) return undefined;
  if (folder === "place-images") {
    const file = parseImageFileName(name);
    return file && { placeId, index: file.index };
  }
  const legacy = folder === "demo-images" ? LEGACY_DEMO_FILE.exec(name) : null;
  return legacy ? { placeId, index: Number(legacy[1]) } : undefined;
}

/** The photos of a location in order, skipping entries that are not ours to resize. */
export function imageRefsFromUrls(urls: readonly string[]): ImageRef[] {
  return urls.map(imageRefFromUrl).filter((ref): ref is ImageRef => ref !== undefined);
}
