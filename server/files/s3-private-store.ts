import type { S3Client } from "@aws-sdk/client-s3";
import { assertStoreKey, type PrivateStore } from "./private-store";
import { deleteObject, getObject, putObject, s3Folder } from "./s3";

/** The folder of private files inside the bucket (and S3_PREFIX), as DATA_DIR/private is locally. */
export const PRIVATE_FOLDER = "private";

/**
 * Claim evidence in the bucket, under `{prefix}/private/` (docs/operations.md, "Object storage"). The
 * bucket is private; these files are read only by the routes that check who is asking, never
 * under a public URL, and never cached in memory.
 */
export function createS3PrivateStore({
  client,
  bucket,
  prefix = "",
}: {
  client: S3Client;
  bucket: string;
  prefix?: string;
}): PrivateStore {
  const folder = s3Folder(client, bucket, prefix, PRIVATE_FOLDER);
  return {
    async put(key, bytes) {
      assertStoreKey(key);
      await putObject(folder, key, bytes);
    },
    async get(key) {
      assertStoreKey(key);
      const object = await getObject(folder, key);
      return object ? new Uint8Array(object.bytes) : null;
    },
    async delete(key) {
      assertStoreKey(key);
      await deleteObject(folder, key);
    },
  };
}
