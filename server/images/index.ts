import { getConfig, type Config } from "../config";
import type { S3Settings } from "../files/s3";
import { onFirstUse, s3SettingsOf } from "../files/s3-settings";
import { createLocalStorage } from "./local-storage";
import type { ImageStorage } from "./storage";

let storage: ImageStorage | undefined;

/**
 * The storage the site and the command-line tools use: the S3 bucket when S3_BUCKET is set,
 * else the local filesystem under DATA_DIR (docs/operations.md, "Object storage"). Created on
 * first use rather than at import, so that importing this module reads no configuration (tests
 * set DATA_DIR first, then call the route).
 */
export function getImageStorage(): ImageStorage {
  storage ??= imageStorageFor(getConfig());
  return storage;
}

/** A new storage for `config`: a command-line tool's, read from the environment it was given. */
export function imageStorageFor(config: Config): ImageStorage {
  const s3 = s3SettingsOf(config);
  return s3 ? lazyS3Storage(s3) : createLocalStorage(config.dataDir);
}

/**
 * The S3 driver, loaded on its first call: the AWS SDK costs about half a second and 20 MB at
 * start-up, which a site keeping its files in DATA_DIR should not pay.
 */
function lazyS3Storage(settings: S3Settings): ImageStorage {
  const load = onFirstUse(async () => {
    const [{ createS3Storage }, { sharedS3Client }] = await Promise.all([
      import("./s3-storage"),
      import("../files/s3"),
    ]);
    return createS3Storage({ client: sharedS3Client(settings), bucket: settings.bucket, prefix: settings.prefix });
  });
  return {
    put: async (key, bytes) => (await load()).put(key, bytes),
    get: async (key) => (await load()).get(key),
    exists: async (key) => (await load()).exists(key),
    list: async (prefix) => (await load()).list(prefix),
    remove: async (prefix) => (await load()).remove(prefix),
  };
}
