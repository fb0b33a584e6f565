import fs from "node:fs/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import path from "node:path";
import { BLOG_IMAGES_FOLDER } from "../../domain/articles";
import { createLocalStorage } from "../images/local-storage";
import { contentTypeOf } from "../images/s3-storage";
import { assertStoreKey } from "./private-store";
import { PRIVATE_FOLDER } from "./s3-private-store";
import { headObject, putObject, s3Folder, sha1Of } from "./s3";

/**
 * Copies the files the site keeps in DATA_DIR into the S3 bucket, where the S3 drivers look for
 * them (docs/operations.md, "Object storage"): photos and article images under the same keys,
 * claim evidence under `private/`. A file already in the bucket with the same SHA-1 (stored as
 * metadata by every upload) is left alone, so running it again copies only what is new or changed.
 */

export const FILE_AREAS = ["place-images", BLOG_IMAGES_FOLDER, PRIVATE_FOLDER] as const;
export type FileArea = (typeof FILE_AREAS)[number];

export interface AreaReport {
  area: FileArea;
  copied: number;
  /** Already in the bucket with the same content. */
  unchanged: number;
  /** Files that are no storage key (leftover temporary files, say), relative to DATA_DIR. */
  skipped: string[];
}

export interface CopyOptions {
  dataDir: string;
  client: S3Client;
  bucket: string;
  prefix?: string;
  /** Count what would be copied, write nothing. */
  dryRun?: boolean;
  /** Files in flight at once; each is read whole (evidence files are at most 10 MB). */
  concurrency?: number;
}

export async function copyFilesToS3(options: CopyOptions): Promise<AreaReport[]> {
  const { dataDir, client, bucket, prefix = "" } = options;
  const reports: AreaReport[] = [];
  for (const area of FILE_AREAS) {
    const isPrivate = area === PRIVATE_FOLDER;
    const files = isPrivate ? await privateFiles(dataDir) : await imageFiles(dataDir, area);
    const source = isPrivate ? path.join(dataDir, PRIVATE_FOLDER) : dataDir;
    const folder = isPrivate ? s3Folder(client, bucket, prefix, PRIVATE_FOLDER) : s3Folder(client, bucket, prefix);
    const report: AreaReport = { area, copied: 0, unchanged: 0, skipped: files.skipped };
    await eachLimited(files.keys, options.concurrency ?? 4, async (key) => {
      const bytes = await fs.readFile(path.join(source, ...key.split("/")));
      const stored = await headObject(folder, key);
      if (stored?.sha1 === sha1Of(bytes)) {
        report.unchanged++;
        return;
      }
      if (!options.dryRun) await putObject(folder, key, bytes, isPrivate ? undefined : contentTypeOf(key));
      report.copied++;
    });
    reports.push(report);
  }
  return reports;
}

/** Image keys under DATA_DIR/{area}; the local driver lists only valid keys, never temporary files. */
async function imageFiles(dataDir: string, area: FileArea): Promise<{ keys: string[]; skipped: string[] }> {
  return { keys: await createLocalStorage(dataDir).list(area), skipped: [] };
}

/** Private store keys under DATA_DIR/private; anything else there (temporary files) is skipped. */
async function privateFiles(dataDir: string): Promise<{ keys: string[]; skipped: string[] }> {
  const base = path.join(dataDir, PRIVATE_FOLDER);
  let entries: string[];
  try {
    entries = await fs.readdir(base, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { keys: [], skipped: [] };
    throw error;
  }
  const keys: string[] = [];
  const skipped: string[] = [];
  for (const entry of entries.sort()) {
    if (!(await fs.stat(path.join(base, entry))).isFile()) continue;
    const key = entry.split(path.sep).join("/");
    try {
      assertStoreKey(key);
      keys.push(key);
    } catch {
      skipped.push(`${PRIVATE_FOLDER}/${key}`);
    }
  }
  return { keys, skipped };
}

async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function formatAreaReport(report: AreaReport, dryRun: boolean): string {
  const verb = dryRun ? "to copy" : "copied";
  const skipped = report.skipped.length > 0 ? `, ${report.skipped.length} skipped (not a stored file's name)` : "";
  return `${report.area}: ${report.copied} ${verb}, ${report.unchanged} already in the bucket${skipped}`;
}
