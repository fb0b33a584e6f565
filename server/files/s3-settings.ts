import type { Config } from "../config";

/**
 * Where the S3 drivers keep files, from S3_* (docs/operations.md, "Object storage"). Apart from
 * server/files/s3.ts so that choosing a driver does not load the AWS SDK.
 */
export interface S3Settings {
  bucket: string;
  /** An S3-compatible service's address; AWS when unset. */
  endpoint?: string | undefined;
  region: string;
  /** Both or neither; neither means the SDK's default credential chain. */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
  /** A folder inside the bucket for everything the site stores ("" for the bucket's root). */
  prefix: string;
}

/** The S3 settings, or undefined when S3_BUCKET is unset (files stay in DATA_DIR). */
export function s3SettingsOf(config: Config): S3Settings | undefined {
  if (!config.S3_BUCKET) return undefined;
  return {
    bucket: config.S3_BUCKET,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    prefix: config.S3_PREFIX ?? "",
  };
}

/**
 * A loader that runs once, on first call, and again after a failure: the S3 drivers are imported
 * only when a file is first read or written, so a site keeping its files in DATA_DIR never loads
 * the AWS SDK (about half a second and 20 MB at start-up).
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}
