import { and, eq, gte } from "drizzle-orm";
import type { Database } from "../db/client";
import { locations } from "../db/schema";
import { DEMO_ID_PREFIX } from "../locations/demo";
import { renderDemoPhoto } from "../locations/demo-photo";
import { processImage, type ImageVariant } from "./pipeline";
import { storePhoto, type StoredPhoto } from "./place-photos";
import type { ImageStorage } from "./storage";

/**
 * Demo listings' photos are drawn (server/locations/demo-photo.ts) and then put through the real
 * pipeline the first time someone asks for one, and kept in storage from then on. Start-up stays
 * fast (thousands of demo listings, none rendered up front) and the demo serves the same AVIF,
 * WebP and JPEG files as real listings do.
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

// Per storage, so that tests with separate roots never share a render.
const inFlight = new WeakMap<ImageStorage, Map<string, Promise<RenderedDemoPhoto>>>();

/**
 * Draws, processes and stores all twelve files of one demo photo. Concurrent calls for the same
 * photo (a page asks for several widths and formats at once) share one render.
 */
export function renderAndStoreDemoPhoto(
  storage: ImageStorage,
  placeId: string,
  index: number,
): Promise<RenderedDemoPhoto> {
  if (!isDemoPhoto(placeId, index)) return Promise.reject(new Error(`${placeId} #${index} is not a demo photo`));
  let pending = inFlight.get(storage);
  if (!pending) inFlight.set(storage, (pending = new Map()));
  const id = `${placeId}/${index}`;
  const existing = pending.get(id);
  if (existing) return existing;
  const work = (async () => {
    const { variants } = await processImage(Buffer.from(renderDemoPhoto(placeId, index)));
    const stored = await storePhoto(storage, placeId, index, variants);
    return { stored, variants };
  })().finally(() => pending.delete(id));
  pending.set(id, work);
  return work;
}

/**
 * Whether a demo listing with this id exists and has at least `index` photos. Without this check
 * anyone could make the server draw and store photos for endless made-up `demo_` ids.
 */
export async function demoPhotoIsListed(db: Database, placeId: string, index: number): Promise<boolean> {
  if (!isDemoPhoto(placeId, index)) return false;
  const rows = await db
    .select({ placeId: locations.placeId })
    .from(locations)
    .where(and(eq(locations.placeId, placeId), eq(locations.isDemo, true), gte(locations.imageCount, index)))
    .limit(1);
  return rows.length > 0;
}
