import os from "node:os";
import sharp from "sharp";
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_FORMATS,
  IMAGE_WIDTHS,
  MAX_IMAGE_WIDTH,
  type ImageFormat,
  type ImageWidth,
} from "../../domain/images";

/**
 * The photo pipeline: one original in, twelve files out (IMAGE_WIDTHS x AVIF, WebP, JPEG).
 *
 * The original is decoded exactly once: validated, auto-oriented (EXIF), flattened onto white,
 * converted to sRGB and scaled to at most MAX_IMAGE_WIDTH into raw pixels. Every output is
 * encoded from that, so a 40-megapixel original costs one big decode, not twelve. Nothing of the
 * original's metadata (EXIF, GPS, ICC, XMP) reaches the outputs: sharp writes none unless asked.
 *
 * Widths never upscale: when the original is narrower than a width, that width's files are still
 * written (so the file layout is always complete and every srcset entry resolves) but at the
 * original's size. The aspect ratio is the original's; callers get every output's real size.
 */

// libvips threads per image; set once, here, because every image goes through this module.
sharp.concurrency(os.availableParallelism());

export const MAX_INPUT_BYTES = 25 * 1024 * 1024;
export const MAX_INPUT_PIXELS = 40_000_000;
/** sharp's names for the input formats we accept (AVIF is reported as "heif"). */
export const ALLOWED_INPUT_FORMATS = ["jpeg", "png", "webp", "avif", "heif", "gif", "tiff", "svg"] as const;

const ENCODERS: Record<ImageFormat, (image: sharp.Sharp) => sharp.Sharp> = {
  // Low effort: AVIF encoding dominates the time per photo, and effort 2 is ~10x faster than the
  // default for a few percent in size.
  avif: (image) => image.avif({ quality: 50, effort: 2, chromaSubsampling: "4:2:0" }),
  webp: (image) => image.webp({ quality: 75, effort: 4 }),
  jpg: (image) => image.jpeg({ quality: 78, mozjpeg: true, progressive: true }),
};

/** Why an original was refused; callers that word it their own way decide by this, never by the message. */
export type RejectionCode =
  | "empty"
  | "too-large"
  | "not-an-image"
  | "unsupported-format"
  // An iPhone HEIC (HEVC), which this build of sharp cannot decode: an upload form says how to convert it.
  | "heic"
  | "too-many-pixels"
  | "corrupt";

/** An original that cannot become a photo; the message says why, in words an operator can act on. */
export class ImageRejectedError extends Error {
  override name = "ImageRejectedError";
  constructor(
    readonly code: RejectionCode,
    message: string,
  ) {
    super(message);
  }
}

/** A decoded, oriented, sRGB, at most MAX_IMAGE_WIDTH wide original, ready to encode. */
export interface PreparedImage {
  /** The input format as sharp names it. */
  sourceFormat: string;
  /** The original's displayed size (after EXIF rotation; for SVG, its intrinsic size). */
  sourceWidth: number;
  sourceHeight: number;
  pixels: Buffer;
  width: number;
  height: number;
  channels: 3;
}

export interface ImageVariant {
  /** The width slot in the file name (w640...), not necessarily the pixel width. */
  width: ImageWidth;
  format: ImageFormat;
  contentType: string;
  /** The real size of the encoded image, for explicit width/height attributes. */
  outputWidth: number;
  outputHeight: number;
  bytes: Buffer;
}

export interface ProcessedImage {
  sourceFormat: string;
  sourceWidth: number;
  sourceHeight: number;
  /** IMAGE_WIDTHS x IMAGE_FORMATS, in that order. */
  variants: ImageVariant[];
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Validates and decodes an original. Throws ImageRejectedError for anything that is not a usable
 * photo: empty, over 25 MB, not an image, a format outside ALLOWED_INPUT_FORMATS, over 40
 * megapixels, or undecodable (a truncated JPEG passes the header check and fails here).
 */
export async function prepareImage(input: Uint8Array): Promise<PreparedImage> {
  if (input.length === 0) throw new ImageRejectedError("empty", "the file is empty");
  if (input.length > MAX_INPUT_BYTES)
    throw new ImageRejectedError(
      "too-large",
      `the file is ${mib(input.length)}, over the ${mib(MAX_INPUT_BYTES)} limit`,
    );

  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ImageRejectedError("not-an-image", `not a readable image (${sharpMessage(error)})`);
  }
  const format = metadata.format as string | undefined;
  if (!format || !(ALLOWED_INPUT_FORMATS as readonly string[]).includes(format))
    throw new ImageRejectedError(
      "unsupported-format",
      `${format ?? "unknown"} images are not accepted (use ${ALLOWED_INPUT_FORMATS.join(", ")})`,
    );
  // sharp's prebuilt libheif decodes AV1 only; an iPhone HEIC (HEVC) would fail later with a
  // vague decoder message.
  if (format === "heif" && metadata.compression === "hevc")
    throw new ImageRejectedError("heic", "HEIC photos (HEVC) cannot be decoded here; convert them to JPEG");
  const { width, height } = metadata;
  if (!width || !height) throw new ImageRejectedError("not-an-image", "the image has no size");

  // A vector original has no pixels of its own: rasterise it at the largest output width (but
  // within the pixel budget) instead of at its nominal size.
  let density: number | undefined;
  if (format === "svg") {
    const scale = Math.min(MAX_IMAGE_WIDTH / width, Math.sqrt((MAX_INPUT_PIXELS * 0.99) / (width * height)));
    density = Math.min(100_000, Math.max(1, (metadata.density ?? 72) * scale));
  } else if (width * height > MAX_INPUT_PIXELS) {
    const mp = (width * height) / 1e6;
    throw new ImageRejectedError(
      "too-many-pixels",
      `${width}x${height} is ${mp.toFixed(1)} megapixels, over the ${MAX_INPUT_PIXELS / 1e6} megapixel limit`,
    );
  }

  const decode = () =>
    sharp(input, {
      // "error" rejects truncated and corrupt data but tolerates the harmless warnings that many
      // camera files produce ("extraneous bytes before marker").
      failOn: "error",
      limitInputPixels: MAX_INPUT_PIXELS,
      ...(density ? { density } : {}),
    })
      .autoOrient()
      .resize({ width: MAX_IMAGE_WIDTH, withoutEnlargement: true })
      // Photos do not need transparency, and JPEG cannot carry it: one white background for all.
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
  try {
    const { data, info } = await decode().catch((error: unknown) => {
      // libvips keeps one error buffer per process; with several images in flight the message
      // sometimes goes missing ("Unknown error"). A second try almost always says what is wrong.
      if (sharpMessage(error) !== "Unknown error") throw error;
      return decode().catch((again: unknown) => {
        throw sharpMessage(again) === "Unknown error" ? error : again;
      });
    });
    if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels after flattening`);
    const rotated = (metadata.orientation ?? 1) >= 5;
    return {
      sourceFormat: format,
      sourceWidth: rotated ? height : width,
      sourceHeight: rotated ? width : height,
      pixels: data,
      width: info.width,
      height: info.height,
      channels: 3,
    };
  } catch (error) {
    throw new ImageRejectedError("corrupt", `the image data is damaged or incomplete (${sharpMessage(error)})`);
  }
}

interface ScaledImage {
  data: Buffer;
  raw: { width: number; height: number; channels: 3 };
}

/** A prepared image scaled to a width slot (never up: a narrower original stays its size). */
async function scaleTo(prepared: PreparedImage, width: ImageWidth): Promise<ScaledImage> {
  const raw = { width: prepared.width, height: prepared.height, channels: prepared.channels };
  const { data, info } = await sharp(prepared.pixels, { raw })
    .resize({ width: Math.min(width, prepared.width) })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, raw: { width: info.width, height: info.height, channels: 3 } };
}

async function encode(scaled: ScaledImage, width: ImageWidth, format: ImageFormat): Promise<ImageVariant> {
  const { data, info } = await ENCODERS[format](sharp(scaled.data, { raw: scaled.raw })).toBuffer({
    resolveWithObject: true,
  });
  return {
    width,
    format,
    contentType: IMAGE_CONTENT_TYPES[format],
    outputWidth: info.width,
    outputHeight: info.height,
    bytes: data,
  };
}

/** Encodes a prepared image into every width and format. */
export async function renderVariants(prepared: PreparedImage): Promise<ImageVariant[]> {
  const perWidth = await Promise.all(
    IMAGE_WIDTHS.map(async (width) => {
      // Resize once per width; the three encoders then start from the same scaled pixels.
      const scaled = await scaleTo(prepared, width);
      return Promise.all(IMAGE_FORMATS.map((format) => encode(scaled, width, format)));
    }),
  );
  return perWidth.flat();
}

/**
 * Encodes a prepared image at one width and format: the same file renderVariants makes for that
 * slot, for a caller that needs only one (a demo photo drawn on request, server/images/demo-photos.ts).
 */
export async function renderVariant(
  prepared: PreparedImage,
  width: ImageWidth,
  format: ImageFormat,
): Promise<ImageVariant> {
  return encode(await scaleTo(prepared, width), width, format);
}

/** prepareImage then renderVariants: the twelve files of one photo, in memory. */
export async function processImage(input: Uint8Array): Promise<ProcessedImage> {
  const prepared = await prepareImage(input);
  const variants = await renderVariants(prepared);
  return {
    sourceFormat: prepared.sourceFormat,
    sourceWidth: prepared.sourceWidth,
    sourceHeight: prepared.sourceHeight,
    variants,
  };
}

function sharpMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // libvips messages can run to several lines; the first says what went wrong.
  return message.split("\n")[0]?.trim() || "unknown error";
}
