import fs from "node:fs/promises";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { MAX_PHOTO_INDEX, isValidPlaceId, placeImageUrl } from "../../domain/images";
import type { Database } from "../db/client";
import { locations } from "../db/schema";
import { ImageRejectedError, MAX_INPUT_BYTES, prepareImage, processImage, type ImageVariant } from "./pipeline";
import { removePhotosAbove, storePhoto } from "./place-photos";
import type { ImageStorage } from "./storage";

/**
 * Bulk ingest of original photos: DIR/{placeId}/{any file names}. Each place's photos are
 * numbered 1..n in file-name order (numeric-aware, so 2.jpg comes before 10.jpg) among the ones
 * that pass validation; broken files are reported and skipped without taking a number. After a
 * place's photos are stored, its image_count and image_urls are set in one statement and stored
 * photos numbered above the new count are removed.
 */

export interface IngestOptions {
  dryRun?: boolean;
  /** Photos processed at once; AVIF encoding keeps a core busy per photo. */
  concurrency?: number;
  /** Called as each place finishes, so a long run shows progress. */
  onPlace?: (place: PlaceReport) => void;
}

export interface SkippedFile {
  /** Relative to DIR, e.g. `ChIJabc/broken.jpg`. */
  path: string;
  reason: string;
}

export interface PlaceReport {
  placeId: string;
  /** "updated" (or would be, in a dry run), "unchanged" (no usable photo), "skipped" (folder). */
  outcome: "updated" | "unchanged" | "skipped";
  /** Why a folder was skipped or left unchanged. */
  note?: string;
  photos: number;
  removedPhotos: number;
  skipped: SkippedFile[];
}

export interface IngestReport {
  dryRun: boolean;
  places: PlaceReport[];
  /** Entries directly in DIR that are not folders. */
  strayFiles: SkippedFile[];
}

const collator = new Intl.Collator("en", { numeric: true });
const LOOKUP_CHUNK = 1000;

export class IngestDirectoryError extends Error {
  override name = "IngestDirectoryError";
}

async function readFolder(dir: string): Promise<{ folders: string[]; files: string[] }> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new IngestDirectoryError(`${dir}: no such directory`);
    if (code === "ENOTDIR") throw new IngestDirectoryError(`${dir}: not a directory`);
    throw error;
  }
  const folders: string[] = [];
  const files: string[] = [];
  // Hidden entries (.DS_Store, editors' swap files) are never photos or places.
  for (const entry of entries.filter((e) => !e.name.startsWith("."))) {
    if (entry.isDirectory()) folders.push(entry.name);
    else files.push(entry.name);
  }
  return { folders: folders.sort(collator.compare), files: files.sort(collator.compare) };
}

/** Fails before any database work when DIR is missing or not a directory. */
export async function assertIngestDirectory(dir: string): Promise<void> {
  await readFolder(dir);
}

/** Runs at most `limit` tasks at once, in the order they were scheduled. */
function createLimiter(limit: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  const next = () => {
    if (active >= limit) return;
    const start = queue.shift();
    if (start) {
      active++;
      start();
    }
  };
  return <T>(task: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => {
        task()
          .then(resolve, reject)
          .finally(() => {
            active--;
            next();
          });
      });
      next();
    });
}

type PhotoResult = { ok: true; variants: ImageVariant[] } | { ok: false; reason: string };

async function existingPlaceIds(db: Database, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    const rows = await db
      .select({ placeId: locations.placeId })
      .from(locations)
      .where(inArray(locations.placeId, ids.slice(i, i + LOOKUP_CHUNK)));
    for (const row of rows) found.add(row.placeId);
  }
  return found;
}

export async function ingestPlaceImages(
  db: Database,
  storage: ImageStorage,
  dir: string,
  options: IngestOptions = {},
): Promise<IngestReport> {
  const dryRun = options.dryRun ?? false;
  const limit = createLimiter(Math.max(1, options.concurrency ?? 2));
  // After a fatal error (a failed write, the database gone) the queued photos are not started.
  let aborted = false;
  const root = await readFolder(dir);
  const report: IngestReport = {
    dryRun,
    places: [],
    strayFiles: root.files.map((name) => ({ path: name, reason: "not a folder named after a place id" })),
  };
  const known = await existingPlaceIds(db, root.folders.filter(isValidPlaceId));

  // Every photo of every place is scheduled up front; the limiter keeps `concurrency` of them
  // running, and places commit in order as their photos come back.
  const places = await Promise.all(
    root.folders.map(async (placeId) => {
      const folder = await readFolder(path.join(dir, placeId));
      const problem = !isValidPlaceId(placeId)
        ? "not a valid place id (letters, digits, _ and -, at most 128)"
        : !known.has(placeId)
          ? "no location with this place id"
          : undefined;
      const nested = folder.folders.map((name) => ({ path: `${placeId}/${name}`, reason: "a folder, not a photo" }));
      if (problem) return { placeId, problem, files: folder.files, nested, results: [] };
      const results = folder.files.map((name, i) => {
        if (i >= MAX_PHOTO_INDEX)
          return Promise.resolve<PhotoResult>({
            ok: false,
            reason: `more than ${MAX_PHOTO_INDEX} photos in the folder`,
          });
        const result = limit(() =>
          aborted
            ? Promise.resolve<PhotoResult>({ ok: false, reason: "aborted" })
            : processFile(path.join(dir, placeId, name), dryRun),
        );
        // Awaited in order below; until then a failure must not count as unhandled.
        result.catch(() => {});
        return result;
      });
      return { placeId, problem, files: folder.files, nested, results };
    }),
  );

  try {
    for (const place of places) {
      const placeReport = await commitPlace(place);
      report.places.push(placeReport);
      options.onPlace?.(placeReport);
    }
  } catch (error) {
    aborted = true;
    throw error;
  }
  return report;

  async function commitPlace(place: (typeof places)[number]): Promise<PlaceReport> {
    const { placeId, problem } = place;
    if (problem) {
      const skipped = place.files.map((name) => ({ path: `${placeId}/${name}`, reason: problem }));
      return {
        placeId,
        outcome: "skipped",
        note: problem,
        photos: 0,
        removedPhotos: 0,
        skipped: [...skipped, ...place.nested],
      };
    }
    const placeReport: PlaceReport = {
      placeId,
      outcome: "unchanged",
      photos: 0,
      removedPhotos: 0,
      skipped: [...place.nested],
    };
    for (const [i, pending] of place.results.entries()) {
      const result = await pending;
      if (!result.ok) {
        placeReport.skipped.push({ path: `${placeId}/${place.files[i]}`, reason: result.reason });
        continue;
      }
      placeReport.photos++;
      if (!dryRun) await storePhoto(storage, placeId, placeReport.photos, result.variants);
    }
    const count = placeReport.photos;
    if (count === 0) {
      // Leave the place as it was: all-broken originals are no reason to drop its current photos.
      placeReport.note = place.files.length === 0 ? "the folder has no photos" : "no usable photo";
      return placeReport;
    }
    placeReport.outcome = "updated";
    if (!dryRun) {
      const imageUrls = Array.from({ length: count }, (_, i) => placeImageUrl(placeId, i + 1, 1280, "jpg"));
      await db.update(locations).set({ imageCount: count, imageUrls }).where(eq(locations.placeId, placeId));
      placeReport.removedPhotos = await removePhotosAbove(storage, placeId, count);
    }
    return placeReport;
  }
}

async function processFile(file: string, dryRun: boolean): Promise<PhotoResult> {
  try {
    const { size } = await fs.stat(file);
    if (size > MAX_INPUT_BYTES) {
      // Checked before reading, so a stray video or disk image is not loaded into memory.
      const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
      return { ok: false, reason: `the file is ${mb(size)}, over the ${mb(MAX_INPUT_BYTES)} limit` };
    }
    const bytes = await fs.readFile(file);
    if (dryRun) {
      await prepareImage(bytes);
      return { ok: true, variants: [] };
    }
    return { ok: true, variants: (await processImage(bytes)).variants };
  } catch (error) {
    if (error instanceof ImageRejectedError) return { ok: false, reason: error.message };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EISDIR" || code === "ENOENT")
      return { ok: false, reason: `cannot read the file (${code})` };
    throw error;
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** One place's lines of the report. */
export function formatPlaceReport(place: PlaceReport, dryRun: boolean): string {
  let head: string;
  if (place.outcome === "skipped") head = `${place.placeId}: skipped, ${place.note}`;
  else if (place.outcome === "unchanged") head = `${place.placeId}: unchanged, ${place.note}`;
  else {
    const removed = place.removedPhotos > 0 ? `, removed ${plural(place.removedPhotos, "older photo")}` : "";
    head = `${place.placeId}: ${plural(place.photos, "photo")} ${dryRun ? "would be stored" : `stored, image_count ${place.photos}`}${removed}`;
  }
  const lines = [head];
  for (const skipped of place.skipped) lines.push(`  skipped ${skipped.path}: ${skipped.reason}`);
  return lines.join("\n");
}

export interface IngestTotals {
  placesUpdated: number;
  photos: number;
  skippedFiles: number;
  skippedFolders: number;
}

export function ingestTotals(report: IngestReport): IngestTotals {
  return {
    placesUpdated: report.places.filter((p) => p.outcome === "updated").length,
    photos: report.places.reduce((sum, p) => sum + p.photos, 0),
    skippedFiles: report.strayFiles.length + report.places.reduce((sum, p) => sum + p.skipped.length, 0),
    skippedFolders: report.places.filter((p) => p.outcome === "skipped").length,
  };
}

/** The closing lines: stray files and totals. */
export function formatIngestSummary(report: IngestReport): string {
  const lines = report.strayFiles.map((file) => `skipped ${file.path}: ${file.reason}`);
  const totals = ingestTotals(report);
  const verb = report.dryRun ? "would be " : "";
  lines.push(
    `${report.dryRun ? "Dry run, nothing was written. " : ""}${plural(totals.placesUpdated, "place")} ${verb}updated, ` +
      `${plural(totals.photos, "photo")} ${report.dryRun ? "valid" : "processed"}, ` +
      `${plural(totals.skippedFiles, "file")} skipped, ${plural(totals.skippedFolders, "folder")} skipped.`,
  );
  return lines.join("\n");
}

/** 0 when everything was used, 2 when any file or folder was skipped (1 is for fatal errors). */
export function ingestExitCode(report: IngestReport): 0 | 2 {
  const totals = ingestTotals(report);
  return totals.skippedFiles === 0 && totals.skippedFolders === 0 ? 0 : 2;
}
