import { IMAGE_CONTENT_TYPES, isValidPlaceId, parseImageFileName } from "../../domain/images";
import { logger } from "../logger";
import { isDemoPhoto, renderAndStoreDemoPhoto, type PhotoFile } from "./demo-photos";
import type { ImageVariant } from "./pipeline";
import { RenderQueueFullError, type RenderQueue } from "./render-queue";
import { placeImageKey } from "./place-photos";
import { etagOf, type ImageStorage, type StoredObject } from "./storage";

/**
 * GET/HEAD /place-images/{placeId}/{file}: a stored photo file, or a demo photo's file drawn on its
 * first request. Responses are cached as immutable: a file name changes content only when a place is
 * re-ingested, which is rare, and browsers keeping the older photo for a while is acceptable.
 */

export interface ServePlaceImageOptions {
  storage: ImageStorage;
  /**
   * Whether a missing demo photo may be drawn now. The route checks the database, so unknown
   * `demo_` ids cannot fill the disk; without this option no demo photo is drawn.
   */
  demoPhotoIsListed?: (placeId: string, index: number) => Promise<boolean>;
  /** The queue demo photos are drawn through; default the storage's (server/images/render-queue.ts). */
  renderQueue?: RenderQueue;
  /** Draws one file of a demo photo; default the real drawing (tests pass a counting one). */
  drawDemoPhoto?: (placeId: string, index: number, file: PhotoFile) => Promise<ImageVariant>;
}

const IMMUTABLE = "public, max-age=31536000, immutable";

function textResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  // Not cached: a photo that is missing now may be ingested later, or drawn once the queue is free.
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

export async function servePlaceImage(
  request: Request,
  params: { placeId?: string | undefined; file?: string | undefined },
  options: ServePlaceImageOptions,
): Promise<Response> {
  const placeId = params.placeId ?? "";
  const file = parseImageFileName(params.file ?? "");
  if (!isValidPlaceId(placeId) || !file) return textResponse(404, "Unknown image");

  const key = placeImageKey(placeId, file.index, file.width, file.format);
  let object: StoredObject | undefined = await options.storage.get(key);

  if (!object && isDemoPhoto(placeId, file.index) && (await options.demoPhotoIsListed?.(placeId, file.index))) {
    try {
      const { bytes } = await renderAndStoreDemoPhoto(options.storage, placeId, file.index, file, {
        queue: options.renderQueue,
        draw: options.drawDemoPhoto,
      });
      object = { bytes, etag: etagOf(bytes), lastModified: new Date() };
    } catch (error) {
      if (error instanceof RenderQueueFullError) {
        return textResponse(503, error.message, { "Retry-After": String(error.retryAfterSeconds) });
      }
      logger.error({ err: error, placeId, index: file.index }, "could not render a demo photo");
      return textResponse(500, "The image could not be generated");
    }
  }
  if (!object) return textResponse(404, "Image not found");
  return storedImageResponse(request, object, IMAGE_CONTENT_TYPES[file.format]);
}

/** A stored image file as an immutable response, answering 304 to a matching `If-None-Match`. */
export function storedImageResponse(request: Request, object: StoredObject, contentType: string): Response {
  const headers = new Headers({
    "Content-Type": contentType,
    "Cache-Control": IMMUTABLE,
    ETag: object.etag,
    "Last-Modified": object.lastModified.toUTCString(),
  });
  if (matchesEtag(request.headers.get("If-None-Match"), object.etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Length", String(object.bytes.length));
  return new Response(request.method === "HEAD" ? null : new Uint8Array(object.bytes), { headers });
}

/** RFC 9110 weak comparison: `*`, or any listed tag equal ignoring a W/ prefix. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
