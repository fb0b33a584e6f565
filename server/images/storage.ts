import { createHash } from "node:crypto";

/**
 * Where processed photos live. Keys are `/`-separated relative paths such as
 * `place-images/{placeId}/w640n1.webp`, the same shape an S3-compatible bucket uses, so a second
 * driver can slot in without the pipeline or the route changing (docs/architecture.md: local
 * filesystem by default, S3 later).
 */
export interface ImageStorage {
  /** Stores the bytes under `key`, replacing what was there; readers never see a partial file. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The stored object, or undefined when there is none. */
  get(key: string): Promise<StoredObject | undefined>;
  exists(key: string): Promise<boolean>;
  /** Every key under the folder `prefix` (e.g. `place-images/abc`), sorted; [] when there is none. */
  list(prefix: string): Promise<string[]>;
  /**
   * Removes the object `prefix` if there is one and every key under the folder `prefix`; returns
   * how many objects went. Folder semantics (not a raw string prefix) so that removing `.../w320n1`
   * can never take `.../w320n10.avif` with it.
   */
  remove(prefix: string): Promise<number>;
}

export interface StoredObject {
  bytes: Buffer;
  /** A strong ETag (quoted), derived from the content so it is the same on every server. */
  etag: string;
  lastModified: Date;
}

export class InvalidStorageKeyError extends Error {
  override name = "InvalidStorageKeyError";
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid storage key ${JSON.stringify(key)}: ${reason}`);
  }
}

const MAX_KEY_LENGTH = 512;
// A segment may not start with a dot: that rules out `.` and `..`, and keeps the namespace of
// dot-files free for the local driver's temporary files, which therefore never show up in list().
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * Throws unless `key` is a relative path of plain segments: no `..`, no absolute or drive paths,
 * no backslashes, no empty segments. Every driver calls this before touching anything.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== "string" || key.length === 0) throw new InvalidStorageKeyError(String(key), "empty");
  if (key.length > MAX_KEY_LENGTH) throw new InvalidStorageKeyError(key, `longer than ${MAX_KEY_LENGTH} characters`);
  if (key.startsWith("/")) throw new InvalidStorageKeyError(key, "absolute paths are not allowed");
  for (const segment of key.split("/")) {
    if (segment === "") throw new InvalidStorageKeyError(key, "empty path segment");
    if (segment === "." || segment === "..") throw new InvalidStorageKeyError(key, `"${segment}" is not allowed`);
    if (!SEGMENT.test(segment))
      throw new InvalidStorageKeyError(
        key,
        `segment ${JSON.stringify(segment)} has characters outside A-Z a-z 0-9 . _ -`,
      );
  }
}

/** A folder prefix with at most one trailing slash dropped, validated like a key. */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
  assertValidKey(trimmed);
  return trimmed;
}

export function etagOf(bytes: Uint8Array): string {
  return `"${createHash("sha1").update(bytes).digest("base64url")}"`;
}
