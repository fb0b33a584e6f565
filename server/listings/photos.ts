import { randomUUID } from "node:crypto";
import { and, eq, inArray, lte } from "drizzle-orm";
import {
  imageRefFromUrl,
  parseImageFileName,
  placeImageUrl,
  MAX_PHOTO_INDEX,
  PLACE_IMAGES_FOLDER,
} from "../../domain/images";
import {
  PHOTO_MAX_BYTES,
  PHOTO_MAX_COUNT,
  PHOTO_MIME_TYPES,
  PHOTO_RESTORE_DAYS,
  PHOTO_TEXT,
} from "../../domain/listing-photos";
import { resolveStaleness } from "../catalogue/problems";
import { recordAudit } from "../audit/record";
import type { Database } from "../db/client";
import { deletedListingPhotos, locations } from "../db/schema";
import { sniff } from "../files/sniff";
import { MAX_DEMO_PHOTO_INDEX, isDemoPhoto, renderQueueFor } from "../images/demo-photos";
import { RenderQueueFullError } from "../images/render-queue";
import { ImageRejectedError, processImage, type ImageVariant } from "../images/pipeline";
import { photoKeys, placeFolderKey, storePhoto } from "../images/place-photos";
import type { ImageStorage } from "../images/storage";
import { logger } from "../logger";
import { notifyLocationsChanged } from "../search";
import { conflict, lockListing, requireManager, tx } from "./edit";
import { recordRevision } from "./revisions";
import type { Actor } from "../auth/actor";

/**
 * A listing's photos (docs/product.md section 10 "Photos", ADR 015): `locations.image_urls` in
 * order, the first being the main photo. Adding runs each file through the photo pipeline and
 * stores it under a number never used before for this listing (files are served immutable);
 * reordering permutes the list; deleting removes an entry but keeps its files for
 * PHOTO_RESTORE_DAYS, so it can be restored, after which a daily job removes them.
 * Every change locks the listing row, checks the manager, bumps `version`, writes a revision and
 * an audit row, and refreshes search (notifyLocationsChanged) so cards change at once.
 */

export interface PhotoFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * A photo still on disk (an upload, server/http/upload.ts): its size is known at once, its bytes
 * are read only when its turn comes, so adding ten photos holds one in memory at a time.
 */
export interface PhotoUpload {
  name: string;
  size: number;
  read(): Promise<Uint8Array>;
}

export interface PhotoRejection {
  name: string;
  message: string;
}

export interface AddPhotosResult {
  added: string[];
  rejected: PhotoRejection[];
  imageUrls: string[];
}

/** The revision and audit rows of a photo change name this pseudo-field. */
export const PHOTOS_FIELD = "photos";

/** A file's problem in the owner's words, or null when it may go to the pipeline. */
export async function photoFileProblem(file: PhotoFile): Promise<string | null> {
  if (file.bytes.length > PHOTO_MAX_BYTES) return PHOTO_TEXT.tooLarge(file.name, file.bytes.length);
  const found = await sniff(file.bytes);
  if (found.mime === "image/heic" || found.mime === "image/heif") return PHOTO_TEXT.heic(file.name);
  if (found.mime?.startsWith("image/") && !(PHOTO_MIME_TYPES as readonly string[]).includes(found.mime))
    return PHOTO_TEXT.wrongFormat(file.name, found.description);
  if (!found.mime || !(PHOTO_MIME_TYPES as readonly string[]).includes(found.mime))
    return PHOTO_TEXT.notImage(file.name, found.description);
  return null;
}

/** The number for the next new photo: above every number in use, stored, or ever given out. */
async function nextPhotoIndex(storage: ImageStorage, row: typeof locations.$inferSelect): Promise<number> {
  // Numbers a demo listing draws on request (server/images/demo-photos.ts) stay theirs.
  let highest = Math.max(row.photoSeq, isDemoPhoto(row.placeId, 1) ? MAX_DEMO_PHOTO_INDEX : 0);
  for (const url of row.imageUrls) {
    const ref = imageRefFromUrl(url);
    if (ref && ref.placeId === row.placeId) highest = Math.max(highest, ref.index);
  }
  const folder = placeFolderKey(row.placeId);
  for (const key of await storage.list(folder)) {
    const parsed = parseImageFileName(key.slice(folder.length + 1));
    if (parsed) highest = Math.max(highest, parsed.index);
  }
  return highest + 1;
}

async function photoChanged(
  db: Database,
  row: typeof locations.$inferSelect,
  change: {
    actor: Actor;
    action: string;
    imageUrls: string[];
    photoSeq?: number;
    requestId?: string | null;
    now: Date;
  },
): Promise<number> {
  const version = row.version + 1;
  await db
    .update(locations)
    .set({
      imageUrls: change.imageUrls,
      imageCount: change.imageUrls.length,
      ...(change.photoSeq === undefined ? {} : { photoSeq: change.photoSeq }),
      version,
      updatedAt: change.now,
    })
    .where(eq(locations.placeId, row.placeId));
  await resolveStaleness(db, { locationId: row.placeId, actor: change.actor, now: change.now });
  const before = { [PHOTOS_FIELD]: row.imageUrls };
  const after = { [PHOTOS_FIELD]: change.imageUrls };
  await recordRevision(db, {
    locationId: row.placeId,
    kind: "published",
    actor: change.actor,
    fields: [PHOTOS_FIELD],
    before,
    after,
    requestId: change.requestId,
  });
  await recordAudit(db, {
    actor: change.actor,
    action: change.action,
    subject: { type: "listing", id: row.placeId },
    before,
    after,
    requestId: change.requestId,
  });
  return version;
}

export interface AddPhotosRequest {
  actor: Actor;
  locationId: string;
  files: (PhotoFile | PhotoUpload)[];
  requestId?: string | null;
  now?: Date;
}

/**
 * Adds photos at the end of the list. Each file is checked and processed on its own: a bad file
 * is named in `rejected` and the good ones are still added. Files past the 30-photo cap (counted
 * inside the locked transaction, so two uploads at once cannot pass it) are rejected too.
 */
export async function addListingPhotos(
  db: Database,
  storage: ImageStorage,
  request: AddPhotosRequest,
): Promise<AddPhotosResult> {
  const { actor, locationId, requestId } = request;
  const now = request.now ?? new Date();
  // Strangers are refused before any CPU is spent on their files.
  await requireManager(db, actor, locationId);
  const rejected: PhotoRejection[] = [];
  const ready: { name: string; variants: ImageVariant[] }[] = [];
  for (const source of request.files) {
    // A file on disk that is too large is named without being read.
    if ("read" in source && source.size > PHOTO_MAX_BYTES) {
      rejected.push({ name: source.name, message: PHOTO_TEXT.tooLarge(source.name, source.size) });
      continue;
    }
    const file = "read" in source ? { name: source.name, bytes: await source.read() } : source;
    const problem = await photoFileProblem(file);
    if (problem) {
      rejected.push({ name: file.name, message: problem });
      continue;
    }
    try {
      // The one render queue of this storage (docs/operations.md "Photos drawn on request"):
      // uploads and demo drawings never run more encodes at once than the cores can take.
      const processed = await renderQueueFor(storage).run(`upload:${randomUUID()}`, () => processImage(file.bytes));
      ready.push({ name: file.name, variants: processed.variants });
    } catch (error) {
      if (error instanceof RenderQueueFullError) {
        rejected.push({ name: file.name, message: PHOTO_TEXT.busy(file.name) });
        continue;
      }
      if (!(error instanceof ImageRejectedError)) throw error;
      const message =
        error.code === "heic" ? PHOTO_TEXT.heic(file.name) : PHOTO_TEXT.unreadable(file.name, error.message);
      rejected.push({ name: file.name, message });
    }
  }
  const written: number[] = [];
  let outcome: { added: string[]; imageUrls: string[] };
  try {
    outcome = await db.transaction(async (t) => {
      const db = tx(t);
      const row = await lockListing(db, locationId);
      await requireManager(db, actor, locationId);
      const room = Math.max(0, PHOTO_MAX_COUNT - row.imageUrls.length);
      for (const extra of ready.splice(room))
        rejected.push({ name: extra.name, message: PHOTO_TEXT.limit(extra.name) });
      if (ready.length === 0) return { added: [], imageUrls: row.imageUrls };
      let index = await nextPhotoIndex(storage, row);
      const added: string[] = [];
      for (const photo of ready) {
        if (index > MAX_PHOTO_INDEX) {
          rejected.push({ name: photo.name, message: PHOTO_TEXT.limit(photo.name) });
          continue;
        }
        written.push(index);
        await storePhoto(storage, locationId, index, photo.variants);
        added.push(placeImageUrl(locationId, index, 1280, "jpg"));
        index += 1;
      }
      if (added.length === 0) return { added, imageUrls: row.imageUrls };
      const imageUrls = [...row.imageUrls, ...added];
      await photoChanged(db, row, {
        actor,
        action: "listing.photos.add",
        imageUrls,
        photoSeq: index - 1,
        requestId,
        now,
      });
      return { added, imageUrls };
    });
  } catch (error) {
    // Nothing was committed: files already written would be orphans under numbers never listed.
    await removeFiles(storage, locationId, written);
    throw error;
  }
  if (outcome.added.length > 0) {
    logger.info({ locationId, by: actor.userId, added: outcome.added.length }, "listing photos added");
    await notifyLocationsChanged(db);
  }
  return { ...outcome, rejected };
}

async function removeFiles(storage: ImageStorage, placeId: string, indexes: readonly number[]): Promise<void> {
  await Promise.allSettled(indexes.flatMap((i) => photoKeys(placeId, i)).map((key) => storage.remove(key)));
}

export interface ReorderPhotosRequest {
  actor: Actor;
  locationId: string;
  /** Every current photo URL, in the new order. */
  order: string[];
  requestId?: string | null;
  now?: Date;
}

/**
 * Puts the photos in the given order (the first becomes the main photo). The order must hold
 * exactly the current photos; anything else means the page was stale: 409, nothing changed.
 */
export async function reorderListingPhotos(db: Database, request: ReorderPhotosRequest): Promise<string[]> {
  const { actor, locationId, order, requestId } = request;
  const result = await db.transaction(async (t) => {
    const db = tx(t);
    const row = await lockListing(db, locationId);
    await requireManager(db, actor, locationId);
    const current = row.imageUrls;
    const sameSet =
      order.length === current.length &&
      new Set(order).size === order.length &&
      order.every((u) => current.includes(u));
    if (!sameSet) throw conflict(PHOTO_TEXT.changed);
    if (order.every((url, i) => url === current[i])) return { imageUrls: current, changed: false };
    await photoChanged(db, row, {
      actor,
      action: "listing.photos.reorder",
      imageUrls: order,
      requestId,
      now: request.now ?? new Date(),
    });
    return { imageUrls: order, changed: true };
  });
  if (result.changed) await notifyLocationsChanged(db);
  return result.imageUrls;
}

export interface DeletePhotoRequest {
  actor: Actor;
  locationId: string;
  url: string;
  requestId?: string | null;
  now?: Date;
}

/**
 * Removes one photo from the list. Its files stay, and the photo is listed as recently deleted
 * for PHOTO_RESTORE_DAYS so the owner can put it back (restoreListingPhoto); the daily job
 * purgeDeletedPhotos removes the files after that.
 */
export async function deleteListingPhoto(db: Database, request: DeletePhotoRequest): Promise<string[]> {
  const { actor, locationId, url, requestId } = request;
  const now = request.now ?? new Date();
  const imageUrls = await db.transaction(async (t) => {
    const db = tx(t);
    const row = await lockListing(db, locationId);
    await requireManager(db, actor, locationId);
    if (!row.imageUrls.includes(url)) throw conflict(PHOTO_TEXT.gone);
    const imageUrls = row.imageUrls.filter((u) => u !== url);
    const ref = imageRefFromUrl(url);
    await photoChanged(db, row, {
      actor,
      action: "listing.photos.delete",
      imageUrls,
      // Keep the deleted number out of reach of the next upload.
      photoSeq: ref && ref.placeId === locationId ? Math.max(row.photoSeq, ref.index) : undefined,
      requestId,
      now,
    });
    await db
      .insert(deletedListingPhotos)
      .values({ locationId, url, deletedAt: now, deletedBy: actor.userId })
      .onConflictDoUpdate({
        target: [deletedListingPhotos.locationId, deletedListingPhotos.url],
        set: { deletedAt: now, deletedBy: actor.userId },
      });
    return imageUrls;
  });
  await notifyLocationsChanged(db);
  return imageUrls;
}

const restoreCutoff = (now: Date) => new Date(now.getTime() - PHOTO_RESTORE_DAYS * 24 * 60 * 60 * 1000);

/** The photos of a listing deleted in the last PHOTO_RESTORE_DAYS, newest first. */
export async function recentlyDeletedPhotos(db: Database, locationId: string, now = new Date()) {
  const rows = await db
    .select({ url: deletedListingPhotos.url, deletedAt: deletedListingPhotos.deletedAt })
    .from(deletedListingPhotos)
    .where(eq(deletedListingPhotos.locationId, locationId));
  const cutoff = restoreCutoff(now);
  return rows.filter((r) => r.deletedAt > cutoff).sort((a, b) => b.deletedAt.getTime() - a.deletedAt.getTime());
}

/** Puts a recently deleted photo back, at the end of the list (the owner can then move it). */
export async function restoreListingPhoto(db: Database, request: DeletePhotoRequest): Promise<string[]> {
  const { actor, locationId, url, requestId } = request;
  const now = request.now ?? new Date();
  const imageUrls = await db.transaction(async (t) => {
    const db = tx(t);
    const row = await lockListing(db, locationId);
    await requireManager(db, actor, locationId);
    const [deleted] = await db
      .delete(deletedListingPhotos)
      .where(and(eq(deletedListingPhotos.locationId, locationId), eq(deletedListingPhotos.url, url)))
      .returning();
    if (row.imageUrls.includes(url)) return row.imageUrls;
    if (!deleted || deleted.deletedAt <= restoreCutoff(now)) throw conflict(PHOTO_TEXT.notRestorable);
    if (row.imageUrls.length >= PHOTO_MAX_COUNT) throw conflict(PHOTO_TEXT.restoreLimit);
    const imageUrls = [...row.imageUrls, url];
    await photoChanged(db, row, { actor, action: "listing.photos.restore", imageUrls, requestId, now });
    return imageUrls;
  });
  await notifyLocationsChanged(db);
  return imageUrls;
}

/** Unlisted files younger than this may belong to an upload or an images:ingest still running. */
export const ORPHAN_PHOTO_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * The photo numbers stored under `folder` (all of place-images, or one listing's) that their
 * listing neither lists nor keeps for restoring, by listing, with one key of each; numbers a demo
 * listing draws on request and folders of listings that do not exist are left out.
 */
async function unlistedPhotos(db: Database, storage: ImageStorage, folder: string) {
  const stored = new Map<string, Map<number, string>>();
  for (const key of await storage.list(folder)) {
    const [, placeId = "", name = "", extra] = key.split("/");
    const parsed = extra === undefined ? parseImageFileName(name) : undefined;
    if (!parsed || isDemoPhoto(placeId, parsed.index)) continue;
    let numbers = stored.get(placeId);
    if (!numbers) stored.set(placeId, (numbers = new Map()));
    if (!numbers.has(parsed.index)) numbers.set(parsed.index, key);
  }
  const ids = [...stored.keys()];
  const unlisted = new Map<string, Map<number, string>>();
  for (let i = 0; i < ids.length; i += 5000) {
    const chunk = ids.slice(i, i + 5000);
    const rows = await db
      .select({ placeId: locations.placeId, imageUrls: locations.imageUrls })
      .from(locations)
      .where(inArray(locations.placeId, chunk));
    const deleted = await db
      .select({ locationId: deletedListingPhotos.locationId, url: deletedListingPhotos.url })
      .from(deletedListingPhotos)
      .where(inArray(deletedListingPhotos.locationId, chunk));
    for (const row of rows) {
      const numbers = new Map(stored.get(row.placeId));
      const urls = [...row.imageUrls, ...deleted.filter((d) => d.locationId === row.placeId).map((d) => d.url)];
      for (const url of urls) {
        const ref = imageRefFromUrl(url);
        if (ref?.placeId === row.placeId) numbers.delete(ref.index);
      }
      if (numbers.size > 0) unlisted.set(row.placeId, numbers);
    }
  }
  return unlisted;
}

/**
 * Removes the files of photos no listing lists or keeps for restoring: what an upload stopped
 * between writing its files and its commit (a crash, docs/operations.md "Crashes") or a purge
 * stopped before its removals leaves behind. Each listing is checked again holding its row lock,
 * which an upload holds while it writes, and only files older than ORPHAN_PHOTO_MIN_AGE_MS go.
 * Returns how many photos (twelve files each) were removed.
 */
async function removeOrphanPhotos(db: Database, storage: ImageStorage, now: Date): Promise<number> {
  let removed = 0;
  for (const placeId of (await unlistedPhotos(db, storage, PLACE_IMAGES_FOLDER)).keys()) {
    removed += await db.transaction(async (t) => {
      const db = tx(t);
      await db.select({ id: locations.placeId }).from(locations).where(eq(locations.placeId, placeId)).for("update");
      const numbers = (await unlistedPhotos(db, storage, placeFolderKey(placeId))).get(placeId) ?? new Map();
      const old: number[] = [];
      for (const [index, key] of numbers) {
        const file = await storage.get(key);
        if (file && now.getTime() - file.lastModified.getTime() >= ORPHAN_PHOTO_MIN_AGE_MS) old.push(index);
      }
      await removeFiles(storage, placeId, old);
      return old.length;
    });
  }
  return removed;
}

/**
 * The daily job: forgets photos deleted more than PHOTO_RESTORE_DAYS ago and removes their files
 * (after the commit, unless the listing uses the same photo number again), then removes orphaned
 * files (removeOrphanPhotos). Returns how many of each.
 */
export async function purgeDeletedPhotos(db: Database, storage: ImageStorage, now = new Date()) {
  const gone = await db
    .delete(deletedListingPhotos)
    .where(lte(deletedListingPhotos.deletedAt, restoreCutoff(now)))
    .returning();
  for (const { locationId, url } of gone) {
    const ref = imageRefFromUrl(url);
    if (!ref || ref.placeId !== locationId) continue;
    const [row] = await db
      .select({ imageUrls: locations.imageUrls })
      .from(locations)
      .where(eq(locations.placeId, locationId));
    if (row?.imageUrls.some((u) => imageRefFromUrl(u)?.index === ref.index)) continue;
    await removeFiles(storage, locationId, [ref.index]);
  }
  return { purged: gone.length, orphans: await removeOrphanPhotos(db, storage, now) };
}
