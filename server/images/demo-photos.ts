import { and, eq, sql } from "drizzle-orm";
import { placeImageUrl, type ImageFormat, type ImageWidth } from "../../domain/images";
import type { Database } from "../db/client";
import { locations } from "../db/schema";
import { DEMO_ID_PREFIX } from "../locations/demo";
import { renderDemoPhoto } from "../locations/demo-photo";
import { prepareImage, renderVariant, type ImageVariant } from "./pipeline";
import { placeImageKey } from "./place-photos";
import { createRenderQueue, type RenderQueue } from "./render-queue";
import type { ImageStorage } from "./storage";

/**
 * Demo listings' photos are drawn (server/locations/demo-photo.ts) and put through the real
 * pipeline one file at a time: the first request for a file (say `w640n2.avif`) draws the photo
 * and encodes that width and format alone, and storage keeps it from then on. A browser asks for
 * one or two of a photo's twelve files, so drawing all twelve for it cost ten times the work (about
 * 1 s of both cores against 0.1 s of one) and made the visitor wait for all of them. Start-up stays
 * fast (thousands of demo listings, none rendered up front) and the demo serves the same AVIF,
 * WebP and JPEG files as real listings do. The renders go through one bounded queue
 * (render-queue.ts), which serves real uploads' processing as well.
 */

/** Demo listings have 2 to 5 photos; a little headroom, but no unbounded numbers. */
export const MAX_DEMO_PHOTO_INDEX = 9;

export function isDemoPhoto(placeId: string, index: number): boolean {
  return placeId.startsWith(DEMO_ID_PREFIX) && Number.isInteger(index) && index >= 1 && index <= MAX_DEMO_PHOTO_INDEX;
}

/** One file of a photo: a width slot and a format. */
export interface PhotoFile {
  width: ImageWidth;
  format: ImageFormat;
}

// One queue per storage: in production one for the process; tests with separate roots never
// share a render or a turn.
const queues = new WeakMap<ImageStorage, RenderQueue>();

/** The render queue of a storage (created on first use). */
export function renderQueueFor(storage: ImageStorage): RenderQueue {
  let queue = queues.get(storage);
  if (!queue) queues.set(storage, (queue = createRenderQueue()));
  return queue;
}

/** Draws one demo photo and encodes one of its files, in memory. */
export async function drawDemoPhoto(placeId: string, index: number, file: PhotoFile): Promise<ImageVariant> {
  const prepared = await prepareImage(Buffer.from(renderDemoPhoto(placeId, index)));
  return renderVariant(prepared, file.width, file.format);
}

export interface RenderOptions {
  /** Default: the storage's queue (renderQueueFor). */
  queue?: RenderQueue;
  /** Default: drawDemoPhoto; tests pass a slow or counting one. */
  draw?: (placeId: string, index: number, file: PhotoFile) => Promise<ImageVariant>;
}

/**
 * Draws, encodes and stores one file of a demo photo, when the render queue gives it a turn.
 * Concurrent calls for the same file share one render. Rejects with RenderQueueFullError when the
 * queue is full.
 */
export function renderAndStoreDemoPhoto(
  storage: ImageStorage,
  placeId: string,
  index: number,
  file: PhotoFile,
  { queue = renderQueueFor(storage), draw = drawDemoPhoto }: RenderOptions = {},
): Promise<ImageVariant> {
  if (!isDemoPhoto(placeId, index)) return Promise.reject(new Error(`${placeId} #${index} is not a demo photo`));
  const key = placeImageKey(placeId, index, file.width, file.format);
  return queue.run(`demo:${key}`, async () => {
    const variant = await draw(placeId, index, file);
    await storage.put(key, variant.bytes);
    return variant;
  });
}

/**
 * Whether a demo listing with this id exists and still lists photo `index` (its owner may have
 * reordered or deleted photos, docs/product.md section 10 "Photos"). Without this check anyone
 * could make the server draw and store photos for endless made-up `demo_` ids.
 */
export async function demoPhotoIsListed(db: Database, placeId: string, index: number): Promise<boolean> {
  if (!isDemoPhoto(placeId, index)) return false;
  const rows = await db
    .select({ placeId: locations.placeId })
    .from(locations)
    .where(
      and(
        eq(locations.placeId, placeId),
        eq(locations.isDemo, true),
        sql`${locations.imageUrls} @> ${JSON.stringify([placeImageUrl(placeId, index, 1280, "jpg")])}::jsonb`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}
