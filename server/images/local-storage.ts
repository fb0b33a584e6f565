import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { assertValidKey, etagOf, normalizePrefix, type ImageStorage, type StoredObject } from "./storage";

/**
 * The default storage driver: files under `root` (DATA_DIR), one file per key.
 *
 * Writes go to a dot-named temporary file in the target folder and are renamed into place, so a
 * reader (or a crash) sees the old file or the new one, never half of one. Keys are validated and
 * the resolved path re-checked against the root, so no key can reach outside it.
 */
export function createLocalStorage(root: string): ImageStorage {
  const base = path.resolve(root);

  function pathOf(key: string): string {
    assertValidKey(key);
    const full = path.resolve(base, ...key.split("/"));
    // Belt and braces: validation already excludes every way out of the root.
    if (!full.startsWith(base + path.sep)) throw new Error(`Storage key ${key} resolves outside ${base}`);
    return full;
  }

  async function listFolder(folder: string, keyPrefix: string, out: string[]): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      // Temporary files of writes in progress (and anything else hidden) are not objects.
      if (entry.name.startsWith(".")) continue;
      const key = `${keyPrefix}/${entry.name}`;
      if (entry.isDirectory()) await listFolder(path.join(folder, entry.name), key, out);
      else if (entry.isFile()) out.push(key);
    }
  }

  const storage: ImageStorage = {
    async put(key, bytes) {
      const target = pathOf(key);
      const folder = path.dirname(target);
      await fs.mkdir(folder, { recursive: true });
      const temp = path.join(folder, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
      try {
        await fs.writeFile(temp, bytes);
        await fs.rename(temp, target);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    },

    async get(key): Promise<StoredObject | undefined> {
      const file = pathOf(key);
      try {
        const [bytes, stat] = await Promise.all([fs.readFile(file), fs.stat(file)]);
        return { bytes, etag: etagOf(bytes), lastModified: stat.mtime };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async exists(key) {
      try {
        return (await fs.stat(pathOf(key))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },

    async list(prefix) {
      const folder = normalizePrefix(prefix);
      const keys: string[] = [];
      await listFolder(pathOf(folder), folder, keys);
      return keys.sort();
    },

    async remove(prefix) {
      const key = normalizePrefix(prefix);
      const target = pathOf(key);
      let stat;
      try {
        stat = await fs.stat(target);
      } catch (error) {
        if (isMissing(error)) return 0;
        throw error;
      }
      if (stat.isFile()) {
        await fs.rm(target, { force: true });
        return 1;
      }
      // One file at a time rather than rm -r: a write landing in the folder meanwhile survives.
      const keys = await storage.list(key);
      for (const each of keys) await fs.rm(pathOf(each), { force: true });
      await removeEmptyFolders(target);
      return keys.length;
    },
  };
  return storage;
}

/** Drops folders left empty under (and including) `folder`; a non-empty one stays. */
async function removeEmptyFolders(folder: string): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) if (entry.isDirectory()) await removeEmptyFolders(path.join(folder, entry.name));
  await fs.rmdir(folder).catch(() => {});
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}
