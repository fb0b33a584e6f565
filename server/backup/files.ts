import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { BLOG_IMAGES_FOLDER } from "../../domain/articles";
import { PLACE_IMAGES_FOLDER } from "../../domain/images";
import type { Config } from "../config";
import { privateStoreFor } from "../files";
import { assertStoreKey, type PrivateStore } from "../files/private-store";
import { imageStorageFor } from "../images";
import type { ImageStorage } from "../images/storage";
import type { ManifestEntry, StoreName } from "./format";

/**
 * The file stores a backup lists and a restore checks (docs/operations.md, Backups). The backup
 * holds no file contents: the manifest says which files the database went with, so that a restore
 * can tell which of them the current store lacks.
 */
export interface FileStores {
  images: ImageStorage;
  private: PrivateStore;
  /**
   * DATA_DIR/private when the private store is the local one. The PrivateStore interface has no
   * list, so its keys come from walking this folder; when null (an object store), from the
   * storage_key, size_bytes and sha256 that claim_evidence records for every file.
   */
  privateDir: string | null;
}

/** The folders of ImageStorage that hold anything (listing photos and their variants, article images). */
export const IMAGE_FOLDERS = [PLACE_IMAGES_FOLDER, BLOG_IMAGES_FOLDER];

/** How many store requests run at once (an object store answers each in tens of milliseconds). */
const CONCURRENCY = 8;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** `work` over `items`, at most `limit` at a time, results in input order. */
async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Every stored image with its size, sha256 and ETag (read through the store, one at a time per worker). */
export async function imageManifest(images: ImageStorage): Promise<ManifestEntry[]> {
  const keys: string[] = [];
  for (const folder of IMAGE_FOLDERS) keys.push(...(await images.list(folder)));
  const entries = await mapLimit(keys, CONCURRENCY, async (key): Promise<ManifestEntry | undefined> => {
    const object = await images.get(key);
    // Removed between list and get (a photo deleted meanwhile): not part of the backup.
    return object && { key, size: object.bytes.length, sha256: sha256(object.bytes), etag: object.etag };
  });
  return entries.filter((entry): entry is ManifestEntry => entry !== undefined);
}

/** The keys under DATA_DIR/private that are store keys (not temporary files), sorted. */
async function walkPrivate(root: string, relative: string[] = [], out: string[] = []): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readdir(path.join(root, ...relative), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return out;
    throw error;
  }
  for (const entry of entries) {
    const parts = [...relative, entry.name];
    if (entry.isDirectory()) await walkPrivate(root, parts, out);
    else if (entry.isFile()) {
      const key = parts.join("/");
      try {
        assertStoreKey(key);
        out.push(key);
      } catch {
        // A write in progress (`….tmp`) or a stranger's file: not a stored object.
      }
    }
  }
  return out.sort();
}

/** The local private store's files, read through the store for their size and sha256. */
export async function privateManifestFromDirectory(store: PrivateStore, root: string): Promise<ManifestEntry[]> {
  const keys = await walkPrivate(root);
  const entries = await mapLimit(keys, CONCURRENCY, async (key): Promise<ManifestEntry | undefined> => {
    const bytes = await store.get(key);
    return bytes ? { key, size: bytes.length, sha256: sha256(bytes) } : undefined;
  });
  return entries.filter((entry): entry is ManifestEntry => entry !== undefined);
}

export interface ManifestCheck {
  checked: number;
  /** Keys the store does not have, the first MAX_LISTED of them. */
  missing: string[];
  missingCount: number;
  /** Keys whose content differs from the backup's (private files, which are read to be found). */
  changed: string[];
  changedCount: number;
  /** Keys the store could not answer for (unreachable, refused), with the first error's message. */
  failedCount: number;
  firstError?: string;
}

const MAX_LISTED = 20;

/**
 * Checks manifest entries against the current stores as they stream in, CONCURRENCY at a time:
 * images by exists() (nothing downloaded), private files by get() (their only way) and sha256.
 */
export class ManifestChecker {
  private readonly inFlight = new Set<Promise<void>>();
  readonly result: ManifestCheck = {
    checked: 0,
    missing: [],
    missingCount: 0,
    changed: [],
    changedCount: 0,
    failedCount: 0,
  };

  constructor(private readonly stores: FileStores) {}

  /** Queues the check; a store that fails is counted, never a reason to fail the restore. */
  async add(store: StoreName, entry: ManifestEntry): Promise<void> {
    while (this.inFlight.size >= CONCURRENCY) await Promise.race(this.inFlight);
    const check = this.check(store, entry).then(
      () => {
        this.inFlight.delete(check);
      },
      (error: unknown) => {
        this.inFlight.delete(check);
        this.result.failedCount++;
        this.result.firstError ??= `${store}:${entry.key}: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
    this.inFlight.add(check);
  }

  async finish(): Promise<ManifestCheck> {
    await Promise.all(this.inFlight);
    this.result.missing.sort();
    this.result.changed.sort();
    return this.result;
  }

  private async check(store: StoreName, entry: ManifestEntry): Promise<void> {
    let state: "ok" | "missing" | "changed";
    if (store === "images") state = (await this.stores.images.exists(entry.key)) ? "ok" : "missing";
    else {
      const bytes = await this.stores.private.get(entry.key);
      state = !bytes ? "missing" : bytes.length === entry.size && sha256(bytes) === entry.sha256 ? "ok" : "changed";
    }
    const result = this.result;
    result.checked++;
    if (state === "missing" && result.missingCount++ < MAX_LISTED) result.missing.push(`${store}:${entry.key}`);
    if (state === "changed" && result.changedCount++ < MAX_LISTED) result.changed.push(`${store}:${entry.key}`);
  }
}

/**
 * The stores `config` names (the environment a backup or restore was given). The private folder is
 * walked only when the private store is the local one (no S3_BUCKET: docs/operations.md, Object
 * storage).
 */
export function configuredFileStores(config: Config): FileStores {
  return {
    images: imageStorageFor(config),
    private: privateStoreFor(config),
    privateDir: config.S3_BUCKET ? null : path.join(config.dataDir, "private"),
  };
}
