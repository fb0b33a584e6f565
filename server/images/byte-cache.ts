/**
 * A least-recently-used cache of byte objects, bounded by their total size, with entries that
 * expire after `ttlMs`. The S3 storage driver keeps hot files here so that a popular photo is not
 * fetched from the bucket on every request (docs/operations.md, "Object storage").
 */
export interface ByteCache<T extends { bytes: Uint8Array }> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  delete(key: string): void;
  /** Drops `key` and every key under the folder `key/`. */
  deleteFolder(folder: string): void;
  readonly bytes: number;
  readonly size: number;
}

export interface ByteCacheOptions {
  maxBytes: number;
  /** Larger objects are not kept, so that one cannot push out many small hot ones. */
  maxEntryBytes?: number;
  ttlMs: number;
  now?: () => number;
}

export function createByteCache<T extends { bytes: Uint8Array }>({
  maxBytes,
  maxEntryBytes = Math.floor(maxBytes / 8),
  ttlMs,
  now = Date.now,
}: ByteCacheOptions): ByteCache<T> {
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recent first.
  const entries = new Map<string, { value: T; expires: number }>();
  let total = 0;

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.value.bytes.length;
  };

  return {
    get bytes() {
      return total;
    },
    get size() {
      return entries.size;
    },
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        drop(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      drop(key);
      const size = value.bytes.length;
      if (size > maxEntryBytes || size > maxBytes) return;
      entries.set(key, { value, expires: now() + ttlMs });
      total += size;
      for (const oldest of entries.keys()) {
        if (total <= maxBytes) break;
        drop(oldest);
      }
    },
    delete: drop,
    deleteFolder(folder) {
      drop(folder);
      const under = `${folder}/`;
      for (const key of [...entries.keys()]) if (key.startsWith(under)) drop(key);
    },
  };
}
