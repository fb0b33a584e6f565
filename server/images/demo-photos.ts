import { and, eq, sql } from "drizzle-orm";
import { placeImageUrl } from "../../domain/images";
import type { Database } from "../db/client";
import { locations } from "../db/schema";
import { DEMO_ID_PREFIX } from "../locations/demo";
import { renderDemoPhoto } from "../locations/demo-photo";
import { processImage, type ImageVariant } from "./pipeline";
import { logger } from "../logger";
import { photoKeys, storePhoto, type StoredPhoto } from "./place-photos";
import { RenderQueueFullError, createRenderQueue, type RenderQueue } from "./render-queue";
import type { ImageStorage } from "./storage";

/**
 * Demo listings' photos are drawn (server/locations/demo-photo.ts) and then put through the real
 * pipeline the first time someone asks for one, and kept in storage from then on. Start-up stays
 * fast (thousands of demo listings, none rendered up front) and the demo serves the same AVIF,
 * WebP and JPEG files as real listings do. Drawing them all when the demo data loads instead
 * would cost hours of both cores and 120,000 files for photos mostly never looked at;
 * the renders on request go through one bounded queue (render-queue.ts) instead, which will
 * serve real uploads' processing as well.
 */

/** Demo listings have 2 to 5 photos; a little headroom, but no unbounded numbers. */
export const MAX_DEMO_PHOTO_INDEX = 9;

export function isDemoPhoto(placeId: string, index: number): boolean {
  return placeId.startsWith(DEMO_ID_PREFIX) && Number.isInteger(index) && index >= 1 && index <= MAX_DEMO_PHOTO_INDEX;
}

export interface RenderedDemoPhoto {
  stored: StoredPhoto;
  variants: ImageVariant[];
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

/** Draws one demo photo and encodes its twelve files, in memory. */
export async function drawDemoPhoto(placeId: string, index: number): Promise<ImageVariant[]> {
  return (await processImage(Buffer.from(renderDemoPhoto(placeId, index)))).variants;
}

export interface RenderOptions {
  /** Default: the storage's queue (renderQueueFor). */
  queue?: RenderQueue;
  /** Default: drawDemoPhoto; tests pass a slow or counting one. */
  draw?: (placeId: string, index: number) => Promise<ImageVariant[]>;
}

/**
 * Draws, processes and stores all twelve files of one demo photo, when the render queue gives it
 * a turn. Concurrent calls for the same photo (a page asks for several widths and formats at
 * once) share one render. Rejects with RenderQueueFullError when the queue is full.
 */
export function renderAndStoreDemoPhoto(
  storage: ImageStorage,
  placeId: string,
  index: number,
  { queue = renderQueueFor(storage), draw = drawDemoPhoto }: RenderOptions = {},
): Promise<RenderedDemoPhoto> {
  if (!isDemoPhoto(placeId, index)) return Promise.reject(new Error(`${placeId} #${index} is not a demo photo`));
  return queue.run(`demo:${placeId}/${index}`, async () => {
    const variants = await draw(placeId, index);
    const stored = await storePhoto(storage, placeId, index, variants);
    return { stored, variants };
  });
}

// Per storage: the photos queued or being drawn by warmDemoPhotos, and the end of that queue.
const warming = new WeakMap<ImageStorage, { queued: Set<string>; tail: Promise<void> }>();

/**
 * Draws the listed photos of a demo listing in the background, in the order given, skipping
 * those already stored. A page that is about to ask for them (the facility page, the first result
 * cards) calls this while it renders, so that the browser's image requests join a render already
 * under way or find the files ready, instead of each starting one from nothing. One queue per
 * storage, one photo at a time: page views never occupy more than one core with drawing.
 * Only for photos of listings read from the database (demo and listed); never throws.
 */
export function warmDemoPhotos(storage: ImageStorage, placeId: string, indexes: readonly number[]): void {
  let state = warming.get(storage);
  if (!state) warming.set(storage, (state = { queued: new Set(), tail: Promise.resolve() }));
  const { queued } = state;
  const todo = indexes.filter((i) => isDemoPhoto(placeId, i) && !queued.has(`${placeId}/${i}`));
  if (todo.length === 0) return;
  for (const i of todo) queued.add(`${placeId}/${i}`);
  state.tail = state.tail.then(async () => {
    for (const index of todo) {
      try {
        const stored = await Promise.all(photoKeys(placeId, index).map((key) => storage.exists(key)));
        if (!stored.every(Boolean)) await renderAndStoreDemoPhoto(storage, placeId, index);
      } catch (error) {
        // A full queue is busy with requests already: the page's own image requests will ask again.
        if (!(error instanceof RenderQueueFullError)) {
          logger.warn({ err: error, placeId, index }, "could not pre-render a demo photo");
        }
      } finally {
        queued.delete(`${placeId}/${index}`);
      }
    }
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
