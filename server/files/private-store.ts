import fs from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";

/**
 * Files only the application may read (claim evidence): never under a public URL, served only by
 * routes that check who is asking. The local driver keeps them under DATA_DIR/private, the S3 one
 * (s3-private-store.ts) in the bucket's private/ folder (docs/operations.md, "Object storage");
 * getPrivateStore (./index.ts) picks one.
 */
export interface PrivateStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the file; removing a missing file is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are ours (ids joined by '/'), never a client's file name. */
const KEY = /^[a-z0-9][a-z0-9-]{0,99}(?:\/[a-z0-9][a-z0-9-]{0,99}){0,5}$/;

export function assertStoreKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`Invalid private storage key: ${JSON.stringify(key.slice(0, 200))}`);
}

export function createLocalPrivateStore(root: string): PrivateStore {
  const fileFor = (key: string) => {
    assertStoreKey(key);
    return path.join(root, ...key.split("/"));
  };
  return {
    async put(key, bytes) {
      const file = fileFor(key);
      await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // Written whole under a temporary name, then renamed: a reader never sees half a file.
      const temp = `${file}.${randomUUID()}.tmp`;
      await fs.writeFile(temp, bytes, { mode: 0o600 });
      await fs.rename(temp, file);
    },
    async get(key) {
      try {
        return new Uint8Array(await fs.readFile(fileFor(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileFor(key), { force: true });
    },
  };
}
