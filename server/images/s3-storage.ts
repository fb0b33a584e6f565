import type { S3Client } from "@aws-sdk/client-s3";
import { IMAGE_CONTENT_TYPES } from "../../domain/images";
import { deleteObjects, getObject, headObject, listKeys, putObject, s3Folder } from "../files/s3";
import { createByteCache, type ByteCache } from "./byte-cache";
import { assertValidKey, etagOf, normalizePrefix, type ImageStorage, type StoredObject } from "./storage";

/**
 * The S3 storage driver (docs/operations.md, "Object storage"): one object per key, stored as
 * `{prefix}/{key}` in the bucket, so every instance of the site sees the same files. A photo
 * variant drawn by one instance is stored here and read by all of them, never drawn twice.
 *
 * A PUT replaces an object whole (S3 never shows half of one). ETags are the SHA-1 of the bytes,
 * as the local driver's, so they match across instances and drivers. Reads go through a small
 * in-memory cache (LRU by total bytes, entries kept a few minutes) so hot files are not fetched
 * from the bucket on every request, and exists() remembers the keys it has seen stored, so that
 * repeated checks for the same files do not send a HEAD each. This instance's own writes and
 * removals clear both at once; another instance's show within `cacheTtlMs`.
 */
export interface S3StorageOptions {
  client: S3Client;
  bucket: string;
  /** A folder inside the bucket (S3_PREFIX); "" or unset for the bucket's root. */
  prefix?: string;
  /** Bytes the read cache may hold; 0 turns it off. */
  cacheBytes?: number;
  cacheTtlMs?: number;
  /** Milliseconds now, for the cache's TTL; tests pass their own. */
  clock?: () => number;
  /** ListObjectsV2's MaxKeys, at most 1000 (tests pass a small one to exercise pagination). */
  pageSize?: number;
}

export const S3_CACHE_BYTES = 32 * 1024 * 1024;
/** How long a cached file is served before the bucket is asked again. */
export const S3_CACHE_TTL_MS = 5 * 60_000;

/** Keys remembered as stored (see `known` below): about 1 MB of memory at most. */
const KNOWN_KEYS = 10_000;

export interface S3ImageStorage extends ImageStorage {
  /** The read cache, for tests and diagnostics. */
  readonly cache: ByteCache<StoredObject>;
}

interface Read {
  promise: Promise<StoredObject | undefined>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ...IMAGE_CONTENT_TYPES,
  jpeg: "image/jpeg",
  png: "image/png",
};

/** The Content-Type stored with an image file, from its extension. */
export function contentTypeOf(key: string): string | undefined {
  const dot = key.lastIndexOf(".");
  return dot < 0 ? undefined : CONTENT_TYPES[key.slice(dot + 1)];
}

export function createS3Storage({
  client,
  bucket,
  prefix = "",
  cacheBytes = S3_CACHE_BYTES,
  cacheTtlMs = S3_CACHE_TTL_MS,
  pageSize = 1000,
  clock = Date.now,
}: S3StorageOptions): S3ImageStorage {
  const folder = s3Folder(client, bucket, prefix);
  const cache = createByteCache<StoredObject>({ maxBytes: cacheBytes, ttlMs: cacheTtlMs, now: clock });
  // Reads under way, shared by concurrent requests for one key. A write or removal drops the
  // entry, and a read only fills the cache while it is still the entry, so a read that raced a
  // write never caches the bytes the write replaced.
  const reading = new Map<string, Read>();

  // Keys seen stored lately (put, read or HEAD), with when that expires: a caller that checks the
  // same files again and again (a photo's twelve) would otherwise send a HEAD each every time.
  const known = new Map<string, number>();
  const remember = (key: string) => {
    known.delete(key);
    known.set(key, clock() + cacheTtlMs);
    if (known.size > KNOWN_KEYS) known.delete(known.keys().next().value!);
  };
  const isKnown = (key: string) => {
    const expires = known.get(key);
    if (expires !== undefined && expires <= clock()) known.delete(key);
    return expires !== undefined && expires > clock();
  };

  const forget = (key: string) => {
    cache.delete(key);
    reading.delete(key);
    known.delete(key);
  };
  const forgetFolder = (key: string) => {
    cache.deleteFolder(key);
    const under = (each: string) => each === key || each.startsWith(`${key}/`);
    for (const each of [...reading.keys()]) if (under(each)) reading.delete(each);
    for (const each of [...known.keys()]) if (under(each)) known.delete(each);
  };

  async function load(key: string, read: Read): Promise<StoredObject | undefined> {
    const fetched = await getObject(folder, key);
    if (!fetched) return undefined;
    const object: StoredObject = { ...fetched, etag: etagOf(fetched.bytes) };
    if (reading.get(key) === read) {
      cache.set(key, object);
      remember(key);
    }
    return object;
  }

  /** Keys relative to the storage; objects with names no key can have are not listed. */
  async function keysUnder(key: string): Promise<{ valid: string[]; all: string[] }> {
    const all = await listKeys(folder, key, pageSize);
    const valid = all.filter((each) => {
      try {
        assertValidKey(each);
        return true;
      } catch {
        return false;
      }
    });
    return { valid, all };
  }

  return {
    cache,

    async put(key, bytes) {
      assertValidKey(key);
      forget(key);
      try {
        await putObject(folder, key, bytes, contentTypeOf(key));
      } finally {
        forget(key);
      }
      remember(key);
    },

    async get(key) {
      assertValidKey(key);
      const cached = cache.get(key);
      if (cached) return cached;
      const under = reading.get(key);
      if (under) return under.promise;
      const read = {} as Read;
      read.promise = load(key, read).finally(() => {
        if (reading.get(key) === read) reading.delete(key);
      });
      reading.set(key, read);
      return read.promise;
    },

    async exists(key) {
      assertValidKey(key);
      if (isKnown(key)) return true;
      const stored = (await headObject(folder, key)) !== undefined;
      if (stored) remember(key);
      return stored;
    },

    async list(prefix) {
      const key = normalizePrefix(prefix);
      return (await keysUnder(key)).valid.sort();
    },

    async remove(prefix) {
      const key = normalizePrefix(prefix);
      forgetFolder(key);
      const [object, under] = await Promise.all([headObject(folder, key), keysUnder(key)]);
      const doomed = object ? [key, ...under.all] : under.all;
      try {
        await deleteObjects(folder, doomed);
      } finally {
        forgetFolder(key);
      }
      return doomed.length;
    },
  };
}
