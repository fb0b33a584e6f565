import { getConfig } from "../config";
import { s3SettingsOf, sharedS3Client } from "../files/s3";
import { createLocalStorage } from "./local-storage";
import { createS3Storage } from "./s3-storage";
import type { ImageStorage } from "./storage";

let storage: ImageStorage | undefined;

/**
 * The storage the site and the command-line tools use: the S3 bucket when S3_BUCKET is set,
 * else the local filesystem under DATA_DIR (docs/operations.md, "Object storage"). Created on
 * first use rather than at import, so that importing this module reads no configuration (tests
 * set DATA_DIR first, then call the route).
 */
export function getImageStorage(): ImageStorage {
  if (storage) return storage;
  const config = getConfig();
  const s3 = s3SettingsOf(config);
  storage = s3
    ? createS3Storage({ client: sharedS3Client(s3), bucket: s3.bucket, prefix: s3.prefix })
    : createLocalStorage(config.dataDir);
  return storage;
}
